import LabServers
import TrustCore
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One node of a pool scenario as the lab serves it.
public struct RunningNode: Sendable {
    /// The catalogue's node: its label, expectation and rule.
    public var node: LabNode
    /// Its number in the pool, from 1.
    public var number: Int
    /// The address it listens on (no brackets for IPv6).
    public var address: String
    /// Its port.
    public var port: UInt16
    /// `ADDRESS:PORT` for `--connect-to` (IPv6 in brackets).
    public var connectTo: String
    /// The chain it sends, as PEM, leaf first.
    public var chainPath: String
    /// The chain it sends, leaf first, in the order sent.
    public var served: [Certificate]

    /// What a client concludes about this node under the scenario's default settings.
    public var expectation: LabExpectation { node.expectation }
}

/// The leaves a rotating scenario takes turns with, as the lab serves them.
public struct RunningRotation: Sendable {
    /// Seconds each leaf is served.
    public var period: Int
    /// Each leaf's chain as sent, leaf first, in turn order.
    public var chains: [[Certificate]]
    /// Each chain as PEM, in turn order.
    public var chainPaths: [String]

    /// The index in `chains` of the leaf served at `unixTime`.
    public func index(at unixTime: Int64) -> Int {
        LabLeafRotation.index(unixTime: unixTime, period: period, count: chains.count)
    }
}

extension Lab {
    /// Whether a pool's nodes listen on their own loopback addresses at one port (the lab on
    /// 127.0.0.1, as learners reach it); anywhere else they share the lab's address on
    /// consecutive ports, since one address cannot hold one port three times.
    static func poolUsesLoopbackAddresses(_ options: LabOptions, advertised: String) -> Bool {
        options.listenAddress == "127.0.0.1" && advertised == "127.0.0.1"
    }

    /// How many times the kernel's choice of a port is retried when another address already
    /// holds it.
    static let poolBindAttempts = 32

    /// Binds one listener per node of `scenario`: the same port on each node's loopback address
    /// (the kernel's choice is taken on the first and retried when another address holds it),
    /// or consecutive ports of the listen address. A system without the other loopback
    /// addresses (macOS configures only 127.0.0.1) gets the second layout on 127.0.0.1.
    /// - Returns: the listeners in node order, and whether they are on the nodes' own addresses.
    static func bindNodes(
        _ scenario: LabScenario, options: LabOptions, loopback: Bool
    ) throws(LabError) -> (listeners: [LabListener], loopback: Bool) {
        if loopback {
            do throws(LabError) {
                return (try bindNodeAddresses(scenario, options: options), true)
            } catch {
                guard case .bind(_, _, let code) = error, code == EADDRNOTAVAIL else { throw error }
            }
        }
        var listeners: [LabListener] = []
        for offset in scenario.portOffsets {
            let port = options.portBase.map { UInt16($0 + offset) } ?? 0
            listeners.append(try LabListener.labBound(address: options.listenAddress, port: port))
        }
        return (listeners, false)
    }

    /// One port on each node's own loopback address.
    private static func bindNodeAddresses(_ scenario: LabScenario, options: LabOptions) throws(LabError)
        -> [LabListener]
    {
        var listeners: [LabListener] = []
        if let base = options.portBase {
            for node in scenario.nodes {
                listeners.append(
                    try LabListener.labBound(address: node.loopbackAddress, port: UInt16(base + scenario.portOffset)))
            }
            return listeners
        }
        var last: LabError?
        for _ in 0..<poolBindAttempts {
            let first = try LabListener.labBound(address: scenario.nodes[0].loopbackAddress, port: 0)
            listeners = [first]
            do throws(LabError) {
                for node in scenario.nodes.dropFirst() {
                    listeners.append(try LabListener.labBound(address: node.loopbackAddress, port: first.port))
                }
                return listeners
            } catch {
                // The listeners bound so far close as they go out of scope; an address the
                // system lacks is not worth retrying.
                guard case .bind(_, _, let code) = error, code != EADDRNOTAVAIL else { throw error }
                last = error
            }
        }
        throw last ?? .system(operation: "bind", errno: 0)
    }

    /// The nodes of a pool scenario: where each listens and the chain file it sends.
    static func runningNodes(
        _ scenario: LabScenario, listeners: [LabListener], chains: [LabServedChain], loopback: Bool,
        advertised: String, directory: LabDirectory
    ) throws(LabError) -> [RunningNode] {
        var nodes: [RunningNode] = []
        for (i, node) in scenario.nodes.enumerated() where i < listeners.count && i < chains.count {
            let address = loopback ? node.loopbackAddress : advertised
            let host = address.contains(":") ? "[\(address)]" : address
            let chain = chains[i].chain
            nodes.append(
                RunningNode(
                    node: node, number: i + 1, address: address, port: listeners[i].port,
                    connectTo: "\(host):\(listeners[i].port)",
                    chainPath: try directory.write(
                        "\(scenario.name).node\(i + 1).chain.pem", chain.map { PEM.encode($0.der) }.joined()),
                    served: chain))
        }
        return nodes
    }

