import TrustX509

/// The same chain under two system stores side by side (Apple's and this machine's), and the
/// root that makes the difference when they disagree: the report's "trusted by" line.
public struct StoreComparison: Sendable {
    /// One store's answer.
    public struct Side: Sendable {
        /// The store's name (`apple`, `openssl`, a path) and version.
        public var storeName: String
        public var storeVersion: String
        /// Whether the chain is trusted with this store as the system roots.
        public var trusted: Bool
        /// The system root the path ends at with this store, if it ends at one.
        public var systemRoot: Certificate?
    }

    /// Apple's store first, then this machine's.
    public var sides: [Side]
    /// Why the stores were not compared (no sides then): the run's deadline or the evaluation's
    /// budget ran out before the comparison ended, and a store's answer under a spent budget
    /// would not be that store's (D326).
    public var skipped: String?

    /// The root only one store anchors the chain at (the first side's when both do, at different
    /// roots), or nil when the stores anchor it alike.
    public var differingRoot: Certificate? {
        guard sides.count == 2 else { return nil }
        let (a, b) = (sides[0].systemRoot, sides[1].systemRoot)
        if a?.sha256 == b?.sha256 { return nil }
        return a ?? b
    }

    /// The stores that anchor the chain at `differingRoot`.
    public var storesWithDifferingRoot: [String] {
        guard let root = differingRoot else { return [] }
        return sides.filter { $0.systemRoot?.sha256 == root.sha256 }.map(\.storeName)
    }

    /// Evaluates `e`'s presented chain again under each store of `stores` whose name differs
    /// from the evaluated one, reusing `e` for the store it was evaluated with. Nil when the
    /// settings do not trust system roots (custom anchors only): no store changes the answer.
    public static func compare(
        _ e: Evaluation, stores: [any IssuerSource], evaluator: Evaluator, deadline: EvaluationDeadline? = nil
    ) -> StoreComparison? {
        guard e.settings.trustsSystemAnchors else { return nil }
        let current = e.settings.systemStore?.storeName
        var sides: [Side] = []
        for store in stores {
            var evaluation = e
            if store.storeName != current {
                if deadline?.hasPassed == true { return skipped(deadline) }
                var settings = e.settings
                settings.systemStore = store
                guard let again = evaluator.evaluate(chain: e.presented, settings: settings, deadline: deadline)
                else { return nil }
                if again.steps.contains(where: { $0.id == .budget }) { return skipped(deadline) }
                evaluation = again
            }
            let root = evaluation.path.anchorClass == .system ? evaluation.path.certificates.last : nil
            sides.append(
                Side(
                    storeName: store.storeName, storeVersion: store.storeVersion,
                    trusted: evaluation.verdict.trusted, systemRoot: root))
        }
        return StoreComparison(sides: sides)
    }

    /// A comparison that did not happen, and why.
    static func skipped(_ deadline: EvaluationDeadline?) -> StoreComparison {
        let why =
            deadline?.hasPassed == true
            ? "not compared: the run's deadline (\(deadline!.allowance)) came first"
            : "not compared: the evaluation's budget ran out"
        return StoreComparison(sides: [], skipped: why)
    }
}
