/// One AIA fetch, tried or skipped.
public struct AIAAttempt: Sendable {
    /// What became of it.
    public enum Outcome: Sendable, Equatable {
        /// Fetched; this many new certificates.
        case fetched(Int)
        /// Tried and failed (message).
        case failed(String)
        /// Not tried (why).
        case skipped(String)
    }

    /// The caIssuers URL.
    public var url: String
    /// The subject of the certificate whose issuer was sought.
    public var subject: String
    /// What became of it.
    public var outcome: Outcome
    /// How long it took.
    public var milliseconds: Double = 0

    var wasFetched: Bool { if case .skipped = outcome { false } else { true } }
}
