/// What to connect to: the name that is checked, the address actually dialled, and the SNI.
public struct ProbeTarget: Hashable, Sendable {
    /// The host name (or IP literal) the certificate is checked against.
    public var host: String
    /// The port.
    public var port: UInt16
    /// The path of a URL target, kept for reports; nil for `host:port` targets.
    public var path: String?
    /// Connect here instead of `host:port`, keeping `host` for SNI and the host-name check
    /// (curl's `--connect-to`).
    public var connectTo: Endpoint?
    /// The SNI choice.
    public var sni: ServerNameIndication

    /// Creates a target.
    public init(
        host: String, port: UInt16 = 443, path: String? = nil, connectTo: Endpoint? = nil,
        sni: ServerNameIndication = .automatic
    ) {
        self.host = host
        self.port = port
        self.path = path
        self.connectTo = connectTo
        self.sni = sni
    }

    /// Ports implied by URL schemes; a scheme not listed is refused rather than guessed.
    static let schemePorts: [String: UInt16] = [
        "https": 443, "wss": 443, "http": 80, "ws": 80, "smtps": 465, "imaps": 993, "pop3s": 995,
        "ldaps": 636, "ftps": 990,
    ]

    /// Parses `host`, `host:port`, `[v6addr]:port`, a bare IPv6 literal, or a URL such as
    /// `https://host:port/path` (user info is dropped, the scheme sets the default port).
    public static func parse(_ text: String, defaultPort: UInt16 = 443) throws(ProbeError) -> ProbeTarget {
        var rest = Substring(text.trimmingWhitespace())
        var port = defaultPort
        var path: String?
        if let range = rest.firstRange(of: "://") {
            let scheme = rest[..<range.lowerBound].lowercased()
            guard let p = schemePorts[scheme] else {
                throw ProbeError(.invalidTarget, "'\(text)': unsupported URL scheme '\(scheme)'")
            }
            port = p
            rest = rest[range.upperBound...]
            if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
                path = String(rest[slash...])
                rest = rest[..<slash]
            }
            if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        } else if let slash = rest.firstIndex(of: "/") {
            path = String(rest[slash...])
            rest = rest[..<slash]
        }
        let endpoint = try Endpoint.parse(String(rest), defaultPort: port)
        return ProbeTarget(host: endpoint.host, port: endpoint.port, path: path)
    }

    /// Whether the host is an IP address rather than a name.
    public var hostIsIPAddress: Bool { IPLiteral.isIP(host) }

    /// The server name the ClientHello will carry, or nil when none is sent.
    public var serverName: String? {
        switch sni {
        case .none: return nil
        case .name(let n): return IPLiteral.isIP(n) || n.isEmpty ? nil : n
        case .automatic: return hostIsIPAddress ? nil : host
        }
    }

    /// Where the TCP connection goes.
    public var dialEndpoint: Endpoint { connectTo ?? Endpoint(host: host, port: port) }
}
