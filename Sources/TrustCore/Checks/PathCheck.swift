import TrustX509

/// What every check sees: the built path and the settings' inputs (time, host, revocation
/// information). Which rules apply is not read from here: each check is configured with its
/// rules when a policy is built (`PolicyBuilder`).
struct CheckContext {
    let path: BuiltPath
    let settings: TrustSettings
    /// The evaluator's signature cache, for the signatures of CRLs and OCSP responses.
    let cache: SignatureCache
    /// The extensions the policy's checks enforce, which makes a critical one understood; nil
    /// when they are `enforcedExtensions`, which each certificate was judged against when it was
    /// decoded (`Certificate.firstUnknownCriticalExtension`), so no evaluation hashes them again.
    let understoodExtensions: Set<OID>?
    /// The presented certificates besides the path, where a CRL's separate signer is found.
    var otherCertificates: [Certificate] = []
    var certificates: [Certificate] { path.certificates }
    var count: Int { path.certificates.count }

    /// Whether the leaf is evaluated for TLS server authentication (the purpose the settings
    /// require of it, serverAuth by default).
    var leafIsForServerAuth: Bool { (settings.requiredLeafPurpose ?? .serverAuth) == .serverAuth }

    /// The anchor class whose rules apply: the path's, or, for an unanchored path, system only
    /// when its last certificate is a system root (trustd asks whether the path's root is in the
    /// system anchor source, anchored or not); every other path gets the custom-anchor rules, as
    /// trustd's "all other trust" branch does (825 days, serverAuth EKU from July 2019).
    var ruleClass: AnchorClass {
        path.anchorClass ?? (path.sources.last == .systemStore ? .system : .custom)
    }

    /// Whether the path ends at a device-trusted anchor; the checks configured with Apple's
    /// exemptions for such anchors then relax their rule.
    var endsAtDeviceAnchor: Bool { path.anchorClass == .device }

    /// Whether the leaf is itself a device-trusted anchor (the path is the leaf alone).
    var leafIsDeviceAnchor: Bool { endsAtDeviceAnchor && count == 1 }

    /// Why a rule is skipped for a device-trusted anchor, as the step's reason.
    static func deviceAnchorReason(_ rule: String) -> StepStatus { .skipped("device-trusted anchor: \(rule)") }

    /// Whether certificate `i` is the trusted anchor that ends the path.
    func isAnchor(_ i: Int) -> Bool { path.isAnchored && i == count - 1 }

    /// Whether certificate `i` issued another certificate on this path.
    func isIssuer(_ i: Int) -> Bool { i > 0 }
}

/// One rule, configured when its policy is built, producing steps for the certificates it
/// applies to. Work that grows with the input is charged to `budget`, the evaluation's own.
protocol PathCheck: Sendable {
    /// The extensions whose meaning this check enforces: a critical extension is understood
    /// only when some check of the policy enforces it (RFC 5280 4.2), so decoding one is not
    /// enough.
    var enforcedExtensions: Set<OID> { get }
    /// Appends this check's steps for the path in `context`.
    func run(_ context: CheckContext, budget: inout WorkMeter, into steps: inout [Step])
}

extension PathCheck {
    var enforcedExtensions: Set<OID> { [] }
}

/// Every extension some check of any policy enforces: what "understood" means for a critical
/// extension where no policy is at hand (certificate decoding and display). Each policy's
/// `critical-extensions` step uses its own checks' union, which is this set for every policy
/// built today (each holds every kind of check).
let enforcedExtensions: Set<OID> = PolicyBuilder.every.reduce(into: []) {
    $0.formUnion($1.build().understoodExtensions)
}
