import TrustReport
import TrustSupport

// The Detail pane's Watch section for a watched target: its rounds and its changes, newest
// first, each stamped with the time in UTC.
extension DetailContent {
    /// The most change lines the section lists; the history keeps more (it says how many).
    /// The pane is drawn after every round and key, so only the lines shown are made.
    static let watchLineLimit = 50

    /// The Watch section of the selected target, empty when it is not watched.
    static func watchLines(_ s: AppState) -> [DetailLine] {
        guard let watch = s.watches[s.selectedTarget] else { return [] }
        let h = watch.history
        let every = s.watchInterval.components.seconds
        var out: [DetailLine] = []
        let rounds = h.rounds == 1 ? "1 round" : "\(h.rounds) rounds"
        let state =
            !watch.isActive ? "stopped (l goes on)" : watch.inFlight ? "connecting... (l stops)" : "l stops"
        out.append(DetailLine(.heading, "Watch: every \(every) s, \(rounds), \(state)"))
        let (lines, unlisted) = changeLines(watch, limit: watchLineLimit)
        if lines.isEmpty {
            out.append(DetailLine(.text, h.rounds == 0 ? "first round under way" : "no change yet"))
        }
        for line in lines { out.append(DetailLine(.text, line, indent: 2)) }
        let older = unlisted + h.droppedChanges
        if older > 0 { out.append(DetailLine(.text, "and \(older) older changes", indent: 2)) }
        out.append(DetailLine(.text, ""))
        return out
    }

    /// At most `limit` lines, one per address and round, newest first: the time (UTC), the
    /// address, what changed (`new leaf (new key) 3f2a91… -> 9c1b07…`) and the verdict after it,
    /// sanitised; and how many older changes they leave out.
    static func changeLines(_ watch: TargetWatch, limit: Int) -> (lines: [String], unlisted: Int) {
        let changes = watch.history.changes
        // Newest first; the changes of one line were found together, so they are adjacent.
        var groups: [(time: Timestamp, address: String?, indices: [Int])] = []
        var next = changes.count - 1
        while next >= 0 {
            let c = changes[next]
            if let last = groups.last, last.time == c.time, last.address == c.address {
                groups[groups.count - 1].indices.insert(next, at: 0)
            } else {
                if groups.count == limit { break }
                groups.append((c.time, c.address, [next]))
            }
            next -= 1
        }
        let lines = groups.map { g -> String in
            var parts: [String] = []
            for i in g.indices {
                parts.append(
                    changes[i].summaryText + (watch.followsSettingsChange(i) ? " (after a settings change)" : ""))
            }
            var line = g.time.rfc3339 + "  " + clean(InputExcerpt.quote(g.address ?? "(the name)")) + "  "
            line += parts.joined(separator: "; ")
            let kinds = g.indices.map { changes[$0].kind }
            // The verdict after the change, unless a part already says it.
            if let summary = g.indices.compactMap({ changes[$0].new }).last?.summary,
                !kinds.contains(where: { [.verdictFlipped, .firstEvaluation, .addressAppeared].contains($0) })
            {
                line += "; now " + WatchChange.verdictText(summary)
            }
            return line
        }
        return (lines, next + 1)
    }
}
