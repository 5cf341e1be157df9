import TrustSupport

/// Which generation of Apple's systems ATS follows: iOS 17 / macOS 14 changed how routable IP
/// addresses are treated (docs/ats.md).
public enum ATSPlatform: String, Hashable, Sendable, CaseIterable {
    /// iOS 16 / macOS 13 and earlier.
    case ios16
    /// iOS 17 / macOS 14 and later (the default).
    case ios17
}

/// The scheme of the URL an app loads: ATS refuses cleartext `http` unless allowed.
public enum URLScheme: String, Hashable, Sendable, CaseIterable {
    /// `https://`.
    case https
    /// `http://` (cleartext; refused by ATS with URLError -1022 unless an exception allows it).
    case http
}

/// One SPKI identity of an NSPinnedDomains entry, kept as written so that an invalid one can be
/// reported (an invalid identity never matches).
public struct PinnedIdentity: Hashable, Sendable {
    /// The `SPKI-SHA256-BASE64` value as written in the property list.
    public var text: String
    /// The 32-byte SHA-256 digest it decodes to; nil when it is not 32 bytes of base64.
    public var digest: [UInt8]?

    /// Creates an identity from its text; `digest` is decoded from it.
    public init(text: String) {
        self.text = text
        if let bytes = Base64.decode(Array(text.utf8)), bytes.count == 32 {
            self.digest = bytes
        } else {
            self.digest = nil
        }
    }
}

/// One entry of NSPinnedDomains.
public struct PinnedDomain: Hashable, Sendable {
    /// The domain key as written.
    public var domain: String
    /// NSIncludesSubdomains.
    public var includesSubdomains: Bool
    /// NSPinnedLeafIdentities; nil when the key is absent (an empty array is present and always fails).
    public var leafIdentities: [PinnedIdentity]?
    /// NSPinnedCAIdentities; nil when the key is absent (an empty array is present and always fails).
    public var caIdentities: [PinnedIdentity]?

    /// Creates an entry.
    public init(
        domain: String, includesSubdomains: Bool = false, leafIdentities: [PinnedIdentity]? = nil,
        caIdentities: [PinnedIdentity]? = nil
    ) {
        self.domain = domain
        self.includesSubdomains = includesSubdomains
        self.leafIdentities = leafIdentities
        self.caIdentities = caIdentities
    }
}

/// One entry of NSExceptionDomains. A key that is absent is nil, so that "not said" and "said NO"
/// stay apart, as they do for Apple.
public struct ATSExceptionDomain: Hashable, Sendable {
    /// The domain key as written (a name, an IP address, or a CIDR range since iOS 17).
    public var domain: String
    /// NSIncludesSubdomains.
    public var includesSubdomains: Bool?
    /// NSExceptionAllowsInsecureHTTPLoads.
    public var allowsInsecureHTTPLoads: Bool?
    /// NSExceptionMinimumTLSVersion exactly as written; only `TLSv1.0` ... `TLSv1.3` take effect.
    public var minimumTLSVersionText: String?
    /// NSExceptionRequiresForwardSecrecy.
    public var requiresForwardSecrecy: Bool?
    /// NSRequiresCertificateTransparency (obsolete; kept for the lint).
    public var requiresCertificateTransparency: Bool?

    /// Creates an entry.
    public init(
        domain: String, includesSubdomains: Bool? = nil, allowsInsecureHTTPLoads: Bool? = nil,
        minimumTLSVersionText: String? = nil, requiresForwardSecrecy: Bool? = nil,
        requiresCertificateTransparency: Bool? = nil
    ) {
        self.domain = domain
        self.includesSubdomains = includesSubdomains
        self.allowsInsecureHTTPLoads = allowsInsecureHTTPLoads
        self.minimumTLSVersionText = minimumTLSVersionText
        self.requiresForwardSecrecy = requiresForwardSecrecy
        self.requiresCertificateTransparency = requiresCertificateTransparency
    }

    /// The minimum version NSExceptionMinimumTLSVersion sets: the exact spellings only, as Apple
    /// ignores anything else (`TLSV1.2`, `1.2`, `TLSv1_2`).
    public var minimumTLSVersion: TLSVersion? {
        switch minimumTLSVersionText {
        case "TLSv1.0": .tls1_0
        case "TLSv1.1": .tls1_1
        case "TLSv1.2": .tls1_2
        case "TLSv1.3": .tls1_3
        default: nil
        }
    }
}

