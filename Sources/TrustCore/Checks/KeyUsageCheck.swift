import TrustX509

/// `key-usage`: an issuer's keyUsage, when present, must allow keyCertSign (RFC 5280 6.1.4 (n)).
enum KeyUsageCheck: PathCheck {
    static let enforcedExtensions: Set<OID> = [.keyUsage]

    static func run(_ c: CheckContext, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            if i == 0 {
                let present = cert.keyUsage?.setNames ?? []
                if c.webpki, let ku = cert.keyUsage, ku.keyCertSign, cert.basicConstraints?.isCA != true {
                    // RFC 5280 4.2.1.9: "If the cA boolean is not asserted, then the keyCertSign bit
                    // in the key usage extension MUST NOT be asserted."
                    steps.append(
                        Step(
                            .keyUsage, 0, .failed,
                            .nonCompliant(
                                detail:
                                    "keyUsage asserts keyCertSign but basicConstraints does not assert cA (RFC 5280 4.2.1.9)"
                            )))
                } else if c.caBrowserForum, let ku = cert.keyUsage, ku.bits != 0, !ku.has(0), !ku.has(2),
                    !ku.has(4)
                {
                    steps.append(Step(.keyUsage, 0, .failed, .leafKeyUsageLacksSignature(present: present)))
                } else if cert.keyUsage != nil {
                    steps.append(Step(.keyUsage, 0, .passed, .leafKeyUsage(present: present)))
                } else {
                    steps.append(Step(.keyUsage, 0, .notApplicable, .keyUsageAbsent))
                }
                continue
            }
            guard let ku = cert.keyUsage else {
                // Apple checks only a present keyUsage; CABF BR 7.1.2.10.7 requires it on CAs.
                if c.webpki && !(c.isAnchor(i) && cert.version < 3) {
                    steps.append(Step(.keyUsage, i, .failed, .keyUsageMissingOnCA))
                } else {
                    steps.append(Step(.keyUsage, i, .passed, .keyUsageAbsent))
                }
                continue
            }
            if ku.keyCertSign {
                steps.append(Step(.keyUsage, i, .passed, .keyUsageAllowsCertSign))
            } else {
                steps.append(Step(.keyUsage, i, .failed, .keyUsageLacksCertSign(present: ku.setNames)))
            }
        }
    }
}
