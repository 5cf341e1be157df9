import TLSProbe
import TrustCore
import TrustLab
import TrustX509

/// One thing the explorer can evaluate: a lab scenario, a server, or a chain read from files.
public struct ExplorerTarget: Sendable {
    /// Where the chain comes from.
    public enum Source: Sendable {
        /// A server to connect to (lab scenarios included).
        case server(ProbeTarget, ProbeOptions)
        /// Certificates read from files, leaf first: nothing to connect to.
        case files([Certificate], paths: [String])
    }

    /// The label in the targets pane (a scenario name, a host, a file name).
    public var name: String
    /// The URL or file list, for the detail pane.
    public var location: String
    /// The host the SSL policy checks by default (the URL's host; empty for files).
    public var host: String
    /// Where the chain comes from.
    public var source: Source
    /// The target's custom anchors (the lab scenario's anchor, or `--anchor` files) and the
    /// files they came from.
    public var anchorEntries: [AnchorEntry]
    /// The target's custom anchors.
    public var anchors: [Certificate] { anchorEntries.map(\.certificate) }
    /// The lab scenario, when the target is one: its lesson, rule and expectation.
    public var scenario: LabScenario?
    /// The password of the PKCS#12 files the target was read with (`--password`).
    public var password: String?
    /// Why nothing can be evaluated for this target (a lab scenario this machine cannot
    /// serve), nil for a target that can be: it is listed and selectable, and its Detail says why.
    public var unavailable: String?

    /// Creates a target.
    public init(
        name: String, location: String, host: String, source: Source, anchors: [AnchorEntry] = [],
        scenario: LabScenario? = nil, password: String? = nil
    ) {
        self.password = password
        self.name = name
        self.location = location
        self.host = host
        self.source = source
        self.anchorEntries = anchors
        self.scenario = scenario
    }

    /// How the Targets pane and the compare view name a server without a label: `host:port`,
    /// the port always written (two servers on one host differ by it alone; an IPv6 literal in
    /// brackets), then `@ ADDRESS` when it is reached at another address (`--connect-to`,
    /// `--all-addresses`), with that address's port when it differs (D290).
    /// - Parameter target: The server.
    /// - Returns: The name.
    public static func serverName(_ target: ProbeTarget) -> String {
        let name = Endpoint(host: target.host, port: target.port).description
        guard let c = target.connectTo else { return name }
        return name + " @ " + (c.port == target.port ? c.host : c.description)
    }

    /// Whether getting the chain needs the network.
    public var needsConnection: Bool {
        if case .server = source { return true }
        return false
    }

    /// The server and how to reach it, for a server target.
    public var server: (target: ProbeTarget, options: ProbeOptions)? {
        if case .server(let t, let o) = source { return (t, o) }
        return nil
    }

    /// The target for a running lab scenario: its URL (STARTTLS for `smtp://`), its host and the
    /// anchor file its lesson uses; no proxy, since the lab is on loopback.
    /// - Parameters:
    ///   - running: The scenario as the lab serves it.
    ///   - anchor: The scenario's anchor certificate.
    /// - Returns: nil when the URL does not parse (which would be a lab bug).
    public static func lab(_ running: RunningScenario, anchor: Certificate) -> ExplorerTarget? {
        var options = ProbeOptions()
        options.proxy = .none
        options.timeout = .seconds(5)
        guard let parsed = try? parseURL(running.url) else { return nil }
        var target = parsed.0
        let startTLS = parsed.1
        target.connectTo = running.connectTo.flatMap { try? Endpoint.parse($0, defaultPort: target.port) }
        options.startTLS = startTLS
        // The lessons about iOS 26's ClientHello show what it met, as check does for any server.
        options.sendsAppleClientHello = running.scenario.appleHello != nil
        return ExplorerTarget(
            name: running.name, location: running.url, host: target.host, source: .server(target, options),
            anchors: [AnchorEntry(anchor, file: running.anchorPath)], scenario: running.scenario)
    }

    /// A lab scenario the lab could not serve, with the reason: listed under its group and
    /// selectable, so the reason can be read in its Detail; nothing is connected to.
    /// - Parameters:
    ///   - scenario: The catalogue's scenario.
    ///   - reason: Why it is not served.
    /// - Returns: The target.
    public static func unavailable(_ scenario: LabScenario, reason: String) -> ExplorerTarget {
        var target = ExplorerTarget(
            name: scenario.name, location: "", host: "", source: .files([], paths: []), scenario: scenario)
        target.unavailable = reason
        return target
    }

    /// The lab's targets in catalogue order, those it could not serve among them: each group's
    /// scenarios stay together in the Targets pane.
    /// - Parameters:
    ///   - served: The targets of the scenarios being served.
    ///   - unavailable: The scenarios not served, with their reasons.
    /// - Returns: Both, ordered as the catalogue lists their scenarios.
    public static func inCatalogueOrder(served: [ExplorerTarget], unavailable: [(LabScenario, String)])
        -> [ExplorerTarget]
    {
        let order = Dictionary(
            LabScenario.all.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let all = served + unavailable.map { ExplorerTarget.unavailable($0.0, reason: $0.1) }
        // A stable sort: the nodes of one scenario keep their order.
        return all.enumerated().sorted { a, b in
            let (x, y) = (
                order[a.element.scenario?.name ?? ""] ?? Int.max, order[b.element.scenario?.name ?? ""] ?? Int.max
            )
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// Parses `https://host:port/`, `smtp://host:port/` (or another STARTTLS scheme) or
    /// `host[:port]`, as `trustx check` does.
    /// - Parameter text: The target as typed.
    /// - Returns: The probe target and the STARTTLS protocol the scheme names, if any.
    /// - Throws: `ProbeError` when the text does not name a server.
    public static func parseURL(_ text: String) throws(ProbeError) -> (ProbeTarget, StartTLSProtocol?) {
        var text = text
        var startTLS: StartTLSProtocol?
        if let range = text.firstRange(of: "://") {
            let scheme = text[..<range.lowerBound].lowercased()
            startTLS = StartTLSProtocol(rawValue: scheme) ?? (scheme == "postgresql" ? .postgres : nil)
            if startTLS != nil {
                var rest = text[range.upperBound...]
                if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
                text = String(rest)
            }
        }
        let target = try ProbeTarget.parse(text, defaultPort: startTLS?.defaultPort ?? 443)
        return (target, startTLS)
    }
}
