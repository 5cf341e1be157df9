import TrustSupport

/// What the date-constraint half of the `revocation` step found (DateConstraintCheck): trustd's
/// Valid database constraints on the CAs of the path. Every case names the constraint.
enum DateConstraintFinding: RuleFinding {
    /// The certificate's notBefore lies within the range its issuer is constrained to.
    case issuedWithinDateConstraint(constraint: DateConstraint, issued: Timestamp)
    /// Outside the range, entry not overridable (or its flag unknown): SecRVCProcessValidDateConstraints
    /// records Revocation.
    case issuedOutsideDateConstraint(constraint: DateConstraint, issued: Timestamp)
    /// Outside the range, entry overridable: GrayListedKey.
    case issuedOutsideOverridableDateConstraint(constraint: DateConstraint, issued: Timestamp)
    /// SSL: the path's issuance time (earliest embedded SCT, else the leaf's notBefore) is after
    /// the not-after bound of a CA above this certificate (SecPVCCheckRequireCTConstraints):
    /// BlackListedLeaf.
    case pathIssuedAfterCutoff(constraint: DateConstraint, issued: Timestamp, fromSCT: Bool)
    /// As `pathIssuedAfterCutoff`, the entry overridable: GrayListedLeaf.
    case pathIssuedAfterOverridableCutoff(constraint: DateConstraint, issued: Timestamp, fromSCT: Bool)
    /// SSL: a constraint whose not-after bound has passed requires Certificate Transparency, and
    /// the path is not CT-qualified: CTRequired on the leaf.
    case ctRequiredByDateConstraint(constraint: DateConstraint)

    var storage: Finding.Storage { .dateConstraint(self) }

    /// The constraint the finding is about.
    var constraint: DateConstraint {
        switch self {
        case .issuedWithinDateConstraint(let c, _), .issuedOutsideDateConstraint(let c, _),
            .issuedOutsideOverridableDateConstraint(let c, _), .pathIssuedAfterCutoff(let c, _, _),
            .pathIssuedAfterOverridableCutoff(let c, _, _), .ctRequiredByDateConstraint(let c):
            c
        }
    }

    /// SecPolicyChecks.list's keys for the checks trustd's Valid results set.
    var appleFailure: AppleFailure? {
        switch self {
        case .issuedWithinDateConstraint: nil
        case .issuedOutsideDateConstraint: AppleFailure("Revocation", .revoked, -67820, fatal: true)
        case .issuedOutsideOverridableDateConstraint: AppleFailure("GrayListedKey", .trust, -67843)
        case .pathIssuedAfterCutoff: AppleFailure("BlackListedLeaf", .blocked, -67820, fatal: true)
        case .pathIssuedAfterOverridableCutoff: AppleFailure("GrayListedLeaf", .trust, -67843)
        case .ctRequiredByDateConstraint(let c): AppleFailure("CTRequired", .trust, -67843, fatal: !c.isOverridable)
        }
    }

    /// One line, no newline.
    var title: String {
        let c = constraint
        return switch self {
        case .issuedWithinDateConstraint: "Issued within \(c.name)'s date constraint (\(c.rule))"
        case .issuedOutsideDateConstraint, .issuedOutsideOverridableDateConstraint:
            "Issued outside \(c.name)'s date constraint (\(c.rule))"
        case .pathIssuedAfterCutoff, .pathIssuedAfterOverridableCutoff:
            "Chain issued after \(c.name)'s cut-off (\(c.rule))"
        case .ctRequiredByDateConstraint: "CT required by \(c.name)'s date constraint"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        let c = constraint
        let rule =
            "Apple trusts the certificates \(c.name) issues only when issued within its date constraint: \(c.provenance)."
        let valid = "trustd's Valid database, keyed by the issuing CA's SHA-256"
        switch self {
        case .issuedWithinDateConstraint(_, let issued):
            return
                "\(rule) This certificate's notBefore, \(issued.rfc3339), lies within it (\(valid); SecRVCProcessValidDateConstraints)."
        case .issuedOutsideDateConstraint(_, let issued):
            return
                "\(rule) This certificate's notBefore, \(issued.rfc3339), lies outside it (\(valid); SecRVCProcessValidDateConstraints: Revocation, errSecCertificateRevoked; fatal)."
        case .issuedOutsideOverridableDateConstraint(_, let issued):
            return
                "\(rule) This certificate's notBefore, \(issued.rfc3339), lies outside it; the entry is overridable (\(valid); SecRVCProcessValidDateConstraints: GrayListedKey, errSecNotTrusted; recoverable)."
        case .pathIssuedAfterCutoff(_, let issued, let fromSCT),
            .pathIssuedAfterOverridableCutoff(_, let issued, let fromSCT):
            let when = fromSCT ? "the earliest embedded SCT from a trusted log" : "the leaf's notBefore"
            let code =
                if case .pathIssuedAfterCutoff = self {
                    "BlackListedLeaf, errSecCertificateRevoked; fatal"
                } else {
                    "GrayListedLeaf, errSecNotTrusted; recoverable"
                }
            return
                "\(rule) The chain's issuance time, \(issued.rfc3339) (\(when)), is after it, so this certificate issued by the constrained CA fails (\(valid); SecPVCCheckRequireCTConstraints: \(code))."
        case .ctRequiredByDateConstraint:
            return
                "\(rule) Its not-after bound has passed, which makes trustd require Certificate Transparency of any chain through it, and this chain is not CT-qualified (SecRVCProcessValidInfoResults, SecPVCCheckRequireCTConstraints: CTRequired, errSecNotTrusted; \(c.isOverridable ? "recoverable" : "fatal"))."
        }
    }
}
