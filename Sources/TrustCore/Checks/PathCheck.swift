import TrustX509

/// What every check sees: the built path and the settings.
struct CheckContext {
    let path: BuiltPath
    let settings: TrustSettings
    /// The evaluation's budget, for checks whose work grows with the input; it lives on the
    /// evaluation's stack for longer than any context.
    let meter: UnsafeMutablePointer<WorkMeter>
    /// The evaluator's signature cache, for the signatures of CRLs and OCSP responses.
    let cache: SignatureCache
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

    /// The anchor class whose rules apply: the path's, or, for an unanchored path, system only
    /// when its last certificate is a system root (trustd asks whether the path's root is in the
    /// system anchor source, anchored or not); every other path gets the custom-anchor rules, as
    /// trustd's "all other trust" branch does (825 days, serverAuth EKU from July 2019).
    var ruleClass: AnchorClass {
        path.anchorClass ?? (path.sources.last == .systemStore ? .system : .custom)
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
protocol PathCheck: Sendable {
    /// The extensions whose meaning this check enforces: a critical extension is understood
    /// only when some check enforces it (RFC 5280 4.2), so decoding one is not enough.
    static var enforcedExtensions: Set<OID> { get }
    static func run(_ context: CheckContext, into steps: inout [Step])
}

/// The checks in the order the evaluator runs them, which is the order of their steps.
let pathChecks: [any PathCheck.Type] = [
    ChainCheck.self,
    ValidityCheck.self,
    BasicConstraintsCheck.self,
    KeyUsageCheck.self,
    ExtendedKeyUsageCheck.self,
    NameConstraintsCheck.self,
    CertificatePoliciesCheck.self,
    ExtensionsCheck.self,
    HostnameCheck.self,
    KeySizeCheck.self,
    SignatureAlgorithmCheck.self,
    ValidityPeriodCheck.self,
    CertificateTransparencyCheck.self,
    RevocationCheck.self,
    PinnedDomainsCheck.self,
]

/// Every extension some check enforces: what "understood" means for a critical extension.
/// Derived once from the table, so certificates decode against it without per-evaluation work.
let enforcedExtensions: Set<OID> = pathChecks.reduce(into: []) { $0.formUnion($1.enforcedExtensions) }

extension HostnameCheck {
    /// The names the hostname is matched against (and name constraints also read).
    static let enforcedExtensions: Set<OID> = [.subjectAltName]
}
