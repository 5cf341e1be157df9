/// When an ATS failure stops a load, which decides what URLSession reports (docs/ats.md).
public enum ATSFailurePhase: String, Hashable, Sendable {
    /// Before any connection: an http:// URL ATS does not allow (URLError -1022).
    case beforeConnection = "before-connection"
    /// In the handshake: ATS's client never offers what the server needs (URLError -1200).
    case handshake
    /// On the server's certificates, once they arrived (URLError -1200).
    case certificate
}

/// The TLS layer's code for an ATS failure and when it stops the load.
public struct ATSFailure: Hashable, Sendable {
    /// When the failure stops the load.
    public var phase: ATSFailurePhase
    /// The SecureTransport code (`errSSLATS...`), 0 for a refused http:// URL (no TLS at all).
    public var osstatus: Int32
}

/// What an ATS step (`ats-tls-version`, `ats-cipher`, `ats-forward-secrecy`, `ats-key-size`,
/// `ats-signature-hash`) found.
public enum ATSFinding: Hashable, Sendable {
    /// ATS does not apply to this host (the reason says why).
    case exempt(reason: String)
    /// The chain came from files: nothing was negotiated.
    case noConnection
    /// The load is http://, so there is no TLS to check beyond the scheme.
    case cleartextNotChecked
    /// http:// refused: ATS requires TLS for this host.
    case cleartextBlocked(host: String)
    /// http:// allowed (by arbitrary loads, an exemption or NSExceptionAllowsInsecureHTTPLoads).
    case cleartextAllowed(reason: String)
    case versionOK(version: TLSVersion, minimum: TLSVersion)
    case versionTooLow(version: TLSVersion, minimum: TLSVersion)
    case cipherOK(name: String)
    case cipherRefused(name: String, forwardSecrecyRequired: Bool)
    /// The exception allows insecure loads without forward secrecy: the system's default suites are offered.
    case cipherUnrestricted(name: String)
    case forwardSecrecyOK(name: String, group: String?)
    case forwardSecrecyMissing(name: String)
    case forwardSecrecyNotRequired(name: String, present: Bool)
    case keySizeOK(label: String, bits: Int, minimum: Int, leaf: Bool)
    case keyTooSmall(label: String, bits: Int, minimum: Int, leaf: Bool)
    /// A key that is neither RSA nor elliptic-curve: ATS accepts only those.
    case keyTypeRefused(label: String, leaf: Bool)
    case hashOK(name: String, leaf: Bool)
    case hashTooWeak(name: String, leaf: Bool)
    /// A self-signed anchor's own signature, which nobody relies on.
    case hashSelfSignedAnchor(name: String)

    /// The TLS layer's code and phase, for failing findings.
    public var failure: ATSFailure? {
        switch self {
        case .cleartextBlocked: ATSFailure(phase: .beforeConnection, osstatus: 0)
        case .versionTooLow: ATSFailure(phase: .handshake, osstatus: -9881)
        case .cipherRefused, .forwardSecrecyMissing: ATSFailure(phase: .handshake, osstatus: -9882)
        case .keyTooSmall, .keyTypeRefused: ATSFailure(phase: .certificate, osstatus: -9883)
        case .hashTooWeak(_, let leaf): ATSFailure(phase: .certificate, osstatus: leaf ? -9884 : -9885)
        default: nil
        }
    }

    /// One line, no newline.
    public var title: String {
        switch self {
        case .exempt: "ATS does not apply"
        case .noConnection: "No handshake to judge"
        case .cleartextNotChecked: "No TLS to judge"
        case .cleartextBlocked(let host): "http://\(host) refused: ATS requires HTTPS"
        case .cleartextAllowed: "http:// allowed (cleartext)"
        case .versionOK(let v, let min): "\(v) meets ATS's minimum \(min)"
        case .versionTooLow(let v, let min): "\(v) is below ATS's minimum \(min)"
        case .cipherOK(let name): "\(name) is an ATS cipher suite"
        case .cipherRefused(let name, _): "\(name) is not an ATS cipher suite"
        case .cipherUnrestricted(let name): "\(name): cipher suites not restricted for this domain"
        case .forwardSecrecyOK(let name, let group):
            "Forward secrecy (\(group.map { "ECDHE \($0)" } ?? name))"
        case .forwardSecrecyMissing(let name): "No forward secrecy (\(name))"
        case .forwardSecrecyNotRequired(let name, let present):
            "Forward secrecy not required (\(name) \(present ? "has" : "lacks") it)"
        case .keySizeOK(let label, let bits, _, _): "\(label) \(bits) bits meets ATS's minimum"
        case .keyTooSmall(let label, let bits, let min, _): "\(label) \(bits) bits, below ATS's \(min)"
        case .keyTypeRefused(let label, _): "\(label) key: ATS accepts only RSA and elliptic-curve keys"
        case .hashOK(let name, _): "\(name): SHA-2 of 256 bits or more"
        case .hashTooWeak(let name, _): "\(name): ATS requires SHA-2 of at least 256 bits"
        case .hashSelfSignedAnchor(let name): "\(name) on the self-signed anchor (its own signature is not judged)"
        }
    }

