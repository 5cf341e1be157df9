/// What a TLS handshake negotiated, as ATS's connection rules read it.
public struct NegotiatedTLS: Hashable, Sendable {
    /// The protocol version.
    public var version: TLSVersion
    /// The cipher suite's two-byte code point.
    public var cipherSuite: UInt16
    /// The cipher suite's IANA name.
    public var cipherName: String
    /// The key-exchange group (`X25519`, `secp256r1`), nil for RSA key exchange.
    public var group: String?

    /// Creates negotiated facts.
    public init(version: TLSVersion, cipherSuite: UInt16, cipherName: String, group: String?) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.cipherName = cipherName
        self.group = group
    }
}
