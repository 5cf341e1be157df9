import ExplorerState
import TermUI
import TrustCore

// The Steps pane: every step grouped by certificate, or the walk-through's revealed steps.
extension Renderer {
    func steps(_ buffer: inout Buffer, _ area: Rect, _ layout: inout FrameLayout) {
        let b = block("3 Steps", focused: state.focus == .steps)
        // Rows that show no step of the selection (the walk-through's, the hidden list's) select
        // nothing when clicked: the pane only takes focus.
        var laid = FrameLayout.PaneArea(pane: .steps, area: area, inner: b.inner(area))
        defer { layout.panes.append(laid) }
        guard let e = state.evaluation else {
            b.render(into: &buffer, area: area)
            return
        }
        if let n = state.walk {
            walkSteps(e, revealed: n, &buffer, area)
            return
        }
        if state.verdictHidden {
            // The steps would give the answer away before the room has voted.
            ListView([Line([span("hidden until the vote: Space reveals", .label)])], block: b, symbols: sym)
                .render(into: &buffer, area: area)
            return
        }
        let order = state.stepOrder
        let (items, rowOfItem, selectedRow) = stepList(e, width: area.width)
        let failed = e.steps.filter { $0.status == .failed }.count
        let where_ = position(state.selectedStep, order.count)
        let titles = [
            "3 Steps (\(e.steps.count), \(failed) failed)" + where_, "3 Steps (\(failed) failed)" + where_,
            "3 Steps" + where_, "3 Steps",
        ]
        let first = ListView(
            items, selected: selectedRow, offset: state.listOffsets[.steps] ?? 0,
            highlightStyle: highlight(state.focus == .steps || state.detailSubject == .steps),
            block: block(title(titles, area), focused: state.focus == .steps), symbols: sym
        ).render(into: &buffer, area: area)
        layout.listOffsets[.steps] = first
        laid.rows = FrameLayout.visibleRows(rowOfItem, first: first, height: laid.inner.height)
    }

    /// The steps pane's lines: certificate headings and step rows; for each line its row in
    /// `stepOrder` (nil for a heading), and the selected line.
    func stepList(_ e: Evaluation, width: Int) -> (items: [Line], rowOfItem: [Int?], selectedItem: Int?) {
        let order = state.stepOrder
        // The id column gives way to the summary in a narrow pane: the summary carries the
        // failing words (a failed step's title is what it found).
        let idWidth = min(24, e.steps.map { $0.id.rawValue.count }.max() ?? 0, max(8, (width - 8) / 3))
        var items: [Line] = []
        var selectedRow: Int?
        var rowOfItem: [Int?] = []
        var group: Int?? = .none
        for (row, index) in order.enumerated() {
            let step = e.steps[index]
            if group == nil || group! != step.certificate {
                group = .some(step.certificate)
                let heading = step.certificate.map { i in
                    "[\(i)] " + (e.path.certificates.indices.contains(i) ? e.path.certificates[i].displayName : "?")
                }
                items.append(Line([span(heading ?? "Path", .title)]))
                rowOfItem.append(nil)
            }
            if row == state.selectedStep { selectedRow = items.count }
            let changed = state.change?.changedSteps.contains(index) == true
            let id = Renderer.fit(step.id.rawValue, idWidth, unicode: unicode)
            var line = Line([symbol(step.status), Span(" ")])
            line.spans.append(span(id, changed ? .changed : (step.status == .failed ? .stepFailed : nil)))
            let markStyle = changed ? theme[.changed] : Style.plain
            line.spans.append(Span(changed ? (unicode ? " Δ " : " * ") : "   ", style: markStyle))
            line.spans.append(span(step.title, step.status == .notApplicable ? .stepNotApplicable : nil))
            items.append(line)
            rowOfItem.append(row)
        }
        return (items, rowOfItem, selectedRow)
    }

    /// The walk-through's steps: those revealed so far, in the order the evaluator ran them, the
    /// last one selected; the rest are not shown, so the room cannot read ahead.
    func walkSteps(_ e: Evaluation, revealed n: Int, _ buffer: inout Buffer, _ area: Rect) {
        let order = state.walkOrder.prefix(n)
        let idWidth = min(24, e.steps.map { $0.id.rawValue.count }.max() ?? 0, max(8, (area.width - 12) / 3))
        let items = order.map { index -> Line in
            let step = e.steps[index]
            let at = step.certificate.map { "@\($0)" } ?? ""
            // The id gives way before its `@N`: two certificates' rows of one step stay apart.
            let cells = idWidth + 3
            let id =
                displayWidth(of: step.id.rawValue + at) <= cells
                ? (step.id.rawValue + at).padding(to: cells)
                : Renderer.fit(step.id.rawValue, max(2, cells - at.count), unicode: unicode) + at
            return Line([
                symbol(step.status), Span(" "),
                span(id, step.status == .failed ? .stepFailed : nil),
                Span(" "), span(step.title, step.status == .notApplicable ? .stepNotApplicable : nil),
            ])
        }
        ListView(
            Array(items), selected: items.count - 1, highlightStyle: theme[.selection],
            block: block(
                title(
                    [
                        "3 Walk-through: step \(n) of \(e.steps.count)", "3 Walk: step \(n) of \(e.steps.count)",
                        "3 step \(n)/\(e.steps.count)",
                    ], area), focused: true), symbols: sym
        ).render(into: &buffer, area: area)
    }
}
