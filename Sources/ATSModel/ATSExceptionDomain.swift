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
