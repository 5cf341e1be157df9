/// One server of a scenario that several servers answer under one name, as the nodes of a pool
/// behind a load balancer do: where it listens and what a client concludes about it.
public struct LabNode: Hashable, Sendable {
    /// What sets this node apart, in a few words: `healthy`, `expired leaf`.
    public var label: String
    /// The loopback address it listens on when the lab listens on 127.0.0.1 (every node on the
    /// same port); elsewhere the nodes share the lab's address on ports of their own.
    public var loopbackAddress: String
    /// What a client concludes about this node under the scenario's default settings.
    public var expectation: LabExpectation
    /// Which rule produces the expectation, in words, as `LabScenario.rule` says it.
    public var rule: String

    /// Creates a node.
    public init(_ label: String, loopbackAddress: String, _ expectation: LabExpectation, rule: String) {
        self.label = label
        self.loopbackAddress = loopbackAddress
        self.expectation = expectation
        self.rule = rule
    }
}

extension LabExpectation {
    /// How bad an outcome is when several servers are checked at once, as `trustx check` ranks
    /// its exit statuses: trusted, then rejected by evaluation, then no evaluation at all.
    var severity: Int {
        if trusted { return 0 }
        return osstatus == nil ? 2 : 1
    }

    /// The worst of several outcomes (the first of equally bad ones): what a pool's scenario
    /// expects as a whole, since one bad node is the pool's failure.
    public static func worst(_ outcomes: [LabExpectation]) -> LabExpectation {
        var worst = outcomes.first ?? .trusted
        for outcome in outcomes.dropFirst() where outcome.severity > worst.severity { worst = outcome }
        return worst
    }
}
