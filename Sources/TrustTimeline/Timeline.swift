import TrustCore
import TrustSupport
import TrustX509

/// The instants at which an evaluation's verdict or code changes under its settings, found by
/// evaluating on both sides of every candidate boundary (`TimelineBoundaries`), not from prose
/// (D460). The evaluation time moves; everything else stays as the evaluation had it.
public struct Timeline: Sendable {
    /// One change: from `at` on, the verdict and code are these.
    public struct Entry: Hashable, Sendable {
        /// The first instant of the new state.
        public var at: Timestamp
        /// Whether the chain is trusted from then on.
        public var trusted: Bool
        /// The OSStatus from then on.
        public var osstatus: Int32
        /// Its name (errSecCertificateExpired).
        public var osstatusName: String
        /// The decisive step's id from then on; nil when trusted.
        public var decisiveStep: StepID?
        /// The boundaries at that instant: what changed.
        public var causes: [TimelineBoundary]

        /// The causes in words, each once, joined by `; `.
        public var cause: String {
            var seen = Set<String>()
            return causes.map(\.what).filter { seen.insert($0).inserted }.joined(separator: "; ")
        }
    }

    /// Bounds on the work of one timeline.
    public struct Limits: Hashable, Sendable {
        /// The most candidate boundaries evaluated (each costs two evaluations at most).
        public var boundaries: Int
        /// The most evaluations in all.
        public var evaluations: Int

        /// 64 boundaries, 160 evaluations: a chain of a few certificates has a dozen.
        public static let standard = Limits(boundaries: 64, evaluations: 160)

        /// Creates limits.
        public init(boundaries: Int, evaluations: Int) {
            self.boundaries = boundaries
            self.evaluations = evaluations
        }
    }

    /// The evaluation time the timeline was made around (the report's).
    public var time: Timestamp
    /// Whether the chain is trusted at `time`, by the timeline's own evaluation there.
    public var trustedNow: Bool
    /// The changes, oldest first: those before `time` too.
    public var entries: [Timeline.Entry]
    /// Every candidate boundary evaluated, in the order they were met.
    public var boundaries: [TimelineBoundary]
    /// How many evaluations were made.
    public var evaluations: Int
    /// Why the timeline stopped short, when it did: a limit ran out or the deadline passed; the
    /// changes found until then are kept.
    public var incomplete: String?

    /// The first change after `time` to a verdict that is not trusted, when the chain is
    /// trusted at `time`.
    public var nextFailure: Timeline.Entry? {
        guard trustedNow else { return nil }
        return entries.first { $0.at > time && !$0.trusted }
    }

    /// Whether the chain is trusted at `time` and not trusted at some instant within `days`
    /// days after it (`--expires-within DAYS`).
    public func failsWithin(days: Int) -> Timeline.Entry? {
        guard let next = nextFailure, next.at <= time.adding(seconds: Int64(days) * 86_400) else { return nil }
        return next
    }

    /// The verdict and code at an instant.
    struct State: Equatable {
        var trusted: Bool
        var osstatus: Int32
        var osstatusName: String
        var decisive: StepID?

        init(_ e: Evaluation) {
            trusted = e.verdict.trusted
            osstatus = e.verdict.osstatus
            osstatusName = e.verdict.osstatusName
            decisive = e.verdict.decisiveStep?.id
        }

        static func == (a: State, b: State) -> Bool { a.trusted == b.trusted && a.osstatus == b.osstatus }
    }

