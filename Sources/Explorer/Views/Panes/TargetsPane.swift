import ExplorerState
import TermUI
import TrustCore
import TrustLab

// The Targets pane (the scenarios in the lab): each target with its verdict mark.
extension Renderer {
    func targets(_ buffer: inout Buffer, _ area: Rect, _ layout: inout FrameLayout) {
        var title = state.isLab ? "Scenarios" : "Targets"
        switch state.lab {
        case .starting: title += " (starting lab...)"
        case .failed: title += " (lab failed)"
        default: break
        }
        // Rows: the shown targets under their group's heading (a lab of several groups), what
        // this machine cannot serve among them, greyed; `rowTarget` maps a row to its target.
        var items: [Line] = []
        var rowTarget: [Int?] = []
        let grouped = state.isLab && Set(state.targets.compactMap { $0.scenario?.group }).count > 1
        var group: LabScenarioGroup?
        for i in state.visibleTargets {
            let target = state.targets[i]
            if grouped, let g = target.scenario?.group, g != group {
                group = g
                items.append(Line([span(g.title, .label)]))
                rowTarget.append(nil)
            }
            // The mark is the target's verdict under the current settings; a target not
            // evaluated under them yet shows a dot.
            let mark: Span
            let votePending =
                state.pendingVotes.contains(i) || (i == state.selectedTarget && !state.verdictRevealed)
            if target.unavailable != nil {
                mark = Span(sym.bullet, style: theme[.stepNotApplicable])
            } else if votePending {
                // The room has not seen this verdict yet: a question mark, never the answer.
                mark = Span("?", style: theme[.key])
            } else if let m = state.marks[i], m.toggles == state.toggles {
                mark =
                    m.outcome == .trusted
                    ? Span(sym.check, style: theme[.stepPassed]) : Span(sym.cross, style: theme[.stepFailed])
            } else {
                mark = Span(sym.bullet, style: theme[.stepNotApplicable])
            }
            // Borders, the selection marker, the verdict mark and its space take six cells; the
            // comparison mark (two) follows the name, before a watch's strip.
            let marker = comparisonMarker(i)
            var label = targetLabel(i, target.name, width: area.width - 6 - (marker.isEmpty ? 0 : 2))
            label.insert(contentsOf: marker, at: min(1, label.count))
            if target.unavailable != nil {
                // The reason is in its Detail: the row stays short enough to read whole.
                label = [span(clean(target.name) + " (unavailable)", .stepNotApplicable)]
            }
            items.append(Line([mark, Span(" ")] + label))
            rowTarget.append(i)
        }
        if let filter = state.targetFilterText { title += " /" + filter }
        var list = ListView(
            items, selected: rowTarget.firstIndex { $0 == state.selectedTarget },
            offset: state.listOffsets[.targets] ?? 0,
            highlightStyle: highlight(state.focus == .targets),
            block: block(
                "1 " + title + position(state.selectedTarget, state.targets.count), focused: state.focus == .targets),
            symbols: sym)
        if items.isEmpty {
            let empty =
                state.targets.isEmpty ? (state.lab == .starting ? "starting..." : "nothing to explore") : "no match"
            list.items = [Line([span(empty, .label)])]
            list.selected = nil
        }
        let first = list.render(into: &buffer, area: area)
        let inner = list.block?.inner(area) ?? area
        let rowOfItem: [Int?] = items.isEmpty ? [nil] : rowTarget
        layout.listOffsets[.targets] = first
        layout.panes.append(
            .init(
                pane: .targets, area: area, inner: inner,
                rows: FrameLayout.visibleRows(rowOfItem, first: first, height: inner.height)))
    }
}
