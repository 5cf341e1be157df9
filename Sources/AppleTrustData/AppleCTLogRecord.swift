/// One log of Apple's Certificate Transparency log list, as published (values as text, so the
/// generated data stays readable and its digest easy to recompute).
public struct AppleCTLogRecord: Hashable, Sendable {
    /// The log operator's name.
    public let operatorName: String
    /// The log's description, e.g. `Google 'Argon2025h2' log`.
    public let description: String
    /// The log ID: base64 of the SHA-256 of the key.
    public let logID: String
    /// The log's public key: base64 of its DER SubjectPublicKeyInfo.
    public let key: String
    /// `pending`, `qualified`, `usable`, `readonly`, `retired` or `rejected`.
    public let state: String
    /// When the log entered that state (RFC 3339, UTC).
    public let stateTimestamp: String
    /// The temporal interval's first instant (certificates expiring from then on), if sharded.
    public let intervalStart: String?
    /// The temporal interval's end (exclusive), if sharded.
    public let intervalEnd: String?
    /// Whether the log is for TLS certificates only (left out of Apple's non-TLS list).
    public let tlsOnly: Bool
    /// Whether the list gives it among `tiled_logs`: a static-ct-api log, not an RFC 6962 one.
    public let tiled: Bool

    /// Creates a record.
    public init(
        operatorName: String, description: String, logID: String, key: String, state: String,
        stateTimestamp: String, intervalStart: String?, intervalEnd: String?, tlsOnly: Bool, tiled: Bool = false
    ) {
        self.operatorName = operatorName
        self.description = description
        self.logID = logID
        self.key = key
        self.state = state
        self.stateTimestamp = stateTimestamp
        self.intervalStart = intervalStart
        self.intervalEnd = intervalEnd
        self.tlsOnly = tlsOnly
        self.tiled = tiled
    }

    /// The record as the generator hashed it: fields joined by tabs, an absent interval and an
    /// unset flag as empty fields. `AppleCTLogs.dataSHA256` is the SHA-256 of these lines joined by newlines.
    public var canonicalLine: String {
        [
            operatorName, description, logID, key, state, stateTimestamp, intervalStart ?? "", intervalEnd ?? "",
            tlsOnly ? "tls-only" : "", tiled ? "tiled" : "",
        ].joined(separator: "\t")
    }
}
