import TrustX509

/// What chain completion through AIA did.
public struct AIAResult: Sendable {
    /// Certificates fetched (new ones only), in fetch order: add them to the evaluator's pool.
    public var fetched: [Certificate]
    /// Every fetch tried or skipped, for the report.
    public var attempts: [AIAAttempt]
}
