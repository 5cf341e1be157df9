import CTModel
import PathRules

/// trustd's Valid date constraints (DateConstraintRules) as `revocation` steps, where trustd decides
/// them, only on a path through a constrained CA.
struct DateConstraintCheck: PathCheck {
    /// Whether the SSL-only rules apply (SecPVCPolicyPermitsCTRequired).
    let sslRules: Bool

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        // The CT step ran before: its SCTs give the path's issuance time.
        let ct = sslRules ? steps.last { $0.id == .certificateTransparency }?.finding.certificateTransparency : nil
        let embedded = ct?.scts.filter { $0.source == .embedded && $0.outcome == .verified && $0.logState != .retired }
        let outcomes = DateConstraintRules.apply(
            path: c.certificates, table: c.settings.dateConstraints ?? DateConstraint.apple, ssl: sslRules,
            earliestSCT: embedded?.compactMap(\.timestamp).min(), ctQualified: ct?.qualified == true,
            time: c.settings.time)
        for o in outcomes {
            let finding = DateConstraintFinding(o)
            steps.append(Step(.revocation, o.index, finding.appleFailure == nil ? .passed : .failed, finding))
        }
    }
}
