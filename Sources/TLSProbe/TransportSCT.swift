/// A Signed Certificate Timestamp delivered by the TLS connection.
public struct TransportSCT: Hashable, Sendable {
    /// Where it came from.
    public enum Source: String, Hashable, Sendable {
        /// The signed_certificate_timestamp TLS extension (RFC 6962 3.3.1).
        case tlsExtension = "tls-extension"
        /// Inside the stapled OCSP response.
        case ocspResponse = "ocsp-response"
    }

    /// Where it came from.
    public var source: Source
    /// SCT version (0 = v1).
    public var version: Int
    /// The log's ID: SHA-256 of its public key.
    public var logID: [UInt8]
    /// Milliseconds since the epoch.
    public var timestampMilliseconds: UInt64
    /// The SCT as the server sent it (TLS encoding), for the engine to verify.
    public var encoded: [UInt8] = []
}
