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
