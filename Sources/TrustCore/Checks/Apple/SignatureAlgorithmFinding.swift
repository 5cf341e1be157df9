/// What the `signature-algorithm` step found (SignatureAlgorithmCheck).
enum SignatureAlgorithmFinding: RuleFinding {
    case signatureAlgorithmOK(name: String)
    case selfSignedHashExempt(name: String)
    case sha1Signature(name: String)
    case weakSignature(name: String)
    /// The device-trusted anchor's own SHA-1 signature, which Apple does not judge.
    case signatureHashDeviceAnchorExempt(name: String)

    var storage: Finding.Storage { .signatureAlgorithm(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .sha1Signature: AppleFailure("SignatureHashAlgorithms", .weakHash, -67815)
        case .weakSignature: AppleFailure("WeakSignature", .weakHash, -67815, fatal: true)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .signatureAlgorithmOK(let name): "\(name)"
        case .selfSignedHashExempt(let name): "\(name) on a self-signed certificate (exempt)"
        case .sha1Signature(let name): "SHA-1 signature (\(name))"
        case .weakSignature(let name): "Weak signature hash (\(name))"
        case .signatureHashDeviceAnchorExempt(let name):
            "SHA-1 signature (\(name)) on a device-trusted anchor (not judged)"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .signatureAlgorithmOK:
            "The signature uses a SHA-2 (or stronger) hash (Apple SignatureHashAlgorithms)."
        case .selfSignedHashExempt:
            "The hash of a self-signed certificate's own signature is not relied upon, so weak hashes are allowed there."
        case .sha1Signature:
            "Apple's SSL policy rejects SHA-1 signatures on every certificate except self-signed ones (Apple SignatureHashAlgorithms, errSecInvalidDigestAlgorithm)."
        case .weakSignature:
            "MD2, MD4 and MD5 signatures are rejected under every policy (Apple WeakSignature, errSecInvalidDigestAlgorithm; fatal)."
        case .signatureHashDeviceAnchorExempt:
            "Apple does not judge the hash of the signature on an anchor the device trusts, self-signed or not (SignatureHashAlgorithms); MD2, MD4 and MD5 would still be rejected (WeakSignature)."
        }
    }
}
