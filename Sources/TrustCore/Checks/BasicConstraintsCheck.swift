import TrustX509

/// `basic-constraints`: issuers are CAs and path lengths hold (RFC 5280 4.2.1.9, 6.1.4 (k)-(m)).
enum BasicConstraintsCheck: PathCheck {
    static let enforcedExtensions: Set<OID> = [.basicConstraints]

    static func run(_ c: CheckContext, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            if i == 0 {
                // CA/Browser Forum BR 7.1.2.7.8: a subscriber certificate is not a CA. RFC 5280
                // alone allows a CA in leaf position.
                if c.caBrowserForum, c.count > 1, cert.basicConstraints?.isCA == true {
                    steps.append(Step(.basicConstraints, 0, .failed, .leafIsCA))
                } else {
                    steps.append(Step(.basicConstraints, 0, .notApplicable, .leafNeedsNoCA))
                }
                continue
            }
            guard let bc = cert.basicConstraints else {
                // Apple: only a v3 issuer without basicConstraints fails; v1 roots are tolerated.
                if cert.version < 3 && !c.webpki {
                    steps.append(Step(.basicConstraints, i, .passed, .isCA(pathLength: nil)))
                } else {
                    steps.append(
                        Step(.basicConstraints, i, .failed, cert.version < 3 ? .v1Issuer : .missingBasicConstraints))
                }
                continue
            }
            guard bc.isCA else {
                steps.append(Step(.basicConstraints, i, .failed, .notCA))
                continue
            }
            if let limit = bc.pathLength {
                // RFC 5280 6.1.4 (l): self-issued certificates below do not count, nor does the leaf.
                var below = 0
                if i >= 2 {
                    for k in 1..<i where !c.certificates[k].isSelfIssued { below += 1 }
                }
                if below > limit {
                    steps.append(Step(.basicConstraints, i, .failed, .pathLengthExceeded(limit: limit, actual: below)))
                    continue
                }
            }
            steps.append(Step(.basicConstraints, i, .passed, .isCA(pathLength: bc.pathLength)))
        }
    }
}
