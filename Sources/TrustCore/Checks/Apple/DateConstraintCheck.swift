import CTModel
import TrustSupport
import TrustX509

/// trustd's Valid database date constraints (docs/steps.md, `revocation`): a CA whose SHA-256 the
/// table lists is trusted only for certificates issued within its range. Its steps carry the
/// `revocation` id, as trustd decides them while checking revocation
/// (SecPathBuilderCheckRevocation), and appear only on a path through a constrained CA.
struct DateConstraintCheck: PathCheck {
    /// Whether the SSL-only rules apply (SecPVCPolicyPermitsCTRequired): the path's issuance time
    /// against every not-after bound above, and the CT requirement of a passed bound.
    let sslRules: Bool

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        // The path is already bounded in length; the look-ups cost one hash each.
        guard c.count > 1 else { return }
        let table = c.settings.dateConstraints ?? DateConstraint.apple
        guard !table.isEmpty else { return }
        var constrained: [(index: Int, constraint: DateConstraint)] = []
        for i in 0..<(c.count - 1) {
            let issuer = c.certificates[i + 1]
            if let found = table[hexString(issuer.sha256).uppercased()] { constrained.append((i, found)) }
        }
        guard !constrained.isEmpty else { return }
        // SecRVCProcessValidDateConstraints, for each certificate a constrained CA issued: its own
        // notBefore against the range; a not-before bound only when that certificate is the leaf.
        for (i, constraint) in constrained {
            let cert = c.certificates[i]
            let issued = cert.notBefore
            var outside = false
            if let bound = constraint.notBefore, issued < bound, i == 0 { outside = true }
            if let bound = constraint.notAfter, issued > bound { outside = true }
            if !outside {
                steps.append(
                    Step(
                        .revocation, i, .passed,
                        DateConstraintFinding.issuedWithinDateConstraint(constraint: constraint, issued: issued)))
            } else if constraint.isOverridable {
                steps.append(
                    Step(
                        .revocation, i, .failed,
                        DateConstraintFinding.issuedOutsideOverridableDateConstraint(
                            constraint: constraint, issued: issued)))
            } else {
                steps.append(
                    Step(
                        .revocation, i, .failed,
                        DateConstraintFinding.issuedOutsideDateConstraint(constraint: constraint, issued: issued)))
            }
        }
        guard sslRules else { return }
        // SecPVCCheckRequireCTConstraints: the path's issuance time is the earliest embedded SCT
        // that verified from a trusted log that is not retired, else the leaf's notBefore.
        let assessment = steps.last { $0.id == .certificateTransparency }?.finding.certificateTransparency
        let earliestSCT = assessment?.scts.filter {
            $0.source == .embedded && $0.outcome == .verified && $0.logState != .retired
        }.compactMap(\.timestamp).min()
        let issuance = earliestSCT ?? c.certificates[0].notBefore
        for (i, constraint) in constrained {
            guard let bound = constraint.notAfter, issuance > bound else { continue }
            let finding =
                constraint.isOverridable
                ? DateConstraintFinding.pathIssuedAfterOverridableCutoff(
                    constraint: constraint, issued: issuance, fromSCT: earliestSCT != nil)
                : DateConstraintFinding.pathIssuedAfterCutoff(
                    constraint: constraint, issued: issuance, fromSCT: earliestSCT != nil)
            steps.append(Step(.revocation, i, .failed, finding))
            break
        }
        // SecRVCProcessValidDateConstraints marks a passed not-after bound "requires CT".
        if let passed = constrained.first(where: { ($0.constraint.notAfter.map { $0 < c.settings.time }) ?? false }),
            assessment?.qualified != true
        {
            steps.append(
                Step(
                    .revocation, 0, .failed,
                    DateConstraintFinding.ctRequiredByDateConstraint(constraint: passed.constraint)))
        }
    }
}
