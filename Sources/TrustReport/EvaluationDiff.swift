import TrustCore

/// What a settings change did to an evaluation: the explorer highlights it after every toggle.
public struct EvaluationDiff: Sendable {
    /// One step whose outcome differs between two evaluations.
    public struct Change: Sendable {
        /// The step id.
        public var id: StepID
        /// The certificate index, or nil for a path-level step.
        public var certificate: Int?
        /// The step before, nil when it did not exist.
        public var before: Step?
        /// The step after, nil when it no longer exists.
        public var after: Step?

        /// One line: `hostname@0: passed -> failed`; when only the finding changed,
        /// `hostname@0: skipped (Basic X.509 does not check host names)`.
        public var summary: String {
            let where_ = certificate.map { "@\($0)" } ?? ""
            if let before, let after, before.status.identifier == after.status.identifier {
                if case .skipped(let why) = after.status { return "\(id.rawValue)\(where_): skipped (\(why))" }
                return "\(id.rawValue)\(where_): \(after.status.identifier), \(after.title)"
            }
            let from = before?.status.identifier ?? "absent"
            let to = after?.status.identifier ?? "absent"
            return "\(id.rawValue)\(where_): \(from) -> \(to)"
        }
    }

    /// Steps whose status or finding changed, were added or disappeared, in the new order.
    public var changes: [Change]
    /// Whether the built path changed (other certificates, or another anchor).
    public var pathChanged: Bool
    /// The verdicts before and after, when they differ.
    public var verdict: (before: Verdict, after: Verdict)?

    /// Whether nothing visible changed.
    public var isEmpty: Bool { changes.isEmpty && !pathChanged && verdict == nil }

    /// Compares `new` with `old`. Steps are matched by id, certificate and position among the
    /// steps with the same id and certificate, so several compliance findings on one
    /// certificate stay distinct.
    public init(from old: Evaluation, to new: Evaluation) {
        struct Key: Hashable {
            var id: StepID
            var certificate: Int?
            var ordinal: Int
        }
        func keyed(_ steps: [Step]) -> [(Key, Step)] {
            var seen: [Key: Int] = [:]
            return steps.map { step in
                var key = Key(id: step.id, certificate: step.certificate, ordinal: 0)
                key.ordinal = seen[key, default: 0]
                seen[Key(id: step.id, certificate: step.certificate, ordinal: 0), default: 0] += 1
                return (key, step)
            }
        }
        // When the path changed, certificate indices mean other certificates: compare anyway
        // (the index is what the explorer shows), and say that the path changed.
        let before = Dictionary(keyed(old.steps), uniquingKeysWith: { a, _ in a })
        let afterList = keyed(new.steps)
        let afterKeys = Set(afterList.map(\.0))
        var changes: [Change] = []
        for (key, step) in afterList {
            let prior = before[key]
            if prior == nil || prior!.status != step.status || prior!.finding != step.finding {
                changes.append(Change(id: key.id, certificate: key.certificate, before: prior, after: step))
            }
        }
        for (key, step) in keyed(old.steps) where !afterKeys.contains(key) {
            changes.append(Change(id: key.id, certificate: key.certificate, before: step, after: nil))
        }
        self.changes = changes
        self.pathChanged =
            old.path.certificates.map(\.identity) != new.path.certificates.map(\.identity)
            || old.path.anchorClass != new.path.anchorClass
        let sameVerdict =
            old.verdict.trusted == new.verdict.trusted && old.verdict.osstatus == new.verdict.osstatus
            && old.verdict.urlError == new.verdict.urlError
        self.verdict = sameVerdict ? nil : (old.verdict, new.verdict)
    }
}
