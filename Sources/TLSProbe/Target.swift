#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A host and port: where to connect, or where a proxy is.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// A DNS name or an IP literal (IPv6 without brackets, zone allowed).
    public var host: String
    /// The TCP port.
    public var port: UInt16

    /// Creates an endpoint.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 literal.
    public static func parse(_ text: String, defaultPort: UInt16) throws(ProbeError) -> Endpoint {
        func bad(_ why: String) -> ProbeError { ProbeError(.invalidTarget, "'\(text)': \(why)") }
        guard !text.isEmpty else { throw bad("empty host") }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw bad("missing ']' after the IPv6 address") }
            let host = String(text[text.index(after: text.startIndex)..<close])
            guard IPLiteral.isIPv6(host) else { throw bad("'\(host)' is not an IPv6 address") }
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return Endpoint(host: host, port: defaultPort) }
            guard rest.hasPrefix(":") else { throw bad("unexpected text after ']'") }
            return Endpoint(host: host, port: try parsePort(rest.dropFirst(), in: text))
        }
        let colons = text.filter { $0 == ":" }.count
        if colons > 1 {
            // A bare IPv6 literal cannot carry a port: its last group would be ambiguous.
            guard IPLiteral.isIPv6(text) else { throw bad("IPv6 addresses with a port need brackets: [addr]:port") }
            return Endpoint(host: text, port: defaultPort)
        }
        if colons == 1, let colon = text.firstIndex(of: ":") {
            let host = String(text[..<colon])
            guard !host.isEmpty else { throw bad("empty host") }
            try checkHostName(host, in: text)
            return Endpoint(host: host, port: try parsePort(text[text.index(after: colon)...], in: text))
        }
        try checkHostName(text, in: text)
        return Endpoint(host: text, port: defaultPort)
    }

    static func parsePort(_ s: Substring, in text: String) throws(ProbeError) -> UInt16 {
        guard let n = UInt16(s), n > 0 else { throw ProbeError(.invalidTarget, "'\(text)': port must be 1-65535") }
        return n
    }

    static func checkHostName(_ host: String, in text: String) throws(ProbeError) {
        // Letters, digits, '-', '.', '_' (seen in internal names); anything else is a typo or an
        // attempt to smuggle bytes into SNI, the CONNECT line or a Host header.
        let ok = host.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D
                || b == 0x2E || b == 0x5F
        }
        guard ok, host.utf8.count <= 253 else {
            throw ProbeError(.invalidTarget, "'\(text)': '\(host)' is not a host name or IP address")
        }
    }

    /// `host:port`, with brackets around IPv6 literals.
    public var description: String { IPLiteral.isIPv6(host) ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Which server name the ClientHello carries.
public enum ServerNameIndication: Hashable, Sendable {
    /// The target's host name; none for IP literals (RFC 6066 section 3 forbids literal addresses).
    case automatic
    /// This name instead (curl's `--resolve`-style testing of virtual hosts); never an IP literal.
    case name(String)
    /// No server_name extension at all.
    case none
}

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

/// IP literal recognition through inet_pton, the same parser the resolver uses.
enum IPLiteral {
    static func isIPv4(_ s: String) -> Bool {
        var a = in_addr()
        return inet_pton(AF_INET, s, &a) == 1
    }

    static func isIPv6(_ s: String) -> Bool {
        // A zone ("fe80::1%eth0") is not part of the address inet_pton parses.
        let bare = s.split(separator: "%", maxSplits: 1).first.map(String.init) ?? s
        var a = in6_addr()
        return inet_pton(AF_INET6, bare, &a) == 1
    }

    static func isIP(_ s: String) -> Bool { isIPv4(s) || isIPv6(s) }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
