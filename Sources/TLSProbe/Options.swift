import ATSModel
import TrustCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client certificate and key for servers that ask for one.
public enum ClientIdentity: Hashable, Sendable {
    /// A PKCS#12 file (`.p12`/`.pfx`) with its password: the leaf, its key and optional chain.
    case pkcs12(path: String, password: String)
    /// A PEM certificate file (the leaf first, then any chain) and a PEM private key file,
    /// which may be encrypted with `password`.
    case pem(certificatePath: String, keyPath: String, password: String? = nil)
}

/// The plaintext protocols that upgrade to TLS in-band.
public enum StartTLSProtocol: String, Hashable, Sendable, CaseIterable {
    /// SMTP (RFC 3207): EHLO, STARTTLS, 220.
    case smtp
    /// IMAP (RFC 3501 6.2.1): `STARTTLS` tagged command.
    case imap
    /// POP3 (RFC 2595 4): STLS.
    case pop3
    /// FTP (RFC 4217): AUTH TLS, 234.
    case ftp
    /// PostgreSQL's SSLRequest message, answered with `S`.
    case postgres

    /// The port the protocol usually listens on.
    public var defaultPort: UInt16 {
        switch self {
        case .smtp: 587
        case .imap: 143
        case .pop3: 110
        case .ftp: 21
        case .postgres: 5432
        }
    }
}

/// Whether and how to reach the server through an HTTP CONNECT proxy.
public enum ProxySetting: Hashable, Sendable {
    /// Connect directly.
    case none
    /// Tunnel through this proxy (`http://host:port`; user info becomes Basic authentication).
    case http(ProxyAddress)
    /// Use `https_proxy` / `HTTPS_PROXY` when set (and the host is not in `no_proxy`/`NO_PROXY`),
    /// as curl does; connect directly otherwise.
    case environment
}

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

/// How the probe connects and what it offers.
public struct ProbeOptions: Sendable {
    /// One deadline for everything: resolving, connecting, proxy, STARTTLS and handshake.
    public var timeout: Duration
    /// The lowest version offered; 1.2 by default, as URLSession's.
    public var minimumVersion: TLSVersion
    /// The highest version offered.
    public var maximumVersion: TLSVersion
    /// ALPN protocols to offer; nil chooses by protocol: `h2`, `http/1.1` for direct TLS,
    /// `postgresql` for PostgreSQL, none for mail and FTP (as `openssl s_client -starttls`).
    public var alpn: [String]?
    /// The client certificate offered when the server asks for one.
    public var clientIdentity: ClientIdentity?
    /// Upgrade a plaintext protocol to TLS first.
    public var startTLS: StartTLSProtocol?
    /// Proxy.
    public var proxy: ProxySetting
    /// Ask for a stapled OCSP response (status_request).
    public var requestOCSPStaple: Bool
    /// Ask for SCTs in the TLS extension (signed_certificate_timestamp).
    public var requestSCTs: Bool
    /// The largest Certificate message accepted (SSL_CTX_set_max_cert_list): a bound on memory
    /// a hostile server can make the client allocate.
    public var maximumCertificateListBytes: Int
    /// Most bytes read from the server before the handshake must be complete.
    public var maximumHandshakeBytes: Int
    /// Most certificates accepted in the server's chain; a longer chain is an error.
    public var maximumChainLength: Int
    /// The cipher suites offered: everything (to observe), or what an ATS client offers.
    public var cipherOffer: CipherOffer

    /// Creates options; every default matches URLSession where it has one.
    public init(
        timeout: Duration = .seconds(10), minimumVersion: TLSVersion = .tls1_2, maximumVersion: TLSVersion = .tls1_3,
        alpn: [String]? = nil, clientIdentity: ClientIdentity? = nil, startTLS: StartTLSProtocol? = nil,
        proxy: ProxySetting = .none, requestOCSPStaple: Bool = true, requestSCTs: Bool = true,
        maximumCertificateListBytes: Int = 256 * 1024, maximumHandshakeBytes: Int = 1024 * 1024,
        maximumChainLength: Int = 100, cipherOffer: CipherOffer = .everything
    ) {
        self.timeout = timeout
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.alpn = alpn
        self.clientIdentity = clientIdentity
        self.startTLS = startTLS
        self.proxy = proxy
        self.requestOCSPStaple = requestOCSPStaple
        self.requestSCTs = requestSCTs
        self.maximumCertificateListBytes = maximumCertificateListBytes
        self.maximumHandshakeBytes = maximumHandshakeBytes
        self.maximumChainLength = maximumChainLength
        self.cipherOffer = cipherOffer
    }

    /// These options offering what a client under ATS offers for a host with `policy`: ATS's
    /// cipher suites, and the versions from the policy's minimum, or from these options' own when
    /// it is stricter than URLSession's default of TLS 1.2 (an app that raises
    /// tlsMinimumSupportedProtocolVersion), up to these options' maximum.
    public func offeringATS(_ policy: ATSHostPolicy) -> ProbeOptions {
        var o = self
        // ATS lowers the floor only through its exceptions; a floor the app raised itself holds too.
        o.minimumVersion =
            minimumVersion > .tls1_2 ? max(minimumVersion, policy.minimumTLSVersion) : policy.minimumTLSVersion
        o.cipherOffer = .ats(policy)
        return o
    }

    /// These options offering everything (TLS 1.0 to 1.3, every cipher suite), to learn what a
    /// server does when it refused a narrower offer.
    public func observingEverything() -> ProbeOptions {
        var o = self
        o.minimumVersion = .tls1_0
        o.maximumVersion = .tls1_3
        o.cipherOffer = .everything
        return o
    }

    /// The ALPN list actually offered.
    var effectiveALPN: [String] {
        if let alpn { return alpn }
        switch startTLS {
        case nil: return ["h2", "http/1.1"]
        case .postgres: return ["postgresql"]
        default: return []
        }
    }

    /// The proxy for `host`, after consulting the environment when asked to.
    func resolvedProxy(for host: String) throws(ProbeError) -> ProxyAddress? {
        switch proxy {
        case .none: return nil
        case .http(let p): return p
        case .environment:
            guard let value = Environment.get("https_proxy") ?? Environment.get("HTTPS_PROXY"), !value.isEmpty else {
                return nil
            }
            let noProxy = Environment.get("no_proxy") ?? Environment.get("NO_PROXY") ?? ""
            if Environment.noProxyMatches(host: host, list: noProxy) { return nil }
            return try ProxyAddress.parse(value)
        }
    }
}

enum Environment {
    static func get(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }

    /// curl's rules: a comma-separated list of names matching the host or a domain suffix,
    /// `*` for everything; a leading dot is optional.
    static func noProxyMatches(host: String, list: String) -> Bool {
        let h = host.lowercased()
        for raw in list.split(separator: ",") {
            var entry = String(raw).trimmingWhitespace().lowercased()
            if entry == "*" { return true }
            if entry.hasPrefix(".") { entry.removeFirst() }
            if entry.isEmpty { continue }
            if h == entry || h.hasSuffix("." + entry) { return true }
        }
        return false
    }
}
