import TrustCore

/// One point in time by which the whole probe must end; every wait is bounded by it.
struct Deadline: Sendable {
    let start: ContinuousClock.Instant
    let end: ContinuousClock.Instant
    let total: Duration

    init(after timeout: Duration) {
        start = .now
        total = timeout
        end = start.advanced(by: timeout)
    }

    /// The deadline `end`, part of an allowance of `total` that started earlier (a run's deadline
    /// handed to a fetch: its messages name the run's timeout).
    init(at end: ContinuousClock.Instant, total: Duration) {
        start = .now
        self.total = total
        self.end = end
    }

    /// The deadline of an evaluation, for fetches made on its behalf.
    init(_ deadline: EvaluationDeadline) { self.init(at: deadline.instant, total: deadline.allowance) }

    var isExpired: Bool { ContinuousClock.now >= end }

    var remaining: Duration { max(.zero, end - .now) }

    /// Milliseconds left for poll(), rounded up so that a wait never ends just short of the
    /// deadline and spins; 0 once expired.
    var pollTimeout: Int32 { Deadline.milliseconds(remaining) }

    /// The earlier of this deadline's remaining time and `limit`, for poll().
    func pollTimeout(atMost limit: Duration) -> Int32 { Deadline.milliseconds(min(remaining, limit)) }

    static func milliseconds(_ d: Duration) -> Int32 {
        let (s, atto) = d.components
        if s >= Int64(Int32.max / 1000) { return Int32.max }
        let ms = s * 1000 + (atto + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(max(0, ms))
    }

    /// The total timeout in seconds, for messages.
    var totalSecondsText: String { Deadline.secondsText(total) }

    static func secondsText(_ d: Duration) -> String {
        let (s, atto) = d.components
        let tenths = Int(atto / 100_000_000_000_000_000)
        return "\(s).\(tenths) s"
    }
}

/// A stopwatch in milliseconds.
struct Stopwatch {
    private var started = ContinuousClock.now

    mutating func lap() -> Double {
        let now = ContinuousClock.now
        defer { started = now }
        return Stopwatch.ms(now - started)
    }

    static func ms(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) * 1000 + Double(atto) / 1e15
    }
}
