import AppleHello

/// What a connection to a server showed, in plain values, for the reports. The TLS probe fills
/// it in and TrustReport renders it, so the engine stays free of sockets.
public struct ConnectionReport: Sendable {
    /// Where the connection went.
    public struct Target: Sendable {
        /// The name checked against the certificate.
        public var host: String
        /// The port.
        public var port: Int
        /// The server name sent (nil when none).
        public var sni: String?
        /// The address actually dialled, when it differs (`--connect-to`).
        public var connectTo: String?
        /// The STARTTLS protocol, if any.
        public var startTLS: String?
        /// The HTTP proxy used, if any.
        public var proxy: String?

        /// Creates a target description.
        public init(
            host: String, port: Int, sni: String?, connectTo: String? = nil, startTLS: String? = nil,
            proxy: String? = nil
        ) {
            self.host = host
            self.port = port
            self.sni = sni
            self.connectTo = connectTo
            self.startTLS = startTLS
            self.proxy = proxy
        }
    }

    /// Why the connection did not produce a chain.
    public struct Failure: Sendable {
        /// The kinds of failure, named as users meet them; the raw value is the stable name the
        /// reports print (docs/json-report.md).
        public enum Kind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
            /// The target or an option could not be understood (no connection was attempted).
            case invalidTarget = "invalid-target"
            /// A local option is unusable: client certificate unreadable, versions contradict.
            case invalidOption = "invalid-option"
            /// The name does not resolve.
            case unknownHost = "unknown-host"
            /// The host answered the SYN with a reset: nothing listens on the port.
            case connectionRefused = "connection-refused"
            /// The host or network is unreachable.
            case cannotConnect = "cannot-connect"
            /// The deadline passed (connect, proxy, STARTTLS or handshake).
            case timedOut = "timed-out"
            /// The proxy refused the tunnel or did not speak HTTP.
            case proxyFailed = "proxy-failed"
            /// The plaintext preamble before STARTTLS failed.
            case startTLSFailed = "starttls-failed"
            /// The server answered in plaintext (HTTP, a banner), not TLS.
            case notTLS = "not-tls"
            /// The server ended the handshake with a TLS alert.
            case tlsAlert = "tls-alert"
            /// The server closed the connection during the handshake without an alert.
            case closedDuringHandshake = "closed-during-handshake"
            /// No TLS version both sides allow.
            case noCommonVersion = "no-common-version"
            /// No cipher suite (or group, or signature algorithm) both sides allow.
            case noCommonCipher = "no-common-cipher"
            /// The server requires a client certificate and none was sent.
            case clientCertificateRequired = "client-certificate-required"
            /// The server rejected the client certificate that was sent.
            case clientCertificateRejected = "client-certificate-rejected"
            /// The server sent more than the bounds allow (a huge certificate or chain).
            case oversizedHandshake = "oversized-handshake"
            /// The server's chain has more certificates than allowed.
            case chainTooLong = "chain-too-long"
            /// The server sent bytes that are not valid TLS during the handshake.
            case malformedHandshake = "malformed-handshake"
            /// The handshake completed but a certificate the server sent does not decode.
            case malformedCertificate = "malformed-certificate"
            /// The handshake completed without a certificate from the server.
            case noCertificate = "no-certificate"

            /// The URLError code URLSession reports for this kind (docs/steps.md, URLError);
            /// nil when URLSession would never have started (a local mistake).
            public var urlError: Int? {
                switch self {
                case .invalidTarget, .invalidOption: nil
                case .unknownHost: -1003  // cannotFindHost
                case .connectionRefused, .cannotConnect, .proxyFailed: -1004  // cannotConnectToHost
                case .timedOut: -1001  // timedOut
                case .clientCertificateRequired: -1206  // clientCertificateRequired
                case .clientCertificateRejected: -1205  // clientCertificateRejected
                // Secure Transport reports errSSLProtocol / errSSLClosedAbort / errSSLPeer...; CFNetwork
                // maps every one of them to secureConnectionFailed.
                case .startTLSFailed, .notTLS, .tlsAlert, .closedDuringHandshake, .noCommonVersion, .noCommonCipher,
                    .oversizedHandshake, .chainTooLong, .malformedHandshake, .malformedCertificate, .noCertificate:
                    -1200
                }
            }

            /// The stable name, so interpolation prints what the reports print.
            public var description: String { rawValue }
        }

        /// A stable kind, e.g. `connection-refused`, `tls-alert`.
        public var kind: Kind
        /// One line for a person.
        public var message: String
        /// The URLError URLSession would report, if it would have started at all.
        public var urlError: Int?

        /// Creates a failure description.
        public init(kind: Kind, message: String, urlError: Int?) {
            self.kind = kind
            self.message = message
            self.urlError = urlError
        }
    }

    /// One certificate fetched through AIA.
    public struct Fetch: Sendable {
        /// The caIssuers URL.
        public var url: String
        /// What happened, in a few words.
        public var outcome: String

        /// Creates a fetch record.
        public init(url: String, outcome: String) {
            self.url = url
            self.outcome = outcome
        }
    }

    /// Where the connection went.
    public var target: Target
    /// The address that answered.
    public var peerAddress: String?
    /// `TLS 1.3` etc.
    public var protocolVersion: String?
    /// The cipher suite's IANA name.
    public var cipher: String?
    /// The key-exchange group.
    public var group: String?
    /// The negotiated ALPN protocol.
    public var alpn: String?
    /// The stapled OCSP response's certificate status, or nil when none was stapled.
    public var ocsp: String?
    /// How many SCTs the TLS extension and the OCSP staple delivered.
    public var scts: Int
    /// Whether the server asked for a client certificate.
    public var clientCertificateRequested: Bool
    /// The CA names the server listed in its certificate request.
    public var clientCertificateCANames: [String]
    /// Milliseconds to connect (TCP, proxy tunnel included).
    public var connectMs: Double?
    /// Milliseconds of the TLS handshake.
    public var handshakeMs: Double?
    /// AIA fetches made while completing the chain.
    public var aiaFetches: [Fetch]
    /// Why there is no chain, when there is none.
    public var failure: Failure?
    /// Under ATS, why the server refused ATS's offer, when it did: the facts above then come from
    /// a second handshake that offered everything, to show what the server does speak.
    public var atsRefusal: String?
    /// What the server answered to iOS 26's ClientHello on a connection of its own (D430).
    public var appleClientHello: AppleHelloReport?

    /// Creates a report with only the target known.
    public init(target: Target) {
        self.target = target
        self.scts = 0
        self.clientCertificateRequested = false
        self.clientCertificateCANames = []
        self.aiaFetches = []
    }
}
