import ATSModel
import TrustCore

/// Which cipher suites the probe offers.
public enum CipherOffer: Hashable, Sendable, CustomStringConvertible {
    /// Everything OpenSSL has except anonymous and null suites: the observer's offer, so that any
    /// server completes a handshake and can be judged afterwards.
    case everything
    /// What a client under App Transport Security offers: the TLS 1.3 suites and ECDHE (ECDSA or
    /// RSA) with AES-GCM, ChaCha20-Poly1305 or AES-CBC-SHA; when `requiresForwardSecrecy` is false
    /// (NSExceptionRequiresForwardSecrecy NO) also the four RSA key-exchange suites, offered first
    /// as Apple's compatibility group is.
    case ats(requiresForwardSecrecy: Bool)

    /// The offer ATS makes under `policy`.
    public static func ats(_ policy: ATSHostPolicy) -> CipherOffer {
        .ats(requiresForwardSecrecy: policy.requiresForwardSecrecy)
    }

    /// The TLS 1.2-and-below suites offered, in order (nil: everything).
    public var suites: [ATSCipherSuite]? {
        switch self {
        case .everything: nil
        case .ats(let fs): (fs ? [] : ATSCipherSuite.withoutForwardSecrecy) + ATSCipherSuite.forwardSecret
        }
    }

    /// `ATS's cipher suites` / `ATS's cipher suites and RSA key exchange` / `every cipher suite`.
    public var description: String {
        switch self {
        case .everything: "every cipher suite"
        case .ats(true): "ATS's cipher suites (forward secrecy required)"
        case .ats(false): "ATS's cipher suites and RSA key exchange (forward secrecy not required)"
        }
    }

    /// OpenSSL's cipher list for TLS 1.2 and below. Security level 0 keeps TLS 1.0/1.1 possible
    /// (their handshake signatures use SHA-1, refused above level 0 on OpenSSL 3).
    var openSSLCipherList: String {
        guard let suites else { return "ALL:!aNULL:!eNULL:@SECLEVEL=0" }
        return suites.map(\.openSSLName).joined(separator: ":") + ":@SECLEVEL=0"
    }

    /// OpenSSL's TLS 1.3 suite list: all three, the same in both offers.
    static let tls13Suites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"
}

/// A TLS 1.2-and-below cipher suite ATS knows, in both spellings.
public struct ATSCipherSuite: Hashable, Sendable {
    /// The IANA name.
    public var ianaName: String
    /// OpenSSL's name.
    public var openSSLName: String
    /// The code point.
    public var id: UInt16

    /// The ECDHE suites ATS offers by default (Apple's PFS group).
    public static let forwardSecret: [ATSCipherSuite] = [
        .init(
            ianaName: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", openSSLName: "ECDHE-ECDSA-AES256-GCM-SHA384",
            id: 0xC02C),
        .init(
            ianaName: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", openSSLName: "ECDHE-ECDSA-AES128-GCM-SHA256",
            id: 0xC02B),
        .init(
            ianaName: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", openSSLName: "ECDHE-ECDSA-CHACHA20-POLY1305",
            id: 0xCCA9),
        .init(
            ianaName: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", openSSLName: "ECDHE-RSA-AES256-GCM-SHA384", id: 0xC030),
        .init(
            ianaName: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", openSSLName: "ECDHE-RSA-AES128-GCM-SHA256", id: 0xC02F),
        .init(
            ianaName: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", openSSLName: "ECDHE-RSA-CHACHA20-POLY1305",
            id: 0xCCA8),
        .init(ianaName: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", openSSLName: "ECDHE-ECDSA-AES256-SHA", id: 0xC00A),
        .init(ianaName: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", openSSLName: "ECDHE-ECDSA-AES128-SHA", id: 0xC009),
        .init(ianaName: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", openSSLName: "ECDHE-RSA-AES256-SHA", id: 0xC014),
        .init(ianaName: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", openSSLName: "ECDHE-RSA-AES128-SHA", id: 0xC013),
    ]

    /// The RSA key-exchange suites NSExceptionRequiresForwardSecrecy NO adds (Apple's
    /// compatibility group).
    public static let withoutForwardSecrecy: [ATSCipherSuite] = [
        .init(ianaName: "TLS_RSA_WITH_AES_256_GCM_SHA384", openSSLName: "AES256-GCM-SHA384", id: 0x009D),
        .init(ianaName: "TLS_RSA_WITH_AES_128_GCM_SHA256", openSSLName: "AES128-GCM-SHA256", id: 0x009C),
        .init(ianaName: "TLS_RSA_WITH_AES_256_CBC_SHA", openSSLName: "AES256-SHA", id: 0x0035),
        .init(ianaName: "TLS_RSA_WITH_AES_128_CBC_SHA", openSSLName: "AES128-SHA", id: 0x002F),
    ]

    /// The TLS 1.3 suites' code points (every TLS 1.3 suite OpenSSL negotiates is one ATS accepts).
    public static let tls13IDs: Set<UInt16> = [0x1301, 0x1302, 0x1303]
}
