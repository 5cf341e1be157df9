/// `validity`: RFC 5280 4.1.2.5 / Apple TemporalValidity, on every certificate of the path.
enum ValidityCheck: PathCheck {
    static func run(_ c: CheckContext, into steps: inout [Step]) {
        let now = c.settings.time
        for (i, cert) in c.certificates.enumerated() {
            // RFC 5280 6.1.3 (a)(2) checks the path's certificates, not the trust anchor; Apple
            // checks every certificate, anchor included.
            if c.webpki && c.isAnchor(i) {
                steps.append(Step(.validity, i, .notApplicable, .withinValidity(notBefore: cert.notBefore,
                    notAfter: cert.notAfter)))
                continue
            }
            if now < cert.notBefore {
                steps.append(Step(.validity, i, .failed, .notYetValid(notBefore: cert.notBefore)))
            } else if now > cert.notAfter {
                steps.append(Step(.validity, i, .failed, .expired(notAfter: cert.notAfter)))
            } else {
                steps.append(Step(.validity, i, .passed, .withinValidity(notBefore: cert.notBefore,
                    notAfter: cert.notAfter)))
            }
        }
    }
}