    /// The timeline of `evaluation`: its presented chain evaluated again at each side of every
    /// boundary, with `evaluator` (whose signature cache makes each evaluation after the first
    /// cheap). A path that appears at some instant adds its own certificates' boundaries.
    /// - Parameters:
    ///   - evaluation: The evaluation at the report's time, with its settings.
    ///   - evaluator: The evaluator to use.
    ///   - extra: Boundary sources besides the built-in ones.
    ///   - limits: Bounds on boundaries and evaluations.
    ///   - deadline: When to stop, whatever has been found; nil for none.
    public static func make(
        _ evaluation: Evaluation, evaluator: Evaluator = Evaluator(), extra: [any TimelineBoundarySource] = [],
        limits: Limits = .standard, deadline: EvaluationDeadline? = nil
    ) -> Timeline {
        var settings = evaluation.settings
        settings.timeMode = .fixed
        let time = settings.time
        var states: [Timestamp: State] = [:]
        var evaluations = 0
        var incomplete: String?
        func state(at t: Timestamp) -> (State, Evaluation)? {
            if let deadline, deadline.hasPassed {
                incomplete = incomplete ?? "the run's deadline passed"
                return nil
            }
            guard evaluations < limits.evaluations else {
                incomplete = incomplete ?? "stopped after \(limits.evaluations) evaluations"
                return nil
            }
            var s = settings
            s.time = t
            evaluations += 1
            guard let e = evaluator.evaluate(chain: evaluation.presented, settings: s, deadline: deadline) else {
                return nil
            }
            let st = State(e)
            states[t] = st
            return (st, e)
        }
        var boundaries: [TimelineBoundary] = []
        var known = Set<TimelineBoundary>()
        // The boundaries come from the path: each path's are collected once, however many
        // instants build it.
        var paths = Set<[Certificate]>()
        func add(_ e: Evaluation) {
            guard paths.insert(e.path.certificates).inserted else { return }
            for b in TimelineBoundaries.collect(e, extra: extra) where !known.contains(b) {
                guard boundaries.count < limits.boundaries else {
                    incomplete = incomplete ?? "stopped after \(limits.boundaries) boundaries"
                    return
                }
                known.insert(b)
                boundaries.append(b)
            }
        }
        let trustedNow: Bool
        if let (now, e) = state(at: time) {
            trustedNow = now.trusted
            add(e)
        } else {
            trustedNow = evaluation.verdict.trusted
        }
        // Nearest first, so that a limit that runs out leaves the far future unexplored.
        var next = 0
        while next < boundaries.count, incomplete == nil {
            let order = boundaries[next...].indices.min {
                distance(boundaries[$0].changesAt, time) < distance(boundaries[$1].changesAt, time)
            }!
            boundaries.swapAt(next, order)
            let b = boundaries[next]
            next += 1
            for t in [b.changesAt.adding(seconds: -1), b.changesAt] where states[t] == nil {
                guard let (_, e) = state(at: t) else { break }
                // A path that exists only at some instants brings its certificates' dates.
                add(e)
            }
        }
        return Timeline(
            time: time, trustedNow: trustedNow, entries: changes(states, boundaries), boundaries: boundaries,
            evaluations: evaluations, incomplete: incomplete)
    }

    static func distance(_ a: Timestamp, _ b: Timestamp) -> Int64 {
        // Certificate dates stay within years 0 to 9999: no overflow.
        abs(a.secondsSinceEpoch - b.secondsSinceEpoch)
    }

    /// The instants, in order, where the state differs from the one evaluated just before: the
    /// state is constant between two boundaries, so a change is at the later sample exactly.
    static func changes(_ states: [Timestamp: State], _ boundaries: [TimelineBoundary]) -> [Entry] {
        let instants = states.keys.sorted()
        var out: [Entry] = []
        for (before, at) in zip(instants, instants.dropFirst()) {
            let (a, b) = (states[before]!, states[at]!)
            guard a != b else { continue }
            var causes = boundaries.filter { $0.changesAt == at }
            if causes.isEmpty { causes = boundaries.filter { $0.changesAt.adding(seconds: -1) == at } }
            out.append(
                Entry(
                    at: at, trusted: b.trusted, osstatus: b.osstatus, osstatusName: b.osstatusName,
                    decisiveStep: b.decisive, causes: causes))
        }
        return out
    }
}
