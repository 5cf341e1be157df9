import TrustCore
import TrustReport

/// The outcome of one evaluation or connection, compared before and after a toggle.
public enum Outcome: Hashable, Sendable, CustomStringConvertible {
    /// Trusted.
    case trusted
    /// Rejected by evaluation (OSStatus, 0 when only the pin failed) with a URLError.
    case rejected(osstatus: Int32, urlError: Int?)
    /// No chain to evaluate: the connection failed with this URLError.
    case noConnection(urlError: Int?)

    /// The outcome of an evaluation.
    init(_ verdict: Verdict) {
        self = verdict.trusted ? .trusted : .rejected(osstatus: verdict.osstatus, urlError: verdict.urlError)
    }

    /// `trusted`, `-67602, URLError -1202`, `pin failed, URLError -999` or `no connection, URLError
    /// -1200`: every code, as short as the change line needs.
    public var description: String {
        switch self {
        case .trusted: return "trusted"
        case .rejected(let status, let url):
            // OSStatus 0 with a rejection: evaluation passed and the app's pin check cancelled,
            // or the handshake failed after the chain was trusted.
            let head = status == 0 ? "errSecSuccess but rejected" : "\(status)"
            return head + (url.map { ", URLError \($0)" } ?? "")
        case .noConnection(let url):
            return "no connection" + (url.map { ", URLError \($0)" } ?? "")
        }
    }

    /// The outcome in words with Apple's names, for the prompt's preview.
    public var words: String {
        switch self {
        case .trusted: return "trusted (errSecSuccess)"
        case .rejected(let status, let url):
            var text = "not trusted, \(OSStatusNames.name(status)) (\(status))"
            if let url { text += ", URLError \(url) \(URLErrorNames.name(url))" }
            return text
        case .noConnection(let url):
            return "no connection" + (url.map { ", URLError \($0) \(URLErrorNames.name($0))" } ?? "")
        }
    }
}

extension String {
    func trimmingTrailingSpace() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// What the last toggle changed: the one-line summary under the verdict and the steps to
/// highlight.
public struct ChangeSummary: Sendable {
    /// What was toggled, e.g. `policy -> Basic X.509`.
    public var cause: String
    /// The changes, e.g. `hostname@0: failed -> skipped; verdict: -67602 -> trusted`, or
    /// `no visible change`.
    public var text: String
    /// Indices into the new evaluation's steps whose outcome changed.
    public var changedSteps: Set<Int>
    /// Whether the built path changed.
    public var pathChanged: Bool

    /// The whole line: cause, then changes.
    public var line: String { cause.isEmpty ? text : "\(cause): \(text)" }

    /// Compares two evaluations of the same target.
    /// - Parameters:
    ///   - cause: What was toggled.
    ///   - old: The evaluation before.
    ///   - new: The evaluation after.
    ///   - oldOutcome: The outcome before (differs from `old`'s verdict after a failed handshake).
    ///   - newOutcome: The outcome after.
    init(cause: String, from old: Evaluation, to new: Evaluation, oldOutcome: Outcome, newOutcome: Outcome) {
        let diff = EvaluationDiff(from: old, to: new)
        // The verdict first: on a narrow terminal the line is cut at the right.
        var parts: [String] = []
        if oldOutcome != newOutcome { parts.append("verdict: \(oldOutcome) -> \(newOutcome)") }
        parts += diff.changes.map(\.summary)
        if diff.pathChanged { parts.append("path changed") }
        self.cause = cause
        self.text = parts.isEmpty ? "no visible change" : parts.joined(separator: "; ")
        var changed = Set<Int>()
        for change in diff.changes {
            guard let after = change.after else { continue }
            if let i = new.steps.indices.first(where: { new.steps[$0] == after && !changed.contains($0) }) {
                changed.insert(i)
            }
        }
        self.changedSteps = changed
        self.pathChanged = diff.pathChanged
    }

    /// A change between outcomes when one side has no evaluation (a failed connection).
    init(cause: String, from old: Outcome, to new: Outcome) {
        self.cause = cause
        self.text = old == new ? "no visible change" : "verdict: \(old) -> \(new)"
        self.changedSteps = []
        self.pathChanged = false
    }
}
