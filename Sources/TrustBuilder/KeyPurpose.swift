import TrustX509

/// Extended key usage purposes (RFC 5280 4.2.1.12).
public enum KeyPurpose: Hashable, Sendable {
    /// id-kp-serverAuth.
    case serverAuth
    /// id-kp-clientAuth.
    case clientAuth
    /// id-kp-codeSigning.
    case codeSigning
    /// id-kp-emailProtection.
    case emailProtection
    /// id-kp-timeStamping.
    case timeStamping
    /// id-kp-OCSPSigning.
    case ocspSigning
    /// anyExtendedKeyUsage.
    case any
    /// Any other purpose.
    case custom(OID)

    /// The purpose's OID.
    public var oid: OID {
        switch self {
        case .serverAuth: .serverAuth
        case .clientAuth: .clientAuth
        case .codeSigning: .codeSigning
        case .emailProtection: .emailProtection
        case .timeStamping: .timeStamping
        case .ocspSigning: .ocspSigning
        case .any: .anyExtendedKeyUsage
        case .custom(let oid): oid
        }
    }
}
