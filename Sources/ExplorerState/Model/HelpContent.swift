/// The help overlay's content: the keys of the focused pane first, then the rest, then the
/// walk-through's keys and the legend of the marks.
public enum HelpContent {
    /// One entry: a heading or a binding.
    public enum Entry: Sendable {
        /// A section heading.
        case heading(String)
        /// A binding, enabled or not here.
        case binding(KeyBinding, enabled: Bool)
        /// The legend of the step marks.
        case legend
    }

    /// The entries for `state` under `keymap`.
    public static func entries(_ keymap: Keymap, _ state: AppState) -> [Entry] {
        let here = keymap.bindings.filter { $0.panes.contains(state.focus) }
        let rest = keymap.bindings.filter { !$0.panes.contains(state.focus) }
        var out: [Entry] = []
        let paneName = state.focus == .targets && state.isLab ? "Scenarios" : state.focus.title
        if !here.isEmpty {
            out.append(.heading("In the \(paneName) pane"))
            out += here.map { .binding($0, enabled: $0.isEnabled(in: state)) }
        }
        out.append(.heading(here.isEmpty ? "Keys" : "Everywhere"))
        out += rest.map { .binding($0, enabled: $0.isEnabled(in: state)) }
        out.append(.heading("During a walk-through (w)"))
        out += keymap.walkBindings.map { .binding($0, enabled: true) }
        out.append(.legend)
        return out
    }

    /// At least as many lines as the help wraps to on the narrowest screen drawn: the reducer's
    /// bound for scrolling before a frame reports the real count (the view clamps against the
    /// wrapped lines). Two lines an entry fell short once one entry wrapped to four at 60 columns.
    static func lineCount(_ keymap: Keymap, _ state: AppState) -> Int {
        entries(keymap, state).reduce(0) { sum, entry in
            switch entry {
            // A word-wrapped row of the help's text column holds 30 characters or more from
            // 60 columns up; one more for the blank line or heading around it.
            case .binding(let b, _): sum + (b.help.count + 29) / 30 + 1
            case .heading: sum + 2
            case .legend: sum + 16
            }
        }
    }
}
