/// The stable identifiers of evaluation steps (docs/steps.md describes each).
public enum StepID: String, Hashable, Sendable, CaseIterable {
    case chain
    case signature
    case validity
    case basicConstraints = "basic-constraints"
    case keyUsage = "key-usage"
    case extendedKeyUsage = "extended-key-usage"
    case nameConstraints = "name-constraints"
    case certificatePolicies = "certificate-policies"
    case criticalExtensions = "critical-extensions"
    case compliance
    case anchor
    case hostname
    case keySize = "key-size"
    case signatureAlgorithm = "signature-algorithm"
    case validityPeriodMaximum = "validity-period-maximum"
    case certificateTransparency = "certificate-transparency"
    case revocation
    case pin
    case budget
    case atsTLSVersion = "ats-tls-version"
    case atsCipher = "ats-cipher"
    case atsForwardSecrecy = "ats-forward-secrecy"
    case atsKeySize = "ats-key-size"
    case atsSignatureHash = "ats-signature-hash"
    case pinnedDomains = "pinned-domains"
}

/// How one step came out.
public enum StepStatus: Hashable, Sendable {
    /// The rule holds.
    case passed
    /// The rule is broken.
    case failed
    /// The rule was not checked in this configuration; the text says why.
    case skipped(String)
    /// The rule does not apply to this certificate.
    case notApplicable

    /// `passed`, `failed`, `skipped` or `not-applicable`.
    public var identifier: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .skipped: "skipped"
        case .notApplicable: "not-applicable"
        }
    }
}

/// Apple's result subtypes, in SecTrust.c's priority order (highest first).
public enum FailureClass: Int, Hashable, Sendable, Comparable {
    case blocked = 11, revoked = 10, keySize = 9, weakHash = 8, denied = 7, compliance = 6
    case pinning = 5, trust = 4, usage = 3, name = 2, expired = 1, invalid = 0

    /// Orders by priority: a higher class wins.
    public static func < (a: FailureClass, b: FailureClass) -> Bool { a.rawValue < b.rawValue }

    /// Apple's name for the subtype.
    public var name: String {
        switch self {
        case .blocked: "Blocked"
        case .revoked: "Revoked"
        case .keySize: "KeySize"
        case .weakHash: "WeakHash"
        case .denied: "Denied"
        case .compliance: "Compliance"
        case .pinning: "Pinning"
        case .trust: "Trust"
        case .usage: "Usage"
        case .name: "Name"
        case .expired: "Expired"
        case .invalid: "Invalid"
        }
    }
}

/// What Apple's trustd records when a check fails: the check key, its subtype and OSStatus.
public struct AppleFailure: Hashable, Sendable {
    /// The SecPolicyChecks.list key, e.g. `SSLHostname`.
    public var check: String
    /// The subtype that decides priority.
    public var subtype: FailureClass
    /// The OSStatus this failure maps to.
    public var osstatus: Int32
    /// Whether the check is in result class F (SecTrustResultType.fatalTrustFailure).
    public var fatal: Bool

    init(_ check: String, _ subtype: FailureClass, _ osstatus: Int32, fatal: Bool = false) {
        self.check = check
        self.subtype = subtype
        self.osstatus = osstatus
        self.fatal = fatal
    }
}

/// One check on one certificate (or on the whole path when `certificate` is nil).
public struct Step: Hashable, Sendable {
    /// The stable step id.
    public var id: StepID
    /// Index into the built path (0 = leaf), or nil for a path-level step.
    public var certificate: Int?
    /// The outcome.
    public var status: StepStatus
    /// What was found; `title` and `detail` are rendered from it on demand, so evaluation
    /// builds no text.
    public var finding: Finding

    /// Creates a step.
    public init(_ id: StepID, _ certificate: Int?, _ status: StepStatus, _ finding: Finding) {
        self.id = id
        self.certificate = certificate
        self.status = status
        self.finding = finding
    }

    /// Creates a step with a rule's own finding.
    init(_ id: StepID, _ certificate: Int?, _ status: StepStatus, _ finding: some RuleFinding) {
        self.init(id, certificate, status, Finding(finding))
    }

    /// Apple's check key, subtype and OSStatus, when the step failed and Apple reports it.
    public var appleFailure: AppleFailure? { status == .failed ? finding.appleFailure : nil }

    /// The OSStatus, when failed.
    public var osstatus: Int32? { appleFailure?.osstatus }

    /// A one-line title (no newline).
    public var title: String { finding.title }

    /// The rule in plain words with its source.
    public var detail: String { finding.detail }
}
