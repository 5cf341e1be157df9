/// What the `key-size` step found (KeySizeCheck).
enum KeySizeFinding: RuleFinding {
    case keySizeOK(label: String, bits: Int)
    case keyTooSmall(label: String, bits: Int, minimum: Int)
    case keyWeak(label: String, bits: Int, minimum: Int)
    case keyUnknown(label: String)
    /// The leaf is itself a device-trusted anchor, so the SSL key-size minimum is skipped.
    case keySizeDeviceAnchorExempt(label: String, bits: Int, minimum: Int)
    /// Below the SSL minimum in bits but not in whole bytes, which is how Apple compares.
    case keySizeWholeBytes(label: String, bits: Int, minimum: Int)
    /// An RSA modulus larger than Apple's Security framework builds a key from.
    case keyTooLargeToBuild(bits: Int, limit: Int)

    var storage: Finding.Storage { .keySize(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .keyTooSmall: AppleFailure("KeySize", .keySize, -67735)
        case .keyWeak, .keyUnknown, .keyTooLargeToBuild:
            AppleFailure("WeakKeySize", .keySize, -67735, fatal: true)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .keySizeOK(let label, let bits): "\(label) \(bits) bits"
        case .keyTooSmall(let label, let bits, let min): "\(label) \(bits) bits, below \(min)"
        case .keyWeak(let label, let bits, let min): "\(label) \(bits) bits, weak (below \(min))"
        case .keyUnknown(let label): "\(label) key of unknown size"
        case .keySizeDeviceAnchorExempt(let label, let bits, let min):
            "\(label) \(bits) bits, below \(min) but the leaf is a device-trusted anchor"
        case .keySizeWholeBytes(let label, let bits, _): "\(label) \(bits) bits (\((bits + 7) / 8) bytes)"
        case .keyTooLargeToBuild(let bits, let limit): "RSA \(bits) bits, over the \(limit) Apple can use"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .keySizeOK:
            "Apple's SSL policy requires RSA keys of at least 2048 bits and EC keys of at least 256 bits on every certificate (Apple KeySize)."
        case .keyTooSmall(let label, let bits, let min):
            "\(label) \(bits)-bit keys are below Apple's SSL minimum of \(min) bits for every certificate on the path (Apple KeySize, errSecUnsupportedKeySize)."
        case .keyWeak(let label, let bits, let min):
            "\(label) \(bits)-bit keys are below the minimum of \(min) for any policy (Apple WeakKeySize, errSecUnsupportedKeySize; fatal)."
        case .keyUnknown(let label):
            "The size of this \(label) key cannot be determined."
        case .keySizeDeviceAnchorExempt(let label, let bits, let min):
            "Apple skips the SSL key-size minimum (\(min) bits for \(label)) when the leaf itself is a device-trusted anchor (KeySize); the \(bits)-bit key still meets the minimum for any policy (WeakKeySize)."
        case .keySizeWholeBytes(let label, let bits, let min):
            "Apple compares key sizes in whole bytes: this \(bits)-bit \(label) key is \((bits + 7) / 8) bytes, as many as the \(min)-bit minimum, so it passes (Apple KeySize, SecCertificateIsAtLeastMinKeySize)."
        case .keyTooLargeToBuild(let bits, let limit):
            "Apple's Security framework builds RSA keys of at most \(limit) bits; for this \(bits)-bit modulus it has no key, and a certificate without a usable key is weak under every policy (Apple WeakKeySize, errSecUnsupportedKeySize; fatal)."
        }
    }
}
