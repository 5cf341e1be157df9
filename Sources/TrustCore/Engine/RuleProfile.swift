/// Which rule set the checks follow.
public enum RuleProfile: String, Hashable, Sendable, CaseIterable {
    /// Apple's SecTrust rules (the default everywhere).
    case apple
    /// RFC 5280 and CA/Browser Forum rules, as x509-limbo expects.
    case webpki
}
