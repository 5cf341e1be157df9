/// authorityKeyIdentifier (RFC 5280 4.2.1.1).
public struct AuthorityKeyIdentifier: Hashable, Sendable {
    /// The key identifier, when present.
    public var keyIdentifier: [UInt8]?
    /// authorityCertIssuer names, when present.
    public var issuer: [GeneralName]?
    /// authorityCertSerialNumber, when present.
    public var serialNumber: [UInt8]?
}
