import ATSModel
import TrustCore
import TrustSupport

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

/// A cipher suite in both spellings.
public struct CipherSuite: Hashable, Sendable, CustomStringConvertible {
    /// The IANA name, e.g. `TLS_AES_128_GCM_SHA256`, `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`.
    public var ianaName: String
    /// OpenSSL's name, e.g. `ECDHE-RSA-AES128-GCM-SHA256` (the same as IANA's for TLS 1.3).
    public var openSSLName: String
    /// The two-byte code point.
    public var id: UInt16

    /// The IANA name.
    public var description: String { ianaName }
}

/// Phase durations in milliseconds.
public struct Timings: Hashable, Sendable {
    /// Name resolution (0 for IP literals and for proxied connections, where the proxy resolves).
    public var resolveMs: Double
    /// TCP connect (to the proxy when there is one).
    public var connectMs: Double
    /// The proxy's CONNECT exchange and/or the STARTTLS preamble; 0 when neither.
    public var preambleMs: Double
    /// The TLS handshake, from ClientHello to the client's Finished.
    public var handshakeMs: Double
}

/// The stapled OCSP response (RFC 6960), decoded enough to show its status.
public struct OCSPStaple: Hashable, Sendable {
    /// The outer responseStatus: `successful`, `malformedRequest`, `internalError`, `tryLater`,
    /// `sigRequired`, `unauthorized`.
    public var responseStatus: String
    /// The leaf's status in the response: `good`, `revoked`, `unknown`; nil when the response
    /// holds no entry for the leaf's serial (or is not successful).
    public var certificateStatus: String?
    /// When the leaf was revoked, if it was.
    public var revocationTime: Timestamp?
    /// thisUpdate of the leaf's entry.
    public var thisUpdate: Timestamp?
    /// nextUpdate of the leaf's entry, if present.
    public var nextUpdate: Timestamp?
    /// The response's DER, for the evaluator or an export.
    public var der: [UInt8]
}

/// A Signed Certificate Timestamp delivered by the TLS connection.
public struct TransportSCT: Hashable, Sendable {
    /// Where it came from.
    public enum Source: String, Hashable, Sendable {
        /// The signed_certificate_timestamp TLS extension (RFC 6962 3.3.1).
        case tlsExtension = "tls-extension"
        /// Inside the stapled OCSP response.
        case ocspResponse = "ocsp-response"
    }

    /// Where it came from.
    public var source: Source
    /// SCT version (0 = v1).
    public var version: Int
    /// The log's ID: SHA-256 of its public key.
    public var logID: [UInt8]
    /// Milliseconds since the epoch.
    public var timestampMilliseconds: UInt64
}

/// What the observer saw before a failure, so that a report can still show it.
public struct PartialHandshake: Sendable {
    /// The version the server chose in its ServerHello, if it got that far.
    public var version: TLSVersion?
    /// The certificates the server sent, if any (as sent).
    public var presentedChain: [[UInt8]]
    /// Whether the server asked for a client certificate.
    public var clientCertificateRequested: Bool
    /// The CA names from its request.
    public var acceptableClientCANames: [String]
    /// Whether a client certificate was sent.
    public var clientCertificateSent: Bool
    /// The address reached, if the TCP connection was made.
    public var peerAddress: String?
}
