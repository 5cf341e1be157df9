import ATSModel

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
    /// Whether `ServerConnection.connect` also sends iOS 26's ClientHello on a connection of its
    /// own and records the answer (`check` does unless `--no-apple-hello`; D432).
    public var sendsAppleClientHello = false

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
