import TrustX509

/// `key-size`: Apple KeySize (SSL: RSA >= 2048, EC >= 256; skipped for a leaf that is itself a
/// device-trusted anchor) and WeakKeySize (any policy, any anchor: RSA >= 1024, EC >= 160), both
/// compared in whole bytes under Apple's rules, with RSA moduli over 8,192 bits weak.
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
    /// Apple: sizes are compared in whole bytes, as trustd does (the key's block size against the
    /// minimum rounded up to bytes), so a 2041-bit RSA modulus meets a 2048-bit minimum.
    var comparesWholeBytes = false
    /// Apple: the largest RSA modulus its Security framework builds a key from; a larger one has no
    /// key at all, which trustd's size checks treat as weak. Nil for no limit.
    var rsaModulusLimit: Int?

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
            // trustd compares SecKeyGetBlockSize (bytes) against the minimum rounded up to bytes
            // (SecCertificateIsAtLeastMinKeySize; SecCertificateIsWeakKey's minimums are bytes).
            func below(_ minimum: Int) -> Bool {
                comparesWholeBytes ? (key.bits + 7) / 8 < (minimum + 7) / 8 : key.bits < minimum
            }
            if key.bits == 0 && weak > 0 {
                steps.append(Step(.keySize, i, .failed, KeySizeFinding.keyUnknown(label: label)))
            } else if case .rsa = key.type, let limit = rsaModulusLimit, key.bits > limit {
                // SecRSAPublicKeyInit refuses a modulus over kMaximumRSAKeyBits, so
                // SecCertificateCopyKey fails: no algorithm, size 0, a weak key for every policy.
                steps.append(
                    Step(.keySize, i, .failed, KeySizeFinding.keyTooLargeToBuild(bits: key.bits, limit: limit)))
            } else if below(weak) {
                steps.append(
                    Step(.keySize, i, .failed, KeySizeFinding.keyWeak(label: label, bits: key.bits, minimum: weak)))
            } else if let ssl, deviceAnchoredLeafExempt && c.leafIsDeviceAnchor && below(ssl) {
                // trustd skips KeySize (not WeakKeySize) when the leaf itself is a device-trusted anchor.
                steps.append(
                    Step(
                        .keySize, i,
                        CheckContext.deviceAnchorReason("no SSL key-size minimum for a leaf the device trusts itself"),
                        KeySizeFinding.keySizeDeviceAnchorExempt(label: label, bits: key.bits, minimum: ssl)))
            } else if let ssl, below(ssl) {
                steps.append(
                    Step(.keySize, i, .failed, KeySizeFinding.keyTooSmall(label: label, bits: key.bits, minimum: ssl)))
            } else if let ssl, key.bits < ssl {
                // Below the minimum in bits, not in bytes: Apple accepts it.
                steps.append(
                    Step(
                        .keySize, i, .passed,
                        KeySizeFinding.keySizeWholeBytes(label: label, bits: key.bits, minimum: ssl)))
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
