/// An HTTP proxy's address and optional credentials.
public struct ProxyAddress: Hashable, Sendable, CustomStringConvertible {
    /// The proxy's host and port.
    public var endpoint: Endpoint
    /// `user:password` for Proxy-Authorization: Basic, if given in the URL.
    public var credentials: String?

    /// Creates a proxy address.
    public init(endpoint: Endpoint, credentials: String? = nil) {
        self.endpoint = endpoint
        self.credentials = credentials
    }

    /// Parses `http://[user:pass@]host[:port][/]` or `host:port`; the default port is 1080 as
    /// curl's. `https://` proxies (TLS to the proxy itself) are refused: not supported.
    public static func parse(_ text: String) throws(ProbeError) -> ProxyAddress {
        var rest = Substring(text.trimmingWhitespace())
        if let r = rest.firstRange(of: "://") {
            let scheme = rest[..<r.lowerBound].lowercased()
            guard scheme == "http" else {
                throw ProbeError(.invalidOption, "proxy '\(text)': only http:// proxies (HTTP CONNECT) are supported")
            }
            rest = rest[r.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var credentials: String?
        if let at = rest.lastIndex(of: "@") {
            credentials = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        do {
            return ProxyAddress(endpoint: try Endpoint.parse(String(rest), defaultPort: 1080), credentials: credentials)
        } catch {
            throw ProbeError(.invalidOption, "proxy '\(text)': \(error.message)")
        }
    }

    /// `http://host:port` (credentials never shown).
    public var description: String { "http://\(endpoint)" }
}
