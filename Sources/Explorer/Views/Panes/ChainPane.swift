import ExplorerState
import ServedChain
import TermUI
import TrustCore
import TrustX509

// The Chain pane: the path as built, then the chain as sent (or read).
extension Renderer {
    func chain(_ buffer: inout Buffer, _ area: Rect, _ layout: inout FrameLayout) {
        let rows = state.chainRows
        var titles = ["2 Chain"]
        if let e = state.evaluation, state.verdictHidden {
            // While the room votes the path's length and whether it changed give the answer away
            // (an intermediate fetched or not, a path cut short): only the chain as sent shows (D360).
            let where_ = position(state.selectedCertificate, state.chainRows.count)
            titles = ["2 Chain (\(e.presented.count) \(sentWord))\(where_)", "2 Chain\(where_)", "2 Chain"]
        } else if let e = state.evaluation {
            let where_ = position(state.selectedCertificate, state.chainRows.count)
            let changed = state.change?.pathChanged == true ? " changed" : ""
            let counts = "\(e.path.certificates.count) in path, \(e.presented.count) \(sentWord)"
            titles = [
                "2 Chain (\(counts))\(changed)\(where_)",
                "2 Chain (\(e.path.certificates.count) path, \(e.presented.count) \(sentWord))\(changed)\(where_)",
                "2 Chain\(changed)\(where_)", "2 Chain\(where_)", "2 Chain",
            ]
        }
        var (items, rowOfItem, selectedRow) = chainList()
        var list = ListView(
            items, selected: selectedRow, offset: state.listOffsets[.chain] ?? 0,
            highlightStyle: highlight(state.focus == .chain || state.detailSubject == .chain),
            block: block(title(titles, area), focused: state.focus == .chain), symbols: sym)
        if rows.isEmpty {
            // Wrapped, not cut: the reason reads in full however narrow the pane.
            let width = max(1, area.width - 4)
            list.items = wrap(placeholder, width: width).map { Line([span($0, .label)]) }
            rowOfItem = list.items.map { _ in nil }
        }
        let first = list.render(into: &buffer, area: area)
        let inner = list.block?.inner(area) ?? area
        layout.listOffsets[.chain] = first
        layout.panes.append(
            .init(
                pane: .chain, area: area, inner: inner,
                rows: FrameLayout.visibleRows(rowOfItem, first: first, height: inner.height)))
    }

    /// The chain pane's lines: headings and certificate rows; for each line the chain row it
    /// shows (nil for a heading), and the selected line.
    func chainList() -> (items: [Line], rowOfItem: [Int?], selectedItem: Int?) {
        let anchors = Set(state.effectiveAnchors.map(\.certificate))
        let pins = Set(state.toggles.pins.map { DigestKey($0) })
        var items: [Line] = []
        var rowOfItem: [Int?] = []
        var selectedRow: Int?
        var section: ChainRow.Section?
        for (n, row) in state.chainRows.enumerated() {
            if section != row.section {
                section = row.section
                items.append(Line([span(row.section == .path ? "Path as built" : "Chain as \(sentWord)", .title)]))
                rowOfItem.append(nil)
            }
            if n == state.selectedCertificate { selectedRow = items.count }
            let index = row.section == .path ? "[\(row.index)]" : "#\(row.index)"
            var line = Line([span(index, .label), Span(" "), span(row.certificate.displayName)])
            // What the user made of this certificate: an anchor, a pin.
            if anchors.contains(row.certificate) { line.spans.append(span(" anchor", .changed)) }
            if pins.contains(row.certificate.keyIdentity) { line.spans.append(span(" pinned", .changed)) }
            // A path row's source says how it was trusted ("trusted custom anchor"): the verdict,
            // which predict mode keeps until the reveal.
            if row.section == .path && state.verdictHidden {
                line.spans.append(span("  hidden until the vote", .label))
            } else {
                line.spans.append(span("  \(row.source)", .label))
            }
            items.append(line)
            rowOfItem.append(n)
        }
        // How the chain was served, below both lists.
        do {
            let findings = servedFindings
            if !findings.isEmpty {
                items.append(Line([span("Served: \(findings.count) for other clients (S writes the fix)", .title)]))
                rowOfItem.append(nil)
                for f in findings {
                    let which = f.certificates.count > 3 ? "all" : f.certificates.map(\.label).joined(separator: " ")
                    items.append(Line([span(f.kind.rawValue, .label), Span(" \(which): \(f.explanation)")]))
                    rowOfItem.append(nil)
                }
            }
        }
        return (items, rowOfItem, selectedRow)
    }

    /// How the chain was served (D440), for the pane's own lines; none while the room votes, as
    /// an AIA fetch would say what the path is.
    var servedFindings: [ServedFinding] {
        guard let e = state.evaluation, !state.verdictHidden else { return [] }
        return ServedChainAnalysis.findings(e)
    }

    /// "sent" for a server's chain, "read" for files.
    var sentWord: String { state.targetIsServer ? "sent" : "read" }

    var placeholder: String {
        if state.lab == .starting { return "starting the lab..." }
        if state.target?.unavailable != nil {
            return "no chain: the lab does not serve it; the Detail pane (4) says why"
        }
        switch state.chain {
        case .connecting: return "connecting..."
        case .ready(let r) where r.chain.isEmpty:
            return "no chain: the connection failed; the Detail pane (4) says why"
        default: return state.isBusy ? "evaluating..." : ""
        }
    }
}
