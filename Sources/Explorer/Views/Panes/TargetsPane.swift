import TermUI
import TrustCore

// The Targets pane (the scenarios in the lab): each target with its verdict mark.
extension Renderer {
    func targets(_ buffer: inout Buffer, _ area: Rect, _ layout: inout FrameLayout) {
        var title = state.isLab ? "Scenarios" : "Targets"
        switch state.lab {
        case .starting: title += " (starting lab...)"
        case .failed: title += " (lab failed)"
        default: break
        }
        let items = state.targets.indices.map { i -> Line in
            // The mark is the target's verdict under the current settings; a target not
            // evaluated under them yet shows a dot.
            let mark: Span
            if let m = state.marks[i], m.toggles == state.toggles, !(state.verdictHidden && i == state.selectedTarget) {
                mark =
                    m.outcome == .trusted
                    ? Span(sym.check, style: theme[.stepPassed]) : Span(sym.cross, style: theme[.stepFailed])
            } else {
                mark = Span(sym.bullet, style: theme[.stepNotApplicable])
            }
            return Line([mark, Span(" "), span(state.targets[i].name)])
        }
        var list = ListView(
            items, selected: state.targets.isEmpty ? nil : state.selectedTarget,
            offset: state.listOffsets[.targets] ?? 0,
            highlightStyle: highlight(state.focus == .targets),
            block: block(
                "1 " + title + position(state.selectedTarget, state.targets.count), focused: state.focus == .targets),
            symbols: sym)
        if items.isEmpty {
            list.items = [Line([span(state.lab == .starting ? "starting..." : "nothing to explore", .label)])]
            list.selected = nil
        }
        let first = list.render(into: &buffer, area: area)
        let inner = list.block?.inner(area) ?? area
        let rowOfItem: [Int?] = items.isEmpty ? [nil] : Array(state.targets.indices)
        layout.listOffsets[.targets] = first
        layout.panes.append(
            .init(
                pane: .targets, area: area, inner: inner,
                rows: FrameLayout.visibleRows(rowOfItem, first: first, height: inner.height)))
    }
}
