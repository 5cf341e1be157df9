import ATSModel

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
