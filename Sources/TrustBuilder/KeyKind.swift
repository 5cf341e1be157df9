import TrustX509

/// The kinds of key `KeyPair.generate(_:)` makes.
public enum KeyKind: Hashable, Sendable, CustomStringConvertible {
    /// ECDSA on NIST P-256 (prime256v1).
    case ecP256
    /// ECDSA on NIST P-384 (secp384r1).
    case ecP384
    /// ECDSA on NIST P-521 (secp521r1).
    case ecP521
    /// RSA with a modulus of `bits` bits (OpenSSL 3 accepts 512 and up, which weak-key labs need).
    case rsa(bits: Int)
    /// Ed25519 (RFC 8410).
    case ed25519
    /// Ed448 (RFC 8410).
    case ed448

    /// A short label, e.g. `EC P-256` or `RSA 2048`.
    public var description: String {
        switch self {
        case .ecP256: "EC P-256"
        case .ecP384: "EC P-384"
        case .ecP521: "EC P-521"
        case .rsa(let bits): "RSA \(bits)"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        }
    }

    /// The hash a certificate signed by this kind of key uses by default (nil for EdDSA,
    /// which hashes internally): SHA-256 for P-256 and RSA, SHA-384 for P-384, SHA-512 for P-521.
    public var defaultHash: HashKind? {
        switch self {
        case .ecP256, .rsa: .sha256
        case .ecP384: .sha384
        case .ecP521: .sha512
        case .ed25519, .ed448: nil
        }
    }
}

/// A private key and its public half, generated in process, for building test and lab PKI.
///
/// Wraps an OpenSSL `EVP_PKEY`, freed when the last reference goes away.
// @unchecked: the EVP_PKEY is never mutated after creation and OpenSSL 3 allows concurrent signing with one key (each call uses its own EVP_MD_CTX).
