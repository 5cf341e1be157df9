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

    /// Whether the path ends at a device-trusted anchor and Apple's rules apply: trustd then skips
    /// the strict serverAuth rule and does not judge that anchor's own signature hash.
    var deviceAnchored: Bool { path.anchorClass == .device && !webpki }

    /// Whether the leaf is itself a device-trusted anchor (the path is the leaf alone): trustd then
    /// also skips the SSL key-size minimum and the lifetime maximum.
    var leafIsDeviceAnchor: Bool { deviceAnchored && count == 1 }

    /// Why a rule is skipped for a device-trusted anchor, as the step's reason.
    static func deviceAnchorReason(_ rule: String) -> StepStatus { .skipped("device-trusted anchor: \(rule)") }

    /// Whether certificate `i` is the trusted anchor that ends the path.
    func isAnchor(_ i: Int) -> Bool { path.isAnchored && i == count - 1 }

    /// Whether certificate `i` issued another certificate on this path.
    func isIssuer(_ i: Int) -> Bool { i > 0 }
}

/// One rule, producing steps for the certificates it applies to.
protocol PathCheck {
    static func run(_ context: CheckContext, into steps: inout [Step])
}
