import TrustBuilder
import TrustCore

extension LabScenarioGroup {
    /// A staging fleet: one name served by several servers, and a server whose certificate
    /// changes while it is watched.
    public static let fleet = LabScenarioGroup(id: "fleet", title: "Staging fleet", firstPortOffset: 220)
}

extension LabScenario {
    /// The pool's three nodes: healthy, serving an expired leaf for the same name, and missing
    /// its intermediate (as missing-intermediate: no AIA URL, so nothing rescues it).
    static let poolNodes: [LabNode] = [
        LabNode(
            "healthy", loopbackAddress: "127.0.0.1", .trusted,
            rule:
                "any custom anchor is trusted, and the SAN dNSName matches the host (docs/steps.md#anchor, docs/steps.md#hostname)"
        ),
        LabNode(
            "expired leaf", loopbackAddress: "127.0.0.2", .rejectedByDelegate(-67818),
            rule: "Apple TemporalValidity: outside notBefore..notAfter (Expired, -67818; docs/steps.md#validity)"),
        LabNode(
            "missing intermediate", loopbackAddress: "127.0.0.3", .rejectedByDelegate(-25318),
            rule:
                "Apple MissingIntermediate: an issuer that is neither presented nor an anchor, and no AIA URL to fetch it (Trust, -25318; docs/steps.md#chain)"
        ),
    ]

    /// How many seconds the rotating scenario serves each leaf unless `LabOptions.rotateSeconds`
    /// says otherwise.
    public static let defaultRotateSeconds = 20

    /// The staging-fleet group: a pool of three nodes behind one name, and a server whose leaf
    /// and key change on a schedule.
    static let fleet: [LabScenario] = [
        LabScenario(
            group: .fleet, name: "pool",
            lesson:
                "One name, three nodes on one port: one healthy, one still serving an expired leaf, one missing its intermediate.",
            host: "pool.trustx.test", anchor: .libraryTestCA,
            // A pool is as good as its worst node: a client the balancer sends to node 2 or 3 fails.
            expectation: .worst(poolNodes.map(\.expectation)),
            rule:
                "one report per node, the worst decides: 127.0.0.1 is trusted, 127.0.0.2 fails Apple TemporalValidity (Expired, -67818), 127.0.0.3 fails Apple MissingIntermediate (Trust, -25318; docs/steps.md#validity, docs/steps.md#chain)",
            networkOnly:
                "which node answers: a client is sent to one of the three addresses and sees only that node's certificate",
            variations: [], serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in
                let nodes = try p.fleet.nodes(host: s.host)
                var first = nodes[0]
                first.nodes = nodes
                return first
            }, nodes: poolNodes),
        LabScenario(
            group: .fleet, name: "rotating",
            lesson:
                "A server whose leaf and key change every 20 s (--rotate-seconds), as in a deploy: a leaf pin holds until the switch, then breaks.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // Both leaves are the good server's kind under Library Test CA; only the key differs.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted: both leaves are valid under Library Test CA; leaf 1 is served while floor(Unix time / period) is even, leaf 2 while it is odd, and pins are checked after evaluation (docs/steps.md#pin)",
            networkOnly:
                "which leaf is served: the wall clock picks it for each new connection, so two checks a period apart see different keys",
            variations: [
                // One variation per leaf: the same pin gives one verdict under each, and the
                // listing states both, each true whenever its leaf is served (D311).
                LabVariation(
                    [.pin(.rotatingFirstLeaf)], .trusted,
                    "while leaf 1 is served the pin matches its key: trusted until the switch", leaf: 1),
                LabVariation(
                    [.pin(.rotatingFirstLeaf)], LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "once leaf 2 is served evaluation passes, the pin matches no key of it and the delegate cancels",
                    leaf: 2),
                LabVariation(
                    [.pin(.rotatingFirstLeaf), .pin(.libraryTestCA)], .trusted,
                    "a backup pin on the CA's key matches both leaves: it survives the rotation"),
            ], serviceProtocol: .https,
            chain: LabChain { p, _ in
                var first = p.fleet.rotating[0]
                first.rotation = p.fleet.rotating
                return first
            }, rotates: true),
    ]
}
