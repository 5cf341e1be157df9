import ATSModel

/// Everything a completed handshake showed, as values (no C objects): what the server sent and
/// what was negotiated, ready for the evaluator and the reports.
public struct Handshake: Sendable {
    /// The target as given.
    public var target: ProbeTarget
    /// The address the TCP connection reached (`127.0.0.1:443`, `[::1]:443`), or the proxy's.
    public var peerAddress: String
    /// The proxy the connection was tunnelled through, if any.
    public var proxy: ProxyAddress?
    /// The STARTTLS protocol spoken first, if any.
    public var startTLS: StartTLSProtocol?
    /// The server name sent in the ClientHello, nil when none.
    public var sni: String?
    /// The certificates exactly as the server sent them: DER, in order, duplicates kept.
    public var presentedChain: [[UInt8]]
    /// The negotiated version.
    public var version: TLSVersion
    /// The cipher suite.
    public var cipher: CipherSuite
    /// The key-exchange group (`X25519`, `secp256r1`, `ffdhe2048`) or key (`DH 1024`); nil for
    /// RSA key exchange.
    public var group: String?
    /// The ALPN protocol the server chose, nil when none.
    public var alpn: String?
    /// The stapled OCSP response, if the server sent one.
    public var ocsp: OCSPStaple?
    /// SCTs delivered by TLS (the extension, or inside the stapled OCSP response).
    public var scts: [TransportSCT]
    /// Whether the server asked for a client certificate.
    public var clientCertificateRequested: Bool
    /// The CA names from the server's certificate request (RFC 2253 strings), may be empty.
    public var acceptableClientCANames: [String]
    /// Whether a client certificate was sent.
    public var clientCertificateSent: Bool
    /// How long each phase took.
    public var timings: Timings
}
