/// The policy a trust object is created with.
public enum TrustPolicy: Hashable, Sendable {
    /// SecPolicyCreateSSL(true, host): server trust, with a host-name check when `host` is non-nil.
    case ssl(host: String?)
    /// SecPolicyCreateBasicX509(): chain, signatures, validity and compliance only.
    case basicX509

    /// Whether this is an SSL policy (with or without host).
    public var isSSL: Bool { if case .ssl = self { true } else { false } }

    /// The host the SSL policy checks, if any.
    public var host: String? { if case .ssl(let h) = self { h } else { nil } }

    /// How Apple's API spells it.
    public var appleName: String {
        switch self {
        case .ssl(let host?): "SecPolicyCreateSSL(true, \"\(host)\")"
        case .ssl(nil): "SecPolicyCreateSSL(true, nil)"
        case .basicX509: "SecPolicyCreateBasicX509()"
        }
    }

    /// The command-line name: `ssl`, `ssl-no-host` or `basic`.
    public var identifier: String {
        switch self {
        case .ssl(let h): h == nil ? "ssl-no-host" : "ssl"
        case .basicX509: "basic"
        }
    }
}
