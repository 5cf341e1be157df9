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
