import TrustSupport

/// One watched target over time: folds each round's observations (one per address) into the
/// changes since the previous round.
///
/// Memory stays bounded however long the watch runs: the history keeps the last observation of
/// each address of the latest round (at most `maximumAddresses`), the last evaluation of each
/// (to compare with after a failure), and the most recent `changeLimit` changes.
public struct WatchHistory: Sendable {
    /// The most changes kept when none is given.
    public static let defaultChangeLimit = 200
    /// The most addresses of one target a round may bring; observations past it are left out.
    /// As many as one run may check (`--connect-to` lists come to at most 1,000 checks), so
    /// every address a round checks is watched (D324).
    public static let maximumAddresses = 1000

    /// What the history remembers of one address.
    struct AddressState: Sendable {
        var last: WatchObservation
        /// The last evaluation, kept through failures so that a recovery is compared with it.
        var lastSummary: WatchSummary?
    }

    /// The target as the user named it.
    public let target: String
    /// The most changes `changes` keeps.
    public let changeLimit: Int
    /// How many rounds have been folded.
    public private(set) var rounds = 0
    /// The most recent changes, oldest first, at most `changeLimit`.
    public private(set) var changes: [WatchChange] = []
    /// How many older changes were let go to keep `changes` within its limit.
    public private(set) var droppedChanges = 0

    /// The known addresses in the order the latest round gave them; nil stands for the target
    /// as a whole when its name did not resolve.
    private var order: [String?] = []
    private var states: [String?: AddressState] = [:]

    /// An empty history.
    /// - Parameters:
    ///   - target: The target as named.
    ///   - changeLimit: The most changes to keep (at least 1).
    public init(target: String, changeLimit: Int = WatchHistory.defaultChangeLimit) {
        self.target = target
        self.changeLimit = max(1, changeLimit)
    }

    /// The last observation of every known address, in the latest round's order.
    public var latest: [WatchObservation] { order.compactMap { states[$0]?.last } }

    /// The last observation of one address (nil: the target as a whole).
    public func lastObservation(address: String?) -> WatchObservation? { states[address]?.last }

    /// Folds one round into the history.
    ///
    /// A round whose observations all lack an address (the name did not resolve) is a failure
    /// of the target as a whole: the addresses seen before are kept, not reported gone, and are
    /// compared again once the name resolves.
    /// - Parameters:
    ///   - round: The round's observations of this target, one per address (a repeated address
    ///     counts once, the first).
    ///   - time: When the round ran; the time of an address that is gone.
    /// - Returns: The changes of this round, in the round's order, gone addresses last.
    @discardableResult
    public mutating func fold(_ round: [WatchObservation], at time: Timestamp) -> [WatchChange] {
        var seen = Set<String?>()
        var observations: [WatchObservation] = []
        for o in round where seen.insert(o.address).inserted {
            observations.append(o)
            if observations.count == Self.maximumAddresses { break }
        }
        let first = rounds == 0
        rounds += 1
        var found: [WatchChange] = []
        let addressed = observations.contains { $0.address != nil }
        if !addressed && !first && !observations.isEmpty {
            // Only the target-wide entry changes; what the addresses were is kept.
            let o = observations[0]
            if let change = compare(states[nil], o, first: false) { found += change }
            states[nil] = AddressState(last: o, lastSummary: o.outcome.summary ?? states[nil]?.lastSummary)
            if !order.contains(nil) { order.append(nil) }
            record(found)
            return found
        }
        if addressed, let whole = states[nil], case .failed = whole.last.outcome {
            found.append(
                WatchChange(
                    time: observations.first { $0.address != nil }?.time ?? time, target: target, address: nil,
                    kind: .recovered, old: whole.last.outcome, new: nil))
        }
        if addressed { states[nil] = nil }
        for o in observations {
            found += compare(states[o.address], o, first: first) ?? []
            states[o.address] = AddressState(
                last: o, lastSummary: o.outcome.summary ?? states[o.address]?.lastSummary)
        }
        for key in order where !seen.contains(key) {
            guard let address = key, let gone = states[address] else { continue }
            found.append(
                WatchChange(
                    time: time, target: target, address: address, kind: .addressGone, old: gone.last.outcome,
                    new: nil))
            states[address] = nil
        }
        order = addressed || first ? observations.map(\.address) : order.filter { states[$0] != nil }
        record(found)
        return found
    }

    /// The changes from an address's previous state to `o`; nil when nothing changed.
    private func compare(_ previous: AddressState?, _ o: WatchObservation, first: Bool) -> [WatchChange]? {
        func change(_ kind: WatchChangeKind, old: WatchOutcome?, new: WatchOutcome?) -> WatchChange {
            WatchChange(time: o.time, target: target, address: o.address, kind: kind, old: old, new: new)
        }
        guard let previous else {
            if first {
                let kind: WatchChangeKind = o.outcome.summary == nil ? .failure : .firstEvaluation
                return [change(kind, old: nil, new: o.outcome)]
            }
            // A target-wide failure with nothing before it is a failure, not an address.
            return [change(o.address == nil ? .failure : .addressAppeared, old: nil, new: o.outcome)]
        }
        var out: [WatchChange] = []
        switch (previous.last.outcome, o.outcome) {
        case (.failed(let before), .failed(let now)):
            if before != now { out.append(change(.failure, old: previous.last.outcome, new: o.outcome)) }
        case (.evaluated, .failed):
            out.append(change(.failure, old: previous.last.outcome, new: o.outcome))
        case (.failed, .evaluated(let now)):
            out.append(change(.recovered, old: previous.last.outcome, new: o.outcome))
            if let before = previous.lastSummary {
                out += Self.differences(before, now).map { change($0, old: .evaluated(before), new: o.outcome) }
            }
        case (.evaluated(let before), .evaluated(let now)):
            out += Self.differences(before, now).map { change($0, old: previous.last.outcome, new: o.outcome) }
        }
        return out.isEmpty ? nil : out
    }

    /// What differs between two evaluations of one address: the leaf (and whether its key
    /// stayed), else the certificates after it, then the verdict.
    public static func differences(_ before: WatchSummary, _ now: WatchSummary) -> [WatchChangeKind] {
        var kinds: [WatchChangeKind] = []
        if before.leafSHA256 != now.leafSHA256 {
            let sameKey = !now.leafSPKISHA256.isEmpty && before.leafSPKISHA256 == now.leafSPKISHA256
            kinds.append(sameKey ? .newLeafSameKey : .newLeafNewKey)
        } else if before.chainSHA256 != now.chainSHA256 {
            kinds.append(.newChain)
        }
        if !before.sameVerdict(as: now) {
            kinds.append(.verdictFlipped)
        } else if now.trusted && now.failsFrom != nil && before.failsFrom == nil {
            kinds.append(.expiresSoon)
        }
        return kinds
    }

    private mutating func record(_ found: [WatchChange]) {
        changes += found
        let excess = changes.count - changeLimit
        if excess > 0 {
            changes.removeFirst(excess)
            droppedChanges += excess
        }
    }
}
