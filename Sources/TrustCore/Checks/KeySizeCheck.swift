import TrustX509

/// `key-size`: Apple KeySize (SSL: RSA >= 2048, EC >= 256; skipped for a leaf that is itself a
/// device-trusted anchor) and WeakKeySize (any policy, any anchor: RSA >= 1024, EC >= 160).
struct KeySizeCheck: PathCheck {
    /// Minimum key sizes in bits: RSA (and DSA) and EC.
    struct Minimums: Hashable, Sendable {
        var rsa: Int
        var ec: Int
    }

    /// Apple WeakKeySize, under every policy.
    static let weakMinimums = Minimums(rsa: 1024, ec: 160)
    /// Apple KeySize under SSL, and the webpki profile's minimums.
    static let sslMinimums = Minimums(rsa: 2048, ec: 256)

    /// The minimums below which a key fails under any policy (fatal).
    let weakMinimums: Minimums
    /// The policy's own minimums, nil for none (Basic X.509).
    let sslMinimums: Minimums?
    /// CA/Browser Forum BR 6.1.5: an RSA modulus is a whole number of bytes.
    let requireWholeBytes: Bool
    /// Apple: no policy minimum for a leaf that is itself a device-trusted anchor.
    let deviceAnchoredLeafExempt: Bool

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            let key = cert.publicKey
            let label = key.type.label
            let (weak, ssl): (Int, Int?)
            switch key.type {
            case .rsa, .dsa: (weak, ssl) = (weakMinimums.rsa, sslMinimums?.rsa)
            case .ec: (weak, ssl) = (weakMinimums.ec, sslMinimums?.ec)
            case .ed25519, .ed448: (weak, ssl) = (0, sslMinimums.map { _ in 0 })
            case .unknown:
                steps.append(Step(.keySize, i, .failed, KeySizeFinding.keyUnknown(label: label)))
                continue
            }
            if key.bits == 0 && weak > 0 {
                steps.append(Step(.keySize, i, .failed, KeySizeFinding.keyUnknown(label: label)))
            } else if key.bits < weak {
                steps.append(
                    Step(.keySize, i, .failed, KeySizeFinding.keyWeak(label: label, bits: key.bits, minimum: weak)))
            } else if let ssl, deviceAnchoredLeafExempt && c.leafIsDeviceAnchor && key.bits < ssl {
                // trustd skips KeySize (not WeakKeySize) when the leaf itself is a device-trusted anchor.
                steps.append(
                    Step(
                        .keySize, i,
                        CheckContext.deviceAnchorReason("no SSL key-size minimum for a leaf the device trusts itself"),
                        KeySizeFinding.keySizeDeviceAnchorExempt(label: label, bits: key.bits, minimum: ssl)))
            } else if let ssl, key.bits < ssl {
                steps.append(
                    Step(.keySize, i, .failed, KeySizeFinding.keyTooSmall(label: label, bits: key.bits, minimum: ssl)))
            } else if requireWholeBytes, case .rsa = key.type, key.bits % 8 != 0 {
                // CA/Browser Forum BR 6.1.5: for RSA key pairs "the modulus size, in bits, is
                // evenly divisible by 8".
                steps.append(
                    Step(
                        .keySize, i, .failed,
                        ComplianceFinding.nonCompliant(
                            detail: "RSA modulus of \(key.bits) bits is not divisible by 8 (CA/Browser Forum BR 6.1.5)")
                    ))
            } else {
                steps.append(Step(.keySize, i, .passed, KeySizeFinding.keySizeOK(label: label, bits: key.bits)))
            }
        }
    }
}
