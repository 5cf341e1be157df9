import PathRules

/// What the date-constraint `revocation` steps found (DateConstraintRules); each names the constraint.
enum DateConstraintFinding: RuleFinding {
    case issuedWithinDateConstraint(DateConstraintRules.Outcome)
    case issuedOutsideDateConstraint(DateConstraintRules.Outcome)
    case issuedOutsideOverridableDateConstraint(DateConstraintRules.Outcome)
    case pathIssuedAfterCutoff(DateConstraintRules.Outcome)
    case pathIssuedAfterOverridableCutoff(DateConstraintRules.Outcome)
    case ctRequiredByDateConstraint(DateConstraintRules.Outcome)

    init(_ o: DateConstraintRules.Outcome) {
        let overridable = o.constraint.isOverridable
        self =
            switch o.kind {
            case .within: .issuedWithinDateConstraint(o)
            case .outside: overridable ? .issuedOutsideOverridableDateConstraint(o) : .issuedOutsideDateConstraint(o)
            case .pathAfterCutoff: overridable ? .pathIssuedAfterOverridableCutoff(o) : .pathIssuedAfterCutoff(o)
            case .ctRequired: .ctRequiredByDateConstraint(o)
            }
    }

    var outcome: DateConstraintRules.Outcome {
        switch self {
        case .issuedWithinDateConstraint(let o), .issuedOutsideDateConstraint(let o),
            .issuedOutsideOverridableDateConstraint(let o), .pathIssuedAfterCutoff(let o),
            .pathIssuedAfterOverridableCutoff(let o), .ctRequiredByDateConstraint(let o):
            o
        }
    }

    var storage: Finding.Storage { .dateConstraint(self) }
    var appleFailure: AppleFailure? {
        switch self {
        case .issuedWithinDateConstraint: nil
        case .issuedOutsideDateConstraint: AppleFailure("Revocation", .revoked, -67820, fatal: true)
        case .issuedOutsideOverridableDateConstraint: AppleFailure("GrayListedKey", .trust, -67843)
        case .pathIssuedAfterCutoff: AppleFailure("BlackListedLeaf", .blocked, -67820, fatal: true)
        case .pathIssuedAfterOverridableCutoff: AppleFailure("GrayListedLeaf", .trust, -67843)
        case .ctRequiredByDateConstraint:
            AppleFailure("CTRequired", .trust, -67843, fatal: !outcome.constraint.isOverridable)
        }
    }
    var title: String { DateConstraintRules.title(outcome) }
    var detail: String { DateConstraintRules.detail(outcome) }
}
