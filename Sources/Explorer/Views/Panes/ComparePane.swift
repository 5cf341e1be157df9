import ExplorerState
import TermUI
import TrustCore
import TrustReport

// The compare view in the Detail pane (`M`): the marked target on the left, the selected one on
// the right, or stacked one above the other when the pane is too narrow for two columns.
extension Renderer {
    /// The narrowest pane (inside its borders) that shows the two sides as columns.
    static let compareSideBySideWidth = 64

    func compare(_ buffer: inout Buffer, _ area: Rect, _ layout: inout FrameLayout) {
        scrolledDetail(&buffer, area, &layout, name: CompareContent.title(state), short: "Compare") {
            compareLines(width: $0)
        }
    }

    /// The compare rows laid out for `width`: two columns when they fit, else stacked.
    func compareLines(width: Int) -> [Line] {
        let rows = CompareContent.rows(state)
        let sideBySide = width >= Self.compareSideBySideWidth
        // As wide as the longest label (a step's id with its position), up to a quarter.
        let labels = rows.filter { $0.kind == .field }.map { $0.indent + displayWidth(of: clean($0.label)) }
        let labelWidth = min((labels.max() ?? 0) + 2, max(14, width / 4))
        var out: [Line] = []
        for row in rows {
            let indent = String(repeating: " ", count: row.indent)
            switch row.kind {
            case .heading:
                out.append(Line(""))
                out.append(Line([span(row.text, .title)]))
            case .note:
                for piece in wrap(clean(row.text), width: width) { out.append(Line([span(piece, .label)])) }
            case .relation(let relation):
                let head = row.label + " "
                let pieces = wrap(clean(row.text), width: max(1, width - displayWidth(of: head)))
                for (i, piece) in pieces.enumerated() {
                    let lead = i == 0 ? span(head, .label) : Span(String(repeating: " ", count: displayWidth(of: head)))
                    out.append(Line([lead, span(piece, role(relation))]))
                }
            case .field:
                out +=
                    sideBySide
                    ? columns(row, indent: indent, labelWidth: labelWidth, width: width)
                    : stacked(row, indent: indent, width: width)
            }
        }
        return out
    }

    /// A field as `label  A │ B`, each value wrapped in its own column.
    func columns(_ row: CompareRow, indent: String, labelWidth: Int, width: Int) -> [Line] {
        let separator = " " + sym.vertical + " "
        let column = max(1, (width - labelWidth - displayWidth(of: separator)) / 2)
        let label = wrap(clean(indent + row.label), width: labelWidth - 1)
        let a = wrap(clean(row.a), width: column)
        let b = wrap(clean(row.b), width: column)
        var out: [Line] = []
        for i in 0..<max(label.count, a.count, b.count, 1) {
            let l = i < label.count ? label[i] : ""
            let va = i < a.count ? a[i] : ""
            let vb = i < b.count ? b[i] : ""
            out.append(
                Line([
                    span(l.padding(to: labelWidth), .label), span(va.padding(to: column), role(row.aTone)),
                    span(separator, .border), span(vb, role(row.bTone)),
                ]))
        }
        return out
    }

    /// A field as its label, then one line per side named by its target, for a narrow pane.
    func stacked(_ row: CompareRow, indent: String, width: Int) -> [Line] {
        let names = CompareContent.names(state)
        let nameWidth = min(12, max(displayWidth(of: clean(names.marked)), displayWidth(of: clean(names.selected))))
        var out: [Line] = []
        // The header row names the sides already: its values stand alone.
        guard !row.label.isEmpty else {
            for (value, tone) in [(row.a, row.aTone), (row.b, row.bTone)] {
                out += wrap(clean(value), width: width).map { Line([span($0, role(tone))]) }
            }
            return out
        }
        out.append(Line([span(indent + row.label, .label)]))
        let lead = indent.count + 2
        let room = max(1, width - lead - nameWidth - 1)
        for (name, value, tone) in [(names.marked, row.a, row.aTone), (names.selected, row.b, row.bTone)] {
            let who = Renderer.fit(clean(name), nameWidth, unicode: unicode) + " "
            for (i, piece) in wrap(clean(value), width: room).enumerated() {
                let head = i == 0 ? who : String(repeating: " ", count: nameWidth + 1)
                out.append(
                    Line([Span(String(repeating: " ", count: lead)), span(head, .label), span(piece, role(tone))]))
            }
        }
        return out
    }

    func role(_ tone: CompareRow.Tone) -> ThemeRole? {
        switch tone {
        case .plain: nil
        case .good: .stepPassed
        case .bad: .stepFailed
        case .changed: .changed
        case .dim: .stepNotApplicable
        case .title: .title
        }
    }

    /// The colour of a relation: the same certificate passes, the same key is a change an app
    /// with a key pin does not notice, another certificate fails a pin, one side alone is absent.
    func role(_ relation: ChainComparison.Relation) -> ThemeRole {
        switch relation {
        case .same: .stepPassed
        case .sameKey: .changed
        case .different: .stepFailed
        case .onlyA, .onlyB: .stepNotApplicable
        }
    }
}

// Where the panes go while comparing, and the marked target's marker in the Targets pane.
extension Renderer {
    /// While comparing with the Targets or Detail pane focused, the Detail pane takes the room
    /// of the chain and the steps (each side has its own chain, shown in the comparison), with
    /// the targets beside it so another can be selected; nil for the usual panes.
    func compareAreas(_ main: Rect) -> [(AppState.Pane, Rect)]? {
        guard state.comparison.showing, state.focus == .targets || state.focus == .detail else { return nil }
        let layout = ExplorerView.Layout(width: main.width, height: main.height + 4)
        guard layout != .onePane, showsTargets else { return nil }
        let width = min(targetsWidth, main.width / 4)
        let columns = main.split(horizontal: [.length(width), .fill])
        return [(.targets, columns[0]), (.detail, columns[1])]
    }

    /// The marker after the marked target's name (`m`).
    func comparisonMarker(_ index: Int) -> [Span] {
        guard state.markedTarget == index else { return [] }
        return [Span(" "), Span(unicode ? "◆" : "*", style: theme[.key])]
    }
}
