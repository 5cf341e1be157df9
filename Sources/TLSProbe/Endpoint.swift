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
