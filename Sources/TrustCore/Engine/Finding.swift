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

/// What a step found, as a value: a public struct over the finding type of the rule that made
/// it (each check owns one, beside the check, with its codes and text), as swift-certificates'
/// VerificationDiagnostic wraps its internal storage. Text is rendered only when someone reads
/// it, so evaluation builds none.
public struct Finding: Hashable, Sendable {
    /// The rule's own finding.
    let value: any RuleFinding

    init(_ value: some RuleFinding) { self.value = value }

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
    public var atsFailure: ATSFailure? { (value as? ATSFinding)?.failure }

    /// One line, no newline.
    public var title: String { value.title }

    /// The rule in plain words, citing its source.
    public var detail: String { value.detail }

    /// What this finding says beyond its title about the certificate at hand (the rule broken,
    /// the name that violates a constraint), for one-line listings; nil when the title says it all.
    public var specifics: String? { value.specifics }

    public static func == (a: Finding, b: Finding) -> Bool { a.value.isEqual(to: b.value) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: value)))
        value.hash(into: &hasher)
    }
}

/// A rule's finding type: one per check (or per engine step), holding the rule's codes and text,
/// so a new rule is one check file and its finding type.
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
}

extension RuleFinding {
    var specifics: String? { nil }

    func isEqual(to other: any RuleFinding) -> Bool { (other as? Self) == self }
}
