/// The IANA names of the code points a server's answer carries (TLS parameters registry): the
/// versions, the suites and groups the Apple hello offers, and the alerts of RFC 8446 6.
public enum TLSNames {
    /// `TLS 1.3` for 0x0304; hex for anything else.
    public static func version(_ v: UInt16) -> String {
        switch v {
        case 0x0304: "TLS 1.3"
        case 0x0303: "TLS 1.2"
        case 0x0302: "TLS 1.1"
        case 0x0301: "TLS 1.0"
        default: hex(v)
        }
    }

    /// The suites the Apple hello offers, by name.
    static let suites: [UInt16: String] = [
        0x1301: "TLS_AES_128_GCM_SHA256", 0x1302: "TLS_AES_256_GCM_SHA384", 0x1303: "TLS_CHACHA20_POLY1305_SHA256",
        0xC02C: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", 0xC02B: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        0xCCA9: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", 0xC030: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        0xC02F: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", 0xCCA8: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        0xC00A: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", 0xC009: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
        0xC014: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", 0xC013: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
        0x009D: "TLS_RSA_WITH_AES_256_GCM_SHA384", 0x009C: "TLS_RSA_WITH_AES_128_GCM_SHA256",
        0x0035: "TLS_RSA_WITH_AES_256_CBC_SHA", 0x002F: "TLS_RSA_WITH_AES_128_CBC_SHA",
        0xC008: "TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA", 0xC012: "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
        0x000A: "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
    ]

    /// A cipher suite's IANA name; hex for one the hello does not offer.
    public static func cipherSuite(_ id: UInt16) -> String { suites[id] ?? hex(id) }

    /// A group's IANA name, e.g. `x25519`, `X25519MLKEM768`; hex when unnamed.
    public static func group(_ id: UInt16) -> String {
        switch id {
        case 0x0017: "secp256r1"
        case 0x0018: "secp384r1"
        case 0x0019: "secp521r1"
        case 0x001D: "x25519"
        case 0x001E: "x448"
        case 0x0100: "ffdhe2048"
        case 0x0101: "ffdhe3072"
        case 0x11EB: "SecP256r1MLKEM768"
        case 0x11EC: "X25519MLKEM768"
        case 0x11ED: "SecP384r1MLKEM1024"
        default: AppleClientHello.isGREASE(id) ? "GREASE \(hex(id))" : hex(id)
        }
    }

    /// RFC 8446 6's alert descriptions, by number.
    static let alerts: [UInt8: String] = [
        0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 22: "record_overflow",
        40: "handshake_failure", 42: "bad_certificate", 47: "illegal_parameter", 48: "unknown_ca",
        49: "access_denied", 50: "decode_error", 51: "decrypt_error", 70: "protocol_version",
        71: "insufficient_security", 80: "internal_error", 86: "inappropriate_fallback", 90: "user_canceled",
        109: "missing_extension", 110: "unsupported_extension", 112: "unrecognized_name",
        116: "certificate_required", 120: "no_application_protocol",
    ]

    /// `fatal handshake_failure (40)`.
    public static func alert(level: UInt8, description: UInt8) -> String {
        let levelName = level == 2 ? "fatal" : level == 1 ? "warning" : "level \(level)"
        return "\(levelName) \(alerts[description] ?? "alert") (\(description))"
    }

    /// `0x11ec`.
    static func hex(_ v: UInt16) -> String {
        let digits = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
