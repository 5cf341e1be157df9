/// Why a probe ended without a completed handshake: a value, with one line for a person and
/// the URLError code URLSession would report for the same failure.
public struct ProbeError: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure, named as users meet them.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
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
                .oversizedHandshake, .chainTooLong, .malformedHandshake:
                -1200
            }
        }
    }

    /// What went wrong.
    public var kind: Kind
    /// One line a person understands.
    public var message: String
    /// The URLError code URLSession would report, or nil for local mistakes.
    public var urlError: Int?
    /// The alert the server sent (or the client sent, for local failures), if any.
    public var alert: TLSAlert?
    /// OpenSSL's reasons from its error queue, for verbose output; never needed to understand.
    public var details: [String]
    /// What was seen before the failure (chain, version, a client-certificate request).
    public var partial: PartialHandshake?

    /// Creates an error with the kind's URLError code.
    public init(
        _ kind: Kind, _ message: String, alert: TLSAlert? = nil, details: [String] = [],
        partial: PartialHandshake? = nil
    ) {
        self.kind = kind
        self.message = message
        self.urlError = kind.urlError
        self.alert = alert
        self.details = details
        self.partial = partial
    }

    /// The message.
    public var description: String { message }
}

/// A TLS alert (RFC 8446 6, RFC 5246 7.2) with its registered name.
public struct TLSAlert: Hashable, Sendable, CustomStringConvertible {
    /// The AlertDescription value.
    public var code: UInt8
    /// Whether the level was fatal (2); TLS 1.3 treats every alert but close_notify as fatal.
    public var fatal: Bool

    /// Creates an alert.
    public init(code: UInt8, fatal: Bool = true) {
        self.code = code
        self.fatal = fatal
    }

    /// The IANA registry name, e.g. `certificate_required`.
    public var name: String {
        switch code {
        case 0: "close_notify"
        case 10: "unexpected_message"
        case 20: "bad_record_mac"
        case 21: "decryption_failed"
        case 22: "record_overflow"
        case 30: "decompression_failure"
        case 40: "handshake_failure"
        case 41: "no_certificate"
        case 42: "bad_certificate"
        case 43: "unsupported_certificate"
        case 44: "certificate_revoked"
        case 45: "certificate_expired"
        case 46: "certificate_unknown"
        case 47: "illegal_parameter"
        case 48: "unknown_ca"
        case 49: "access_denied"
        case 50: "decode_error"
        case 51: "decrypt_error"
        case 60: "export_restriction"
        case 70: "protocol_version"
        case 71: "insufficient_security"
        case 80: "internal_error"
        case 86: "inappropriate_fallback"
        case 90: "user_canceled"
        case 100: "no_renegotiation"
        case 109: "missing_extension"
        case 110: "unsupported_extension"
        case 111: "certificate_unobtainable"
        case 112: "unrecognized_name"
        case 113: "bad_certificate_status_response"
        case 114: "bad_certificate_hash_value"
        case 115: "unknown_psk_identity"
        case 116: "certificate_required"
        case 120: "no_application_protocol"
        default: "alert \(code)"
        }
    }

    /// `handshake_failure (40)`.
    public var description: String { "\(name) (\(code))" }

    /// Alerts a server sends about the client's certificate.
    var isAboutClientCertificate: Bool { [41, 42, 43, 44, 45, 46, 48, 49].contains(code) }
}
