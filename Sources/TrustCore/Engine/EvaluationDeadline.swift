/// A point on the monotonic clock by which an evaluation must end, given by the caller (the
/// command's `--timeout`, or an interactive session that wants an answer in time).
public struct EvaluationDeadline: Hashable, Sendable {
    /// The instant.
    public var instant: ContinuousClock.Instant
    /// The whole allowance, for messages.
    public var allowance: Duration

    /// A deadline `allowance` from now.
    public init(after allowance: Duration) {
        self.instant = ContinuousClock.now.advanced(by: allowance)
        self.allowance = allowance
    }

    /// A deadline at `instant`; `allowance` is what the caller granted in total, for messages.
    public init(at instant: ContinuousClock.Instant, allowance: Duration) {
        self.instant = instant
        self.allowance = allowance
    }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { ContinuousClock.now >= instant }
}
