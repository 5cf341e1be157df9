import TrustX509

/// `key-usage`: an issuer's keyUsage, when present, must allow keyCertSign (RFC 5280 6.1.4 (n)).
struct KeyUsageCheck: PathCheck {
    /// RFC 5280 4.2.1.9: keyCertSign on a leaf needs basicConstraints cA.
    let leafCertSignNeedsCA: Bool
    /// CA/Browser Forum: a leaf's keyUsage, when present, allows digitalSignature or key
    /// encipherment.
    let leafNeedsSignatureUsage: Bool
    /// CA/Browser Forum BR 7.1.2.10.7: an issuer carries keyUsage (Apple checks only a present
    /// one).
    let issuersNeedKeyUsage: Bool

    var enforcedExtensions: Set<OID> { [.keyUsage] }

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            if i == 0 {
                let present = cert.keyUsage?.setNames ?? []
                if leafCertSignNeedsCA, let ku = cert.keyUsage, ku.keyCertSign, cert.basicConstraints?.isCA != true {
                    // RFC 5280 4.2.1.9: "If the cA boolean is not asserted, then the keyCertSign bit
                    // in the key usage extension MUST NOT be asserted."
                    steps.append(
                        Step(
                            .keyUsage, 0, .failed,
                            ComplianceFinding.nonCompliant(
                                detail:
                                    "keyUsage asserts keyCertSign but basicConstraints does not assert cA (RFC 5280 4.2.1.9)"
                            )))
                } else if leafNeedsSignatureUsage, let ku = cert.keyUsage, ku.bits != 0, !ku.has(0), !ku.has(2),
                    !ku.has(4)
                {
                    steps.append(
                        Step(.keyUsage, 0, .failed, KeyUsageFinding.leafKeyUsageLacksSignature(present: present)))
                } else if cert.keyUsage != nil {
                    steps.append(Step(.keyUsage, 0, .passed, KeyUsageFinding.leafKeyUsage(present: present)))
                } else {
                    steps.append(Step(.keyUsage, 0, .notApplicable, KeyUsageFinding.keyUsageAbsent))
                }
                continue
            }
            guard let ku = cert.keyUsage else {
                // Apple checks only a present keyUsage; CABF BR 7.1.2.10.7 requires it on CAs.
                if issuersNeedKeyUsage && !(c.isAnchor(i) && cert.version < 3) {
                    steps.append(Step(.keyUsage, i, .failed, KeyUsageFinding.keyUsageMissingOnCA))
                } else {
                    steps.append(Step(.keyUsage, i, .passed, KeyUsageFinding.keyUsageAbsent))
                }
                continue
            }
            if ku.keyCertSign {
                steps.append(Step(.keyUsage, i, .passed, KeyUsageFinding.keyUsageAllowsCertSign))
            } else {
                steps.append(Step(.keyUsage, i, .failed, KeyUsageFinding.keyUsageLacksCertSign(present: ku.setNames)))
            }
        }
    }
}
