import PathRules
import TrustX509

/// `name-constraints`: every name below a constrained CA lies within its permitted subtrees and
/// outside its excluded ones (RFC 5280 4.2.1.10 and 6.1.3 (b)-(c)).
struct NameConstraintsCheck: PathCheck {
    /// Apple: a CA's critical constraint on a name form trustd does not process fails the path.
    let rejectsFormsAppleCannotProcess: Bool
    /// RFC 5280's own rules: nameConstraints only in a CA certificate, and names matched as RFC
    /// 5280 4.2.1.10 reads them (webpki).
    let rfc5280Rules: Bool
    /// RFC 5280 4.2.1.10: "Conforming CAs MUST mark this extension as critical" (the Baseline
    /// Requirements let a CA leave it non-critical, BR 7.1.2.10.8).
    let mustBeCritical: Bool

    var enforcedExtensions: Set<OID> { [.nameConstraints] }

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        let constrained = c.certificates.indices.filter { c.certificates[$0].nameConstraints != nil }
        guard !constrained.isEmpty else {
            steps.append(Step(.nameConstraints, nil, .notApplicable, NameConstraintsFinding.noNameConstraints))
            return
        }
        appleUnsupportedForms(c, constrained, into: &steps)
        // The work this path needs, counted before doing any of it: every name below a constrained
        // CA against each of its subtrees.
        var comparisons = 0
        for i in 0..<c.count where !(i > 0 && c.certificates[i].isSelfIssued) {
            let count = Self.names(of: c.certificates[i]).count
            for k in constrained where k > i {
                let nc = c.certificates[k].nameConstraints!
                comparisons += count * ((nc.permitted?.count ?? 0) + (nc.excluded?.count ?? 0))
            }
        }
        if rfc5280Rules {
            for k in constrained {
                let cert = c.certificates[k]
                // RFC 5280 4.2.1.10: "The name constraints extension, which MUST be used only in a
                // CA certificate, ..."
                if cert.basicConstraints?.isCA != true {
                    steps.append(
                        Step(
                            .nameConstraints, k, .failed,
                            NameConstraintsFinding.nameConstraintViolated(
                                name: cert.displayName,
                                reason:
                                    "nameConstraints appears in a certificate that is not a CA (RFC 5280 4.2.1.10: \"MUST be used only in a CA certificate\")"
                            )))
                }
                if mustBeCritical, cert.extension(.nameConstraints)?.critical == false {
                    steps.append(
                        Step(
                            .nameConstraints, k, .failed,
                            NameConstraintsFinding.nameConstraintViolated(
                                name: cert.displayName,
                                reason:
                                    "nameConstraints is not marked critical (RFC 5280 4.2.1.10: \"Conforming CAs MUST mark this extension as critical\")"
                            )))
                }
            }
        }
        // The one bound on this work (as Go's maxConstraintComparisons and rustls-webpki's budget):
        // the evaluation's budget sums it over every path under every policy; a path that would
        // overrun it is not compared at all, and the evaluation ends with the `budget` step.
        guard budget.chargeNameConstraintComparisons(comparisons) else {
            let kind = budget.exhausted ?? .nameConstraintComparisons
            steps.append(
                Step(
                    .nameConstraints, nil, .skipped("the evaluation's budget ran out before these names were compared"),
                    BudgetFinding.budgetExhausted(budget: kind, limit: budget.limit(of: kind))))
            return
        }
        for i in 0..<c.count {
            // The deadline still applies to comparisons within budget; the budget step follows.
            guard budget.withinTime() else { return }
            let above = constrained.filter { $0 > i }
            if above.isEmpty { continue }
            let cert = c.certificates[i]
            // RFC 5280 6.1.3 (b): self-issued intermediates are exempt; the leaf never is.
            if i > 0 && cert.isSelfIssued { continue }
            var violation: (String, String)?
            outer: for k in above {
                let nc = c.certificates[k].nameConstraints!
                for name in Self.names(of: cert) {
                    if let why = NameConstraintMatcher.violation(name, nc, webpki: rfc5280Rules) {
                        violation = (name.valueText, why + " (constraint on \(c.certificates[k].displayName))")
                        break outer
                    }
                }
            }
            if let (name, why) = violation {
                steps.append(
                    Step(
                        .nameConstraints, i, .failed,
                        NameConstraintsFinding.nameConstraintViolated(name: name, reason: why)))
            } else {
                steps.append(
                    Step(.nameConstraints, i, .passed, NameConstraintsFinding.withinNameConstraints(count: above.count))
                )
            }
        }
    }

    /// The names a constraint applies to: the subject (as directoryName), subject email
    /// addresses (as rfc822Name when there is no SAN), and every SAN entry.
    static func names(of cert: Certificate) -> [GeneralName] {
        var out: [GeneralName] = []
        if !cert.subject.isEmpty { out.append(.directoryName(cert.subject)) }
        if let san = cert.subjectAltNames {
            out += san
        } else {
            for email in cert.subject.values(of: .emailAddress) { out.append(.rfc822Name(email)) }
        }
        return out
    }
}