    /// The rule in plain words.
    public var detail: String {
        switch self {
        case .exempt(let reason): "\(reason)."
        case .noConnection:
            "ATS judges the negotiated version, cipher suite and key exchange; a chain read from files has none. Check the server itself to see them."
        case .cleartextNotChecked:
            "An http:// load has no TLS handshake; this step judges the scheme in ats-tls-version alone."
        case .cleartextBlocked:
            "ATS requires HTTPS for this host; URLSession refuses the http:// URL before connecting (URLError -1022, appTransportSecurityRequiresSecureConnection). NSExceptionAllowsInsecureHTTPLoads on the domain's exception entry, or NSAllowsArbitraryLoads, would allow it."
        case .cleartextAllowed(let reason):
            "\(reason): the app may load this URL in cleartext, with no TLS and so no trust evaluation at all. The report still evaluates the server's TLS chain, which an https:// URL would meet."
        case .versionOK(_, let min):
            "ATS requires TLS \(min == .tls1_2 ? "1.2 or later unless an exception lowers it" : "\(min) or later for this host") (NSExceptionMinimumTLSVersion)."
        case .versionTooLow(let v, let min):
            "ATS's client offers \(min) and later only, so the handshake with a server that speaks \(v) fails before any certificate is evaluated (errSSLATSMinimumVersionViolation; URLError -1200 with stream error -9802). NSExceptionMinimumTLSVersion with the exact string TLSv\(v.description.dropFirst(4)) on the domain's exception entry would allow it."
        case .cipherOK:
            "ATS offers the TLS 1.3 suites and ECDHE_ECDSA / ECDHE_RSA with AES-GCM, ChaCha20-Poly1305 or AES-CBC-SHA; with NSExceptionRequiresForwardSecrecy = NO also RSA key exchange with AES-GCM or AES-CBC-SHA."
        case .cipherRefused(_, let fs):
            "ATS's client does not offer this suite\(fs ? " (with forward secrecy required it offers ECDHE suites only)" : ""), so the handshake fails (errSSLATSCiphersuiteViolation; URLError -1200 with stream error -9802)."
        case .cipherUnrestricted:
            "The matching exception entry allows insecure HTTP loads and does not require forward secrecy, so ATS leaves the system's default cipher suites in place."
        case .forwardSecrecyOK:
            "ATS requires forward secrecy: TLS 1.3, or an ECDHE key exchange in TLS 1.2."
        case .forwardSecrecyMissing:
            "The key exchange has no forward secrecy (RSA key transport): ATS's client does not offer such suites unless the domain's exception sets NSExceptionRequiresForwardSecrecy to NO (errSSLATSCiphersuiteViolation; URLError -1200)."
        case .forwardSecrecyNotRequired:
            "The domain's exception entry sets NSExceptionRequiresForwardSecrecy to NO, which adds RSA key-exchange suites to ATS's offer."
        case .keySizeOK(_, _, _, let leaf), .keyTooSmall(_, _, _, let leaf):
            "ATS requires RSA keys of at least 2048 bits and elliptic-curve keys of at least 256 bits; trustx applies it to the \(leaf ? "leaf" : "CA certificates of the path as to the leaf") (Apple's documentation names the server certificate; its SSL policy requires the same of every certificate) (errSSLATSMinimumKeySizeViolation; URLError -1200)."
        case .keyTypeRefused(_, let leaf):
            "ATS accepts RSA and elliptic-curve keys only\(leaf ? "" : ", on every certificate of the path") (errSSLATSMinimumKeySizeViolation; URLError -1200)."
        case .hashOK, .hashTooWeak(_, false):
            "ATS requires signatures with a SHA-2 digest of at least 256 bits (SHA-256, SHA-384, SHA-512; EdDSA) on every certificate of the path except a self-signed anchor's own (errSSLATSCertificateHashAlgorithmViolation; URLError -1200)."
        case .hashTooWeak(_, true):
            "ATS requires the leaf's signature to use a SHA-2 digest of at least 256 bits (errSSLATSLeafCertificateHashAlgorithmViolation; URLError -1200)."
        case .hashSelfSignedAnchor:
            "The signature a self-signed anchor makes on itself proves nothing and is not judged."
        }
    }
}
