import TrustReport
import TrustSupport

// The Detail pane's Watch section for a watched target: its rounds and its changes, newest
// first, each stamped with the time in UTC.
extension DetailContent {
    /// The most change lines the section lists; the history keeps more (it says how many).
    static let watchLineLimit = 100

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
        let lines = changeLines(watch)
        if lines.isEmpty {
            out.append(DetailLine(.text, h.rounds == 0 ? "first round under way" : "no change yet"))
        }
        for line in lines.prefix(watchLineLimit) { out.append(DetailLine(.text, line, indent: 2)) }
        let older = max(0, lines.count - watchLineLimit) + h.droppedChanges
        if older > 0 { out.append(DetailLine(.text, "and \(older) older changes", indent: 2)) }
        out.append(DetailLine(.text, ""))
        return out
    }

    /// One line per address and round, newest first: the time (UTC), the address, what changed
    /// (`new leaf (new key) 3f2a91… -> 9c1b07…`) and the verdict after it, sanitised.
    static func changeLines(_ watch: TargetWatch) -> [String] {
        var groups: [(time: Timestamp, address: String?, parts: [String], new: WatchOutcome?)] = []
        for (i, change) in watch.history.changes.enumerated() {
            var text = change.summaryText
            if watch.followsSettingsChange(i) { text += " (after a settings change)" }
            if let last = groups.last, last.time == change.time, last.address == change.address {
                groups[groups.count - 1].parts.append(text)
                groups[groups.count - 1].new = change.new ?? last.new
            } else {
                groups.append((change.time, change.address, [text], change.new))
            }
        }
        return groups.reversed().map { g in
            var line = g.time.rfc3339 + "  " + clean(InputExcerpt.quote(g.address ?? "(the name)")) + "  "
            line += g.parts.joined(separator: "; ")
            // The verdict after the change, unless a part already says it.
            if let summary = g.new?.summary, !g.parts.contains(where: { $0.hasPrefix("verdict ") }),
                !g.parts.contains(where: { $0.hasPrefix("first evaluation") || $0.hasPrefix("address appeared") })
            {
                line += "; now " + WatchChange.verdictText(summary)
            }
            return line
        }
    }
}
