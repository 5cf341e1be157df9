import ATSModel

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
        case systemPinning(SystemPinningFinding)
        case dateConstraint(DateConstraintFinding)

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
            case .systemPinning(let f): f
            case .dateConstraint(let f): f
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
