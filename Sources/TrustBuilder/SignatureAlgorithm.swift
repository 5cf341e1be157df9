import TrustX509

/// Signature algorithms `CertificateBuilder` can sign with, weak ones included for labs.
public enum SignatureAlgorithm: Hashable, Sendable, CaseIterable {
    /// sha256WithRSAEncryption.
    case sha256WithRSA
    /// sha384WithRSAEncryption.
    case sha384WithRSA
    /// sha512WithRSAEncryption.
    case sha512WithRSA
    /// sha1WithRSAEncryption (refused by Apple's SSL policy below self-signed certificates).
    case sha1WithRSA
    /// md5WithRSAEncryption (refused by every Apple policy below self-signed certificates).
    case md5WithRSA
    /// ecdsa-with-SHA256.
    case ecdsaWithSHA256
    /// ecdsa-with-SHA384.
    case ecdsaWithSHA384
    /// ecdsa-with-SHA512.
    case ecdsaWithSHA512
    /// ecdsa-with-SHA1.
    case ecdsaWithSHA1
    /// Ed25519 (RFC 8410).
    case ed25519
    /// Ed448 (RFC 8410).
    case ed448

    /// The algorithm's OID.
    public var oid: OID {
        switch self {
        case .sha256WithRSA: .sha256WithRSA
        case .sha384WithRSA: .sha384WithRSA
        case .sha512WithRSA: .sha512WithRSA
        case .sha1WithRSA: .sha1WithRSA
        case .md5WithRSA: .md5WithRSA
        case .ecdsaWithSHA256: .ecdsaWithSHA256
        case .ecdsaWithSHA384: .ecdsaWithSHA384
        case .ecdsaWithSHA512: .ecdsaWithSHA512
        case .ecdsaWithSHA1: .ecdsaWithSHA1
        case .ed25519: .ed25519
        case .ed448: .ed448
        }
    }

    /// The digest signed (nil for EdDSA).
    public var hash: HashKind? {
        switch self {
        case .sha256WithRSA, .ecdsaWithSHA256: .sha256
        case .sha384WithRSA, .ecdsaWithSHA384: .sha384
        case .sha512WithRSA, .ecdsaWithSHA512: .sha512
        case .sha1WithRSA, .ecdsaWithSHA1: .sha1
        case .md5WithRSA: .md5
        case .ed25519, .ed448: nil
        }
    }

    /// The AlgorithmIdentifier DER: RSA with NULL parameters (RFC 4055 5), ECDSA and EdDSA
    /// without (RFC 5758 3.2, RFC 8410 3).
    public var der: [UInt8] {
        DERWriter.encode { w in
            w.sequence { w in
                w.oid(oid)
                if isRSA { w.null() }
            }
        }
    }

    var isRSA: Bool {
        switch self {
        case .sha256WithRSA, .sha384WithRSA, .sha512WithRSA, .sha1WithRSA, .md5WithRSA: true
        default: false
        }
    }

    /// Whether a key of `kind` can make this signature.
    public func fits(_ kind: KeyKind) -> Bool {
        switch (self, kind) {
        case (.ed25519, .ed25519), (.ed448, .ed448): true
        case (.ecdsaWithSHA256, .ecP256), (.ecdsaWithSHA256, .ecP384), (.ecdsaWithSHA256, .ecP521),
            (.ecdsaWithSHA384, .ecP256), (.ecdsaWithSHA384, .ecP384), (.ecdsaWithSHA384, .ecP521),
            (.ecdsaWithSHA512, .ecP256), (.ecdsaWithSHA512, .ecP384), (.ecdsaWithSHA512, .ecP521),
            (.ecdsaWithSHA1, .ecP256), (.ecdsaWithSHA1, .ecP384), (.ecdsaWithSHA1, .ecP521):
            true
        case (_, .rsa): isRSA
        default: false
        }
    }

    /// What a key of `kind` signs with unless told otherwise: the curve's hash for EC,
    /// SHA-256 for RSA, the scheme itself for EdDSA.
    public static func standard(for kind: KeyKind) -> SignatureAlgorithm {
        switch kind {
        case .ecP256: .ecdsaWithSHA256
        case .ecP384: .ecdsaWithSHA384
        case .ecP521: .ecdsaWithSHA512
        case .rsa: .sha256WithRSA
        case .ed25519: .ed25519
        case .ed448: .ed448
        }
    }
}
