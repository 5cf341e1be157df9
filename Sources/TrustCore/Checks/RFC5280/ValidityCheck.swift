import TrustX509

/// `validity`: RFC 5280 4.1.2.5 / Apple TemporalValidity, on every certificate of the path.
struct ValidityCheck: PathCheck {
    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        let now = c.settings.time
        for (i, cert) in c.certificates.enumerated() {
            // Every certificate, anchor included, under both profiles: Apple checks them all, and
            // so does x509-limbo (rfc5280::validity::expired-root), although RFC 5280 6.1.3 (a)(2)
            // names only the path's certificates and leaves the anchor's dates to the relying
            // party (6.1.1 (d)).
            if now < cert.notBefore {
                steps.append(Step(.validity, i, .failed, ValidityFinding.notYetValid(notBefore: cert.notBefore)))
            } else if now > cert.notAfter {
                steps.append(Step(.validity, i, .failed, ValidityFinding.expired(notAfter: cert.notAfter)))
            } else {
                steps.append(
                    Step(
                        .validity, i, .passed,
                        ValidityFinding.withinValidity(
                            notBefore: cert.notBefore,
                            notAfter: cert.notAfter)))
            }
        }
    }
}
