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
