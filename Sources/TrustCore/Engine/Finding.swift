import TrustSupport

/// Which class of anchor a path ends at; Apple's requirements differ by class.
public enum AnchorClass: String, Hashable, Sendable {
    /// A root of the system trust store.
    case system
    /// A custom anchor the app set (SecTrustSetAnchorCertificates): `CustomAnchorClass.app`.
    case custom
    /// A custom anchor the device trusts: installed by a configuration profile and trusted in
    /// Settings (trustd's user anchor source): `CustomAnchorClass.device`. Apple relaxes the
    /// serverAuth, lifetime-maximum, key-size and signature-hash rules for it (docs/steps.md).
    case device

    /// `a system root`, `a custom anchor`, `a device-trusted anchor`.
    public var phrase: String {
        switch self {
        case .system: "a system root"
        case .custom: "a custom anchor"
        case .device: "a device-trusted anchor"
        }
    }
}

/// What a step found, as a value: a public struct over the finding of the rule that made it
/// (each check owns one, beside the check, with its codes and text), as swift-certificates'
/// VerificationDiagnostic wraps its internal storage. Text is rendered only when someone reads
/// it, so evaluation builds none.
public struct Finding: Hashable, Sendable {
    /// One case per rule's finding type. An enum rather than `any RuleFinding`: a step is made,
    /// copied and destroyed without a call through a witness table or an allocation, which kept
    /// re-evaluation within its budget (D127).
    enum Storage: Hashable, Sendable {
        case chain(ChainFinding)
        case validity(ValidityFinding)
        case basicConstraints(BasicConstraintsFinding)
        case keyUsage(KeyUsageFinding)
        case extendedKeyUsage(ExtendedKeyUsageFinding)
        case nameConstraints(NameConstraintsFinding)
        case certificatePolicies(CertificatePoliciesFinding)
        case extensions(ExtensionsFinding)
        case compliance(ComplianceFinding)
        case hostname(HostnameFinding)
        case keySize(KeySizeFinding)
        case signatureAlgorithm(SignatureAlgorithmFinding)
        case validityPeriod(ValidityPeriodFinding)
        case certificateTransparency(CertificateTransparencyFinding)
        case revocation(RevocationFinding)
        case pin(PinFinding)
        case budget(BudgetFinding)
        case ats(ATSFinding)
        case pinnedDomains(PinnedDomainsFinding)

        /// The rule's finding.
        var value: any RuleFinding {
            switch self {
            case .chain(let f): f
            case .validity(let f): f
            case .basicConstraints(let f): f
            case .keyUsage(let f): f
            case .extendedKeyUsage(let f): f
            case .nameConstraints(let f): f
            case .certificatePolicies(let f): f
            case .extensions(let f): f
            case .compliance(let f): f
            case .hostname(let f): f
            case .keySize(let f): f
            case .signatureAlgorithm(let f): f
            case .validityPeriod(let f): f
            case .certificateTransparency(let f): f
            case .revocation(let f): f
            case .pin(let f): f
            case .budget(let f): f
            case .ats(let f): f
            case .pinnedDomains(let f): f
            }
        }
    }

    /// The rule's own finding.
    let storage: Storage

    init(_ value: some RuleFinding) { self.storage = value.storage }

    /// The rule's own finding, as its type.
    var value: any RuleFinding { storage.value }

    /// An ATS step's finding.
    static func ats(_ finding: ATSFinding) -> Finding { Finding(finding) }

    /// A `pinned-domains` step's finding.
    static func pinnedDomains(_ finding: PinnedDomainsFinding) -> Finding { Finding(finding) }

    /// The rule's finding when it is of type `F`, else nil.
    func `as`<F: RuleFinding>(_ type: F.Type) -> F? { value as? F }

    /// Apple's check key, subtype and OSStatus for failing findings.
    public var appleFailure: AppleFailure? { value.appleFailure }

    /// The TLS layer's ATS failure (code and phase), when this is a failing ATS finding; ATS
    /// failures are not SecTrust results, so `appleFailure` is nil for them.
    public var atsFailure: ATSFailure? {
        if case .ats(let f) = storage { return f.failure }
        return nil
    }

    /// One line, no newline.
    public var title: String { value.title }

    /// The rule in plain words, citing its source.
    public var detail: String { value.detail }

    /// What this finding says beyond its title about the certificate at hand (the rule broken,
    /// the name that violates a constraint), for one-line listings; nil when the title says it all.
    public var specifics: String? { value.specifics }
}

/// A rule's finding type: one per check (or per engine step), holding the rule's codes and text,
/// so a new rule is one check file and its finding type, plus its case in `Finding.Storage`.
protocol RuleFinding: Hashable, Sendable {
    /// Apple's check key, subtype and OSStatus, for a finding that fails the step; nil when Apple
    /// reports none.
    var appleFailure: AppleFailure? { get }
    /// One line, no newline.
    var title: String { get }
    /// The rule in plain words, citing its source.
    var detail: String { get }
    /// What the finding says beyond its title, for one-line listings; nil by default.
    var specifics: String? { get }
    /// This finding as `Finding` stores it: its own case of `Finding.Storage`.
    var storage: Finding.Storage { get }
}

extension RuleFinding {
    var specifics: String? { nil }
}
