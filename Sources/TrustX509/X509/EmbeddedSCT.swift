/// One Signed Certificate Timestamp from the embedded list (RFC 6962 3.3).
public struct EmbeddedSCT: Hashable, Sendable {
    /// SCT version (0 = v1).
    public var version: UInt8
    /// The log's ID (SHA-256 of its key).
    public var logID: [UInt8]
    /// Milliseconds since the epoch.
    public var timestampMilliseconds: UInt64
}
