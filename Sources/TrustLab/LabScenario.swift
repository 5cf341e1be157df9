import AppleHello
import HelloFront
import LabServers

/// One lab server: a lesson, the host to reach it by, the anchor to pass, and what a client
/// should conclude under the default settings.
///
/// Default settings: SSL policy with the URL's host, the scenario's anchor as the only custom
/// anchor, minimum TLS 1.2, AIA fetching on. With a custom anchor every rejection surfaces as
/// URLError -999 (the app's delegate cancels the challenge), never -1202.
public struct LabScenario: Hashable, Sendable, Identifiable {
    /// The part of the catalogue the scenario belongs to.
    public var group: LabScenarioGroup
    /// The scenario's name, e.g. `wrong-host`.
    public var name: String
    /// The lesson in one line.
    public var lesson: String
    /// The host the URL uses: `127.0.0.1`, or `localhost` for wrong-host.
    public var host: String
    /// The anchor file to pass with `--anchor`.
    public var anchor: LabAnchor
    /// What a client concludes under the default settings.
    public var expectation: LabExpectation
    /// Which rule produces the expectation, in words: Apple's check and code, and the
    /// docs/steps.md section that explains it.
    public var rule: String
    /// What the chain evaluator alone cannot see, for scenarios decided partly on the network.
    public var networkOnly: String?
    /// Other settings worth trying, with their outcome.
    public var variations: [LabVariation]
    /// Plain HTTPS or SMTP with STARTTLS.
    public var serviceProtocol: LabProtocol
    /// How the server comes by the chain it sends: the scenario's PKI recipe.
    var chain: LabChain
    /// ATS configurations the lesson tries (empty for lessons without ATS).
    public var atsCases: [LabATSCase] = []
    /// The badssl.com subdomain this scenario re-enacts (`expired`, `wrong.host`), when it does.
    public var badssl: String? = nil
    /// Whether the URL's host is a real public name the lesson depends on (Apple's system pinning
    /// matches `gateway.icloud.com` by name): the lab serves it on loopback like any other, and
    /// clients reach it with `--connect-to`, never through DNS.
    public var namesRealHost: Bool = false
    /// How the server speaks TLS when it departs from the lab's default (versions, cipher list,
    /// DHE group); nil: the default.
    public var serverTLS: LabServerTLS? = nil
    /// Why this machine's OpenSSL cannot serve the scenario; nil when it can. Such a scenario is
    /// listed, never bound. (The protocols and suites OpenSSL 3 lacks are played by
    /// `legacyServer` instead.)
    public var unavailable: String? = nil
    /// A server OpenSSL 3 cannot be (RC4 or 3DES suites only, SSL 3.0, SSL 2.0), played by a raw
    /// responder that answers the ClientHello as such a server does; nil: an OpenSSL server.
    public var legacyServer: LabLegacyServer? = nil
    /// The servers answering the scenario's name, for a pool (empty: one server). The scenario's
    /// expectation is then the worst of theirs.
    public var nodes: [LabNode] = []
    /// Whether the server takes turns with two leaves of different keys on a wall-clock
    /// schedule (`LabOptions.rotateSeconds`, `LabLeafRotation`).
    public var rotates: Bool = false
    /// Servers the scenario needs beside its own (the AIA server); each is started once for
    /// every scenario that names it.
    public var extraServers: [LabExtraServer] = []
    /// A middlebox or buggy server in front of the scenario's server (`HelloFront`): it reads each
    /// client's ClientHello first and lets small ones through; nil: clients reach the server.
    public var front: FrontRule? = nil
    /// What the server answers to iOS 26's ClientHello, when the lesson is about it (the JSON's
    /// `connection.appleClientHello.outcome`; docs/connecting.md, "The second hello").
    public var appleHello: AppleHelloReport.Outcome? = nil
    /// The URLError a device on the 26 releases reports where `expectation` (this machine's
    /// handshake) is trusted: the ios26-hello lessons.
    public var deviceURLError: Int? = nil
    /// Whether plain `trustx`'s tour of the lab shows this scenario's full report (one does).
    public var featuredInTour: Bool = false
    /// The scenario's port is the port base plus this offset (stable across `--scenario`
    /// selections, so handouts keep their ports): assigned in catalogue order from its group's
    /// `firstPortOffset`, never written by hand.
    public internal(set) var portOffset: Int = 0

    /// Whether clients reach the server with `--connect-to`: the URL's host is a DNS name that
    /// does not resolve (ATS exempts loopback addresses and local names, so its lessons name the
    /// server `NAME.trustx.test`), or a real name that resolves to someone else's server.
    public var needsConnectTo: Bool { host.hasSuffix(".trustx.test") || namesRealHost }

    /// Every offset from the port base the scenario's servers use: away from 127.0.0.1 a pool's
    /// nodes cannot share a port, so each takes the next offset.
    public var portOffsets: [Int] { nodes.count > 1 ? nodes.indices.map { portOffset + $0 } : [portOffset] }

    /// The name.
    public var id: String { name }

    /// Whether `a` and `b` are the same catalogue entry: names are unique in the catalogue
    /// (`ScenarioExpectationTests`), and a recipe cannot be compared.
    public static func == (a: LabScenario, b: LabScenario) -> Bool { a.name == b.name }

    /// Hashes the name, the entry's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension LabScenario {
    /// The offset of the lab's HTTP server for AIA downloads from the port base.
    public static let aiaPortOffset = 99

    /// Every scenario, in teaching order: each group's scenarios, one line per group (a group is
    /// declared in its own `LabScenario+NAME.swift`).
    public static let all: [LabScenario] = assigningPorts(
        [
            lessons,
            ats,
            badsslCertificates,
            badsslKnownBad,
            badsslClient,
            inspection,
            certificateTransparency,
            badsslTLS,
            fleet,
            distrust,
            appleHello,
            client,
        ].flatMap { $0 })

    /// `scenarios` with their port offsets: each group's scenarios take consecutive offsets
    /// from the group's `firstPortOffset` in declaration order, a pool one per node.
    static func assigningPorts(_ scenarios: [LabScenario]) -> [LabScenario] {
        var next: [LabScenarioGroup: Int] = [:]
        return scenarios.map { scenario in
            var s = scenario
            s.portOffset = next[s.group] ?? s.group.firstPortOffset
            next[s.group] = s.portOffset + s.portOffsets.count
            return s
        }
    }

    /// The groups, in teaching order.
    public static var groups: [LabScenarioGroup] {
        var seen: [LabScenarioGroup] = []
        for s in all where !seen.contains(s.group) { seen.append(s.group) }
        return seen
    }

    /// The highest offset from the port base any server uses (a scenario's or the AIA server's).
    public static let highestPortOffset = max(aiaPortOffset, all.flatMap(\.portOffsets).max() ?? 0)

    /// The group whose id is `id`, if any.
    public static func group(_ id: String) -> LabScenarioGroup? { groups.first { $0.id == id } }

    /// The scenario named `name`, if any.
    public static func named(_ name: String) -> LabScenario? { all.first { $0.name == name } }
}
