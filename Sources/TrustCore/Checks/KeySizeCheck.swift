import TrustX509

/// `key-size`: Apple KeySize (SSL: RSA >= 2048, EC >= 256; skipped for a leaf that is itself a
/// device-trusted anchor) and WeakKeySize (any policy, any anchor: RSA >= 1024, EC >= 160).
enum KeySizeCheck: PathCheck {
    static let enforcedExtensions: Set<OID> = []

    static func run(_ c: CheckContext, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            let key = cert.publicKey
            let label = key.type.label
            let (weak, ssl): (Int, Int)
            switch key.type {
            case .rsa, .dsa: (weak, ssl) = (1024, 2048)
            case .ec: (weak, ssl) = (160, 256)
            case .ed25519, .ed448: (weak, ssl) = (0, 0)
            case .unknown:
                steps.append(Step(.keySize, i, .failed, .keyUnknown(label: label)))
                continue
            }
            if key.bits == 0 && weak > 0 {
                steps.append(Step(.keySize, i, .failed, .keyUnknown(label: label)))
            } else if key.bits < weak {
                steps.append(Step(.keySize, i, .failed, .keyWeak(label: label, bits: key.bits, minimum: weak)))
            } else if c.isSSL && c.leafIsDeviceAnchor && key.bits < ssl {
                // trustd skips KeySize (not WeakKeySize) when the leaf itself is a device-trusted anchor.
                steps.append(
                    Step(
                        .keySize, i,
                        CheckContext.deviceAnchorReason("no SSL key-size minimum for a leaf the device trusts itself"),
                        .keySizeDeviceAnchorExempt(label: label, bits: key.bits, minimum: ssl)))
            } else if (c.isSSL || c.webpki) && key.bits < ssl {
                steps.append(Step(.keySize, i, .failed, .keyTooSmall(label: label, bits: key.bits, minimum: ssl)))
            } else if c.webpki, case .rsa = key.type, key.bits % 8 != 0 {
                // CA/Browser Forum BR 6.1.5: for RSA key pairs "the modulus size, in bits, is
                // evenly divisible by 8".
                steps.append(
                    Step(
                        .keySize, i, .failed,
                        .nonCompliant(
                            detail: "RSA modulus of \(key.bits) bits is not divisible by 8 (CA/Browser Forum BR 6.1.5)")
                    ))
            } else {
                steps.append(Step(.keySize, i, .passed, .keySizeOK(label: label, bits: key.bits)))
            }
        }
    }
}
