import TrustCore

/// Why a probe ended without a completed handshake: a value, with one line for a person and
/// the URLError code URLSession would report for the same failure.
public struct ProbeError: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure, named as users meet them: the connection report's kinds, so a probe's
    /// failure reaches the report without a translation that could drift.
    public typealias Kind = ConnectionReport.Failure.Kind

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
