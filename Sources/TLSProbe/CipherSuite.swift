/// A cipher suite in both spellings.
public struct CipherSuite: Hashable, Sendable, CustomStringConvertible {
    /// The IANA name, e.g. `TLS_AES_128_GCM_SHA256`, `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`.
    public var ianaName: String
    /// OpenSSL's name, e.g. `ECDHE-RSA-AES128-GCM-SHA256` (the same as IANA's for TLS 1.3).
    public var openSSLName: String
    /// The two-byte code point.
    public var id: UInt16

    /// The IANA name.
    public var description: String { ianaName }
}
