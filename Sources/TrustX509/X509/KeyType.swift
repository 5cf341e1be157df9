/// The kind of a subject public key.
public enum KeyType: Hashable, Sendable {
    case rsa
    case ec(curve: OID?)
    case ed25519
    case ed448
    case dsa
    case unknown(OID)

    /// A short label: `RSA`, `EC P-256`, `Ed25519`.
    public var label: String {
        switch self {
        case .rsa: "RSA"
        case .ec(let curve): curve.map { "EC \($0.name)" } ?? "EC"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .dsa: "DSA"
        case .unknown(let oid): oid.name
        }
    }

    /// The JSON form: `rsa`, `ec`, `ed25519`, `ed448`, `dsa`, or the dotted OID.
    public var identifier: String {
        switch self {
        case .rsa: "rsa"
        case .ec: "ec"
        case .ed25519: "ed25519"
        case .ed448: "ed448"
        case .dsa: "dsa"
        case .unknown(let oid): oid.dotted
        }
    }
}
