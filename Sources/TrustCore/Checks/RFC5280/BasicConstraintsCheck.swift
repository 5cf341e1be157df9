import TrustX509

/// `basic-constraints`: issuers are CAs and path lengths hold (RFC 5280 4.2.1.9, 6.1.4 (k)-(m)).
struct BasicConstraintsCheck: PathCheck {
    /// CA/Browser Forum BR 7.1.2.7.8: a subscriber certificate is not a CA (RFC 5280 alone
    /// allows a CA in leaf position).
    let leafMustNotBeCA: Bool
    /// Apple: only a version 3 issuer without basicConstraints fails; version 1 roots are
    /// tolerated. RFC 5280 6.1.4 (k) tolerates none.
    let toleratesVersion1Issuers: Bool

    var enforcedExtensions: Set<OID> { [.basicConstraints] }

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            if i == 0 {
                if leafMustNotBeCA, c.count > 1, cert.basicConstraints?.isCA == true {
                    steps.append(Step(.basicConstraints, 0, .failed, BasicConstraintsFinding.leafIsCA))
                } else {
                    steps.append(Step(.basicConstraints, 0, .notApplicable, BasicConstraintsFinding.leafNeedsNoCA))
                }
                continue
            }
            guard let bc = cert.basicConstraints else {
                if cert.version < 3 && toleratesVersion1Issuers {
                    steps.append(Step(.basicConstraints, i, .passed, BasicConstraintsFinding.isCA(pathLength: nil)))
                } else {
                    steps.append(
                        Step(
                            .basicConstraints, i, .failed,
                            cert.version < 3
                                ? BasicConstraintsFinding.v1Issuer : BasicConstraintsFinding.missingBasicConstraints))
                }
                continue
            }
            guard bc.isCA else {
                steps.append(Step(.basicConstraints, i, .failed, BasicConstraintsFinding.notCA))
                continue
            }
            if let limit = bc.pathLength {
                // RFC 5280 6.1.4 (l): self-issued certificates below do not count, nor does the leaf.
                var below = 0
                if i >= 2 {
                    for k in 1..<i where !c.certificates[k].isSelfIssued { below += 1 }
                }
                if below > limit {
                    let finding = BasicConstraintsFinding.pathLengthExceeded(limit: limit, actual: below)
                    steps.append(Step(.basicConstraints, i, .failed, finding))
                    continue
                }
            }
            steps.append(Step(.basicConstraints, i, .passed, BasicConstraintsFinding.isCA(pathLength: bc.pathLength)))
        }
    }
}
