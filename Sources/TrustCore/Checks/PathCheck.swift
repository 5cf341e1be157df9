/// What every check sees: the built path and the settings.
struct CheckContext {
    let path: BuiltPath
    let settings: TrustSettings
    /// The evaluation's budget, for checks whose work grows with the input; it lives on the
    /// evaluation's stack for longer than any context.
    let meter: UnsafeMutablePointer<WorkMeter>
    var certificates: [Certificate] { path.certificates }
    var count: Int { path.certificates.count }
    var isSSL: Bool { settings.policy.isSSL }
    var webpki: Bool { settings.profile == .webpki }
    /// Whether the leaf is evaluated for TLS server authentication (the CA/Browser Forum
    /// subscriber-certificate rules apply only then).
    var serverAuth: Bool { (settings.requiredLeafPurpose ?? .serverAuth) == .serverAuth }

    /// The anchor class whose rules apply: the path's, or, for an unanchored path, the class
    /// it would have had (custom when custom anchors are set).
    var ruleClass: AnchorClass {
        path.anchorClass ?? (settings.anchors.isEmpty ? .system : .custom)
    }

    /// Whether certificate `i` is the trusted anchor that ends the path.
    func isAnchor(_ i: Int) -> Bool { path.isAnchored && i == count - 1 }

    /// Whether certificate `i` issued another certificate on this path.
    func isIssuer(_ i: Int) -> Bool { i > 0 }
}

/// One rule, producing steps for the certificates it applies to.
protocol PathCheck {
    static func run(_ context: CheckContext, into steps: inout [Step])
}
