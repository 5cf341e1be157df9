import ExplorerState
import TermUI
import TrustCore

// The settings line (each setting with its key) and the change line.
extension Renderer {
    /// The settings, each with its key; on a narrow terminal an item takes its shorter form,
    /// and the settings from the first that does not fit on are left out: the most used come
    /// first, and a later, shorter setting never takes the place of an earlier one (D295).
    func settingsLine(width: Int) -> Line {
        var spans: [Span] = []
        for forms in settingsItems {
            let lead = spans.isEmpty ? [] : [Span("  ")]
            guard let item = forms.first(where: { Line(spans + lead + $0).width <= width }) else { break }
            spans += lead + item
        }
        return Line(spans)
    }

    /// The settings line's items, each as its forms, longest first.
    var settingsItems: [[[Span]]] {
        let t = state.toggles
        let start = state.startToggles
        var items: [[[Span]]] = []
        func item(
            _ command: Command, _ value: String, _ isDefault: Bool, enabled: Bool = true, short: String? = nil
        ) {
            let key = options.keymap.binding(for: command)?.keys.first?.label(unicode: unicode) ?? "?"
            let dim = theme[.stepNotApplicable]
            items.append(
                ([value] + (short.map { [$0] } ?? [])).map { text in
                    [
                        Span(clean(key), style: enabled ? theme[.key] : dim),
                        Span(" " + clean(text), style: enabled ? theme[isDefault ? .label : .changed] : dim),
                    ]
                })
        }
        let policy = t.check.policyWords(targetHost: state.target?.host ?? "", short: true)
        item(.cyclePolicy, policy, t.policy == start.policy && t.host == start.host)
        let anchors = state.effectiveAnchors
        let anchorText: String
        var anchorShort: String?
        if anchors.isEmpty {
            anchorText = "system roots"
        } else {
            let n = anchors.count == 1 ? "1 anchor" : "\(anchors.count) anchors"
            anchorText = "\(n) (\(t.anchorClass.rawValue))" + (t.anchorsOnly ? " only" : " + system roots")
            anchorShort = n + (t.anchorsOnly ? " only" : " + system")
        }
        let anchorsDefault =
            t.addedAnchors == start.addedAnchors && t.removedAnchors == start.removedAnchors
            && t.anchorsOnly == start.anchorsOnly && t.anchorClass == start.anchorClass
        item(.toggleAnchor, anchorText, anchorsDefault, short: anchorShort)
        item(
            .togglePin, t.pins.isEmpty ? "no pins" : t.pins.count == 1 ? "1 pin" : "\(t.pins.count) pins",
            t.pins == start.pins)
        item(.toggleATS, t.ats.summary, t.ats == start.ats, short: t.ats.enabled ? "ATS on" : nil)
        item(.editTime, t.time.map { "at \($0.rfc3339)" } ?? "now", t.time == start.time)
        item(.cycleProfile, t.profile.rawValue, t.profile == start.profile)
        // The default client is an app; Safari's early anchor expiry is shown once chosen.
        if t.client != .app || start.client != .app { item(.toggleClient, t.client.rawValue, t.client == start.client) }
        if state.systemStore != nil { item(.cycleStore, state.storeWords, t.store == start.store) }
        let server = state.targetIsServer
        item(
            .cycleTLSMinimum, "TLS \(unicode ? "≥" : ">=") \(t.tlsMinimum.description.dropFirst(4))",
            t.tlsMinimum == start.tlsMinimum, enabled: server)
        item(.toggleAIA, t.fetchAIA ? "AIA on" : "AIA off", t.fetchAIA == start.fetchAIA, enabled: server)
        if !state.undoStack.isEmpty {
            items.append([[span("u undo (\(state.undoStack.count))", .label)]])
        }
        return items
    }

    var changeLine: Line {
        let mark = Span(unicode ? "Δ " : "* ", style: theme[.changed])
        if let message = state.message {
            return Line([Span(sym.bullet + " ", style: theme[.key]), span(message)])
        }
        guard let change = state.change else {
            return Line([mark, span("change a setting to see what changes; ? lists the keys", .label)])
        }
        // Until the vote or the walk-through reveals the verdict, what changed would give it away.
        if !state.verdictRevealed {
            return Line([
                mark, span(change.cause + ": ", .changed), span("what changed shows with the verdict", .label),
            ])
        }
        return Line([mark, span(change.cause + ": ", .changed), span(change.text)])
    }
}
