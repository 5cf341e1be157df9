import TrustLab
import TrustX509

extension ExplorerTarget {
    /// The targets of a running lab scenario: one, or for a pool one per node, as
    /// `explore --all-addresses` splits a name by its addresses, so that nodes can be compared.
    /// Each node's target carries the node's expectation and rule in its scenario, and its
    /// lesson says which node it is.
    /// - Parameters:
    ///   - running: The scenario as the lab serves it.
    ///   - anchor: The scenario's anchor certificate.
    /// - Returns: The targets, in node order.
    public static func labTargets(_ running: RunningScenario, anchor: Certificate) -> [ExplorerTarget] {
        guard !running.nodes.isEmpty else { return lab(running, anchor: anchor).map { [$0] } ?? [] }
        // Nodes on one port differ by address alone, as a name's addresses do.
        let samePort = Set(running.nodes.map(\.port)).count == 1
        return running.nodes.compactMap { node in
            var one = running
            one.nodes = []
            one.connectTo = node.connectTo
            one.scenario.expectation = node.expectation
            one.scenario.rule = node.node.rule
            one.scenario.lesson =
                "Node \(node.number) of \(running.nodes.count) (\(node.node.label)): \(running.scenario.lesson)"
            guard var target = lab(one, anchor: anchor) else { return nil }
            target.name = "\(running.name) @ \(samePort ? node.address : node.connectTo)"
            return target
        }
    }
}
