import PathRules
import TrustX509

/// `validity`: RFC 5280 4.1.2.5 / Apple TemporalValidity, on every certificate of the path; under
/// Apple's profile with trustd's adjustments (PathRules' `AnchorExpiryRules`).
struct ValidityCheck: PathCheck {
    /// Whether trustd's adjustments apply: Apple's anchors never expire; Safari's roots expire early.
    var appleAdjustments = false

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        let now = c.settings.time
        // trustd asks early expiry of the path's root only: its anchor, or an untrusted self-signed root.
        let root = c.path.isAnchored || c.path.endsSelfSigned ? c.count - 1 : -1
        for (i, cert) in c.certificates.enumerated() {
            // Every certificate, anchor included, under both profiles: Apple checks them all, and
            // so does x509-limbo (rfc5280::validity::expired-root), although RFC 5280 6.1.3 (a)(2)
            // names only the path's certificates and leaves the anchor's dates to the relying
            // party (6.1.1 (d)).
            let rule =
                appleAdjustments
                ? AnchorExpiryRules.outcome(
                    cert, isRoot: i == root, userAnchor: c.endsAtDeviceAnchor, client: c.settings.client, time: now)
                : nil
            if let rule, case .neverExpires = rule.kind {
                steps.append(Step(.validity, i, .passed, ValidityFinding.appleAnchorNeverExpires(rule)))
            } else if now < cert.notBefore {
                steps.append(Step(.validity, i, .failed, ValidityFinding.notYetValid(notBefore: cert.notBefore)))
            } else if now > cert.notAfter {
                steps.append(Step(.validity, i, .failed, ValidityFinding.expired(notAfter: cert.notAfter)))
            } else if let rule {
                let finding = rule.expires ? ValidityFinding.expiresEarly(rule) : .withinEarlyExpiry(rule)
                steps.append(Step(.validity, i, rule.expires ? .failed : .passed, finding))
            } else {
                let finding = ValidityFinding.withinValidity(notBefore: cert.notBefore, notAfter: cert.notAfter)
                steps.append(Step(.validity, i, .passed, finding))
            }
        }
    }
}