    /// The endpoints of a pool's nodes after the first (the first is the scenario's own).
    static func nodeEndpoints(
        _ scenario: LabScenario, nodes: [RunningNode], listeners: [LabListener], chains: [LabServedChain]
    ) -> [(LabListener, LabEndpoint)] {
        var endpoints: [(LabListener, LabEndpoint)] = []
        for (i, node) in nodes.enumerated().dropFirst() where i < listeners.count && i < chains.count {
            let tls = LabTLSConfiguration(chain: chains[i].chain, privateKeyPEM: chains[i].key.privateKeyPEM())
            endpoints.append(
                (
                    listeners[i],
                    LabEndpoint(
                        name: "\(scenario.name).node\(node.number)", port: node.port,
                        service: .https(tls, page: nodePage(scenario, node)))
                ))
        }
        return endpoints
    }

    /// The answer page of one node: which node answered, so a learner can tell them apart.
    static func nodePage(_ scenario: LabScenario, _ node: RunningNode) -> String {
        "trustx lab: scenario \(scenario.name), node \(node.number) of \(scenario.nodes.count) (\(node.node.label))\n\(scenario.lesson)\n"
    }

    /// The rotating scenario's leaves: one chain file each, and the period.
    static func runningRotation(
        _ scenario: LabScenario, chains: [LabServedChain], period: Int, directory: LabDirectory
    ) throws(LabError) -> RunningRotation {
        var paths: [String] = []
        for (i, served) in chains.enumerated() {
            paths.append(
                try directory.write(
                    "\(scenario.name).leaf\(i + 1).chain.pem", served.chain.map { PEM.encode($0.der) }.joined()))
        }
        return RunningRotation(period: max(1, period), chains: chains.map(\.chain), chainPaths: paths)
    }
}

extension Lab {
    /// The `trustx check` arguments (after `check`) that check every node of a pool, one report
    /// each: the URL, the `--connect-to` list and the scenario's anchor.
    public func checkArguments(_ s: RunningScenario) -> [String] {
        s.targetArguments + ["--anchor", s.anchorPath]
    }

    /// The JSON members a pool's or the rotating scenario's description adds.
    func writeFleet(_ w: inout JSONWriter, _ s: RunningScenario) {
        if !s.nodes.isEmpty {
            w.beginArray("nodes")
            for n in s.nodes {
                w.beginObject()
                w.int("node", n.number)
                w.string("label", n.node.label)
                w.string("address", n.address)
                w.int("port", Int(n.port))
                w.string("connectTo", n.connectTo)
                w.string("chain", n.chainPath)
                Lab.writeExpectation(&w, n.expectation)
                w.string("rule", n.node.rule)
                w.endObject()
            }
            w.endArray()
            w.beginArray("check")
            for a in checkArguments(s) { w.string(nil, a) }
            w.endArray()
        }
        if let r = s.rotation {
            w.beginObject("rotation")
            w.int("seconds", r.period)
            w.beginArray("chains")
            for path in r.chainPaths { w.string(nil, path) }
            w.endArray()
            w.string("schedule", Lab.rotationSchedule(r))
            w.endObject()
        }
    }

    /// Which leaf is served when, in words.
    static func rotationSchedule(_ r: RunningRotation) -> String {
        "leaf 1 while floor(Unix time / \(r.period)) is even, leaf 2 while it is odd; each new connection gets the current leaf"
    }

    /// The table's rows under a pool's scenario (one per node) or the rotating one (its schedule).
    static func fleetRows(_ s: RunningScenario) -> [[String]] {
        var rows = s.nodes.map { n in
            ["  node \(n.number)", n.connectTo, expectationText(n.expectation), n.node.label]
        }
        if let r = s.rotation {
            rows.append(["  leaves", "every \(r.period) s", "", rotationSchedule(r)])
            // What the scenario and each variation give while each leaf is served: every
            // statement holds whenever it is checked (D311).
            for (i, path) in r.chainPaths.enumerated() {
                let tries = s.scenario.variations.filter { $0.holds(whileServing: i + 1) }.map { v in
                    "\(v.options(.names).joined(separator: " ")): \(expectationText(v.expectation))"
                }
                rows.append(["  leaf \(i + 1)", path, expectationText(s.expectation), tries.joined(separator: "; ")])
            }
        }
        return rows
    }
}
