/// What every check sees: the built path and the settings.
struct CheckContext {
    let path: BuiltPath
    let settings: TrustSettings
    var certificates: [Certificate] { path.certificates }
    var count: Int { path.certificates.count }
    var isSSL: Bool { settings.policy.isSSL }
    var webpki: Bool { settings.profile == .webpki }
    /// Whether the CA/Browser Forum Baseline Requirements apply beside RFC 5280 (`webpki` only).
    var caBrowserForum: Bool { webpki && settings.caBrowserForumRules }

    /// Whether the CA/Browser Forum subscriber-certificate rules apply to the leaf: it is
    /// evaluated for TLS server authentication and the settings ask for those rules.
    var serverAuth: Bool {
        settings.caBrowserForumRules && (settings.requiredLeafPurpose ?? .serverAuth) == .serverAuth
    }

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
