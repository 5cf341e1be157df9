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
