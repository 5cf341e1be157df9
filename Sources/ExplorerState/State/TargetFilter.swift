import TrustLab

// The Targets pane's grouping and its `/` filter: with some seventy lab scenarios a trainer
// finds one by typing part of its name, lesson or group (docs/explorer.md).
extension AppState {
    /// The text the Targets pane is filtered by: the search prompt's text while it is typed in
    /// the Targets pane (the list narrows with each key), else the filter it left; nil: none.
    public var targetFilterText: String? {
        if let p = prompt, p.kind == .search, focus == .targets { return p.text.isEmpty ? nil : p.text }
        return targetFilter
    }

    /// Whether `target` passes the filter: its name or its group's title or id contains the
    /// text, ignoring case (not the lesson: "dh" would find every ECDHE lesson).
    func passesFilter(_ target: ExplorerTarget) -> Bool {
        guard let text = targetFilterText?.lowercased() else { return true }
        if target.name.lowercased().contains(text) { return true }
        guard let s = target.scenario else { return false }
        return AppState.matches(s, text)
    }

    static func matches(_ s: LabScenario, _ lowercased: String) -> Bool {
        s.name.lowercased().contains(lowercased) || s.group.title.lowercased().contains(lowercased)
            || s.group.id.contains(lowercased) || (s.badssl?.lowercased().contains(lowercased) ?? false)
    }

    /// The indices of the targets the pane shows, in order.
    public var visibleTargets: [Int] { targets.indices.filter { passesFilter(targets[$0]) } }

    /// Keeps the selection on a shown target after the filter changed (the first one shown).
    mutating func selectVisibleTarget(_ effects: inout [Effect]) {
        let shown = visibleTargets
        if let first = shown.first, !shown.contains(selectedTarget) { select(target: first, &effects) }
    }

    /// Filters the Targets pane by `text` (the `/` prompt submitted there).
    mutating func filterTargets(_ text: String, _ effects: inout [Effect]) {
        targetFilter = text
        let shown = visibleTargets.count
        message =
            shown == 0
            ? "no scenario matches \"\(text)\" (Esc clears the filter)"
            : "\(shown) of \(targets.count) shown (Esc clears the filter)"
        selectVisibleTarget(&effects)
    }
}