/// An app's NSAppTransportSecurity dictionary. A key that is absent is nil.
public struct ATSConfiguration: Hashable, Sendable {
    /// NSAllowsArbitraryLoads.
    public var allowsArbitraryLoads: Bool?
    /// NSAllowsArbitraryLoadsForMedia.
    public var allowsArbitraryLoadsForMedia: Bool?
    /// NSAllowsArbitraryLoadsInWebContent.
    public var allowsArbitraryLoadsInWebContent: Bool?
    /// NSAllowsLocalNetworking.
    public var allowsLocalNetworking: Bool?
    /// NSExceptionDomains, in the order written.
    public var exceptionDomains: [ATSExceptionDomain]
    /// NSPinnedDomains, in the order written.
    public var pinnedDomains: [PinnedDomain]
    /// What Apple's reader would ignore or read otherwise than written (misspelt keys, wrong
    /// types), from `decode`; empty for configurations made in code.
    public var notes: [ATSConfigurationNote] = []

    /// Creates a configuration; with no arguments, ATS's defaults (an Info.plist without the key).
    public init(
        allowsArbitraryLoads: Bool? = nil, allowsArbitraryLoadsForMedia: Bool? = nil,
        allowsArbitraryLoadsInWebContent: Bool? = nil, allowsLocalNetworking: Bool? = nil,
        exceptionDomains: [ATSExceptionDomain] = [], pinnedDomains: [PinnedDomain] = []
    ) {
        self.allowsArbitraryLoads = allowsArbitraryLoads
        self.allowsArbitraryLoadsForMedia = allowsArbitraryLoadsForMedia
        self.allowsArbitraryLoadsInWebContent = allowsArbitraryLoadsInWebContent
        self.allowsLocalNetworking = allowsLocalNetworking
        self.exceptionDomains = exceptionDomains
        self.pinnedDomains = pinnedDomains
    }
}

/// ATS as one evaluation applies it: the app's configuration, the platform and the URL scheme.
public struct ATSSettings: Hashable, Sendable {
    /// The configuration (`.init()` for `--ats`, ATS's defaults).
    public var configuration: ATSConfiguration
    /// The platform whose rules apply.
    public var platform: ATSPlatform
    /// The scheme the app loads.
    public var scheme: URLScheme
    /// Where the configuration came from (the Info.plist path), nil for the defaults.
    public var source: String?

    /// Creates ATS settings.
    public init(
        configuration: ATSConfiguration = ATSConfiguration(), platform: ATSPlatform = .ios17,
        scheme: URLScheme = .https, source: String? = nil
    ) {
        self.configuration = configuration
        self.platform = platform
        self.scheme = scheme
        self.source = source
    }
}

/// What a TLS handshake negotiated, as ATS's connection rules read it.
public struct NegotiatedTLS: Hashable, Sendable {
    /// The protocol version.
    public var version: TLSVersion
    /// The cipher suite's two-byte code point.
    public var cipherSuite: UInt16
    /// The cipher suite's IANA name.
    public var cipherName: String
    /// The key-exchange group (`X25519`, `secp256r1`), nil for RSA key exchange.
    public var group: String?

    /// Creates negotiated facts.
    public init(version: TLSVersion, cipherSuite: UInt16, cipherName: String, group: String?) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.cipherName = cipherName
        self.group = group
    }
}

/// What ATS requires of a connection to one host, once the configuration has been resolved for it
/// (global keys, the matching exception domain, local-host exemption, platform rules).
public struct ATSHostPolicy: Hashable, Sendable {
    /// Whether ATS's rules apply to this host at all (false: arbitrary loads, or a local host).
    public var enforced: Bool
    /// Why ATS applies or not, in a sentence for reports.
    public var reason: String
    /// The exception domain entry that matched the host, if any (its key as written).
    public var matchedException: String?
    /// The lowest TLS version accepted (1.2 by default).
    public var minimumTLSVersion: TLSVersion
    /// Whether forward secrecy (ECDHE) is required (true by default).
    public var requiresForwardSecrecy: Bool
    /// Whether cleartext http is allowed.
    public var allowsInsecureHTTP: Bool
    /// Whether the cipher suites are limited to ATS's (false only for an exception that allows
    /// insecure HTTP loads and does not require forward secrecy: the system's defaults are offered).
    public var restrictsCipherSuites = true
    /// Doubts and ignored keys that shaped this policy, in sentences for reports.
    public var notes: [String] = []

    /// Creates a host policy; the defaults are ATS's own.
    public init(
        enforced: Bool = true, reason: String = "ATS's defaults apply", matchedException: String? = nil,
        minimumTLSVersion: TLSVersion = .tls1_2, requiresForwardSecrecy: Bool = true, allowsInsecureHTTP: Bool = false,
        restrictsCipherSuites: Bool = true, notes: [String] = []
    ) {
        self.restrictsCipherSuites = restrictsCipherSuites
        self.notes = notes
        self.enforced = enforced
        self.reason = reason
        self.matchedException = matchedException
        self.minimumTLSVersion = minimumTLSVersion
        self.requiresForwardSecrecy = requiresForwardSecrecy
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }
}
