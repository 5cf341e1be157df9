import TrustX509

/// A source of candidate issuers: the system trust store, in practice.
public protocol IssuerSource: Sendable {
    /// Certificates whose subject matches `name`.
    func certificates(withSubject name: DistinguishedName) -> [Certificate]
    /// Whether this exact certificate is in the source.
    func contains(_ certificate: Certificate) -> Bool
    /// A one-line description of where it reads from.
    var location: String { get }
}
