import ExplorerState
import TermUI
import TrustCore

// The Detail pane: the selected certificate's or step's lines, wrapped and scrolled.
extension Renderer {
    func detail(_ buffer: inout Buffer, _ area: Rect, _ layout: inout FrameLayout) {
        if state.comparison.showing { return compare(&buffer, area, &layout) }
        scrolledDetail(&buffer, area, &layout, name: DetailContent.title(state), short: "Detail") {
            detailLines(width: $0)
        }
    }

    /// The Detail pane's frame around `lines(width)`, scrolled by `detailScroll`: its title is the
    /// longest of `4 name`, `4 short` that fits, followed by where the pane is in its text when it
    /// does not all fit (`12-30/80`). Both the fields and the compare view are drawn so.
    func scrolledDetail(
        _ buffer: inout Buffer, _ area: Rect, _ layout: inout FrameLayout, name: String, short: String,
        lines makeLines: (Int) -> [Line]
    ) {
        let inner = block("", focused: false).inner(area)
        let lines = inner.isEmpty ? [] : makeLines(inner.width)
        let scroll = max(0, min(state.detailScroll, lines.count - inner.height))
        layout.panes.append(.init(pane: .detail, area: area, inner: inner))
        layout.detail = Viewport(lines: lines.count, height: inner.height)
        let where_ =
            lines.count > inner.height ? " \(scroll + 1)-\(min(scroll + inner.height, lines.count))/\(lines.count)" : ""
        let b = block(
            title(["4 " + name + where_, "4 " + short + where_, "4 " + short], area), focused: state.focus == .detail)
        b.render(into: &buffer, area: area)
        guard !inner.isEmpty else { return }
        for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            buffer.set(x: inner.x, y: inner.y + row, line: line, maxWidth: inner.width)
        }
    }

    /// The detail lines wrapped to `width`: field values wrap under themselves.
    func detailLines(width: Int) -> [Line] {
        let labelWidth = 14
        var out: [Line] = []
        for d in DetailContent.lines(state) {
            let indent = String(repeating: " ", count: d.indent)
            switch d.kind {
            case .heading:
                out.append(Line([Span(indent), span(d.text, d.lit ? .changed : .title)]))
            case .text:
                for piece in wrap(clean(d.text), width: width - d.indent) {
                    out.append(Line([Span(indent), Span(piece, style: d.lit ? theme[.changed] : .plain)]))
                }
            case .status(let status):
                let role: ThemeRole =
                    switch status {
                    case .passed: .stepPassed
                    case .failed: .stepFailed
                    case .skipped: .stepSkipped
                    case .notApplicable: .stepNotApplicable
                    }
                for (i, piece) in wrap(clean(d.text), width: width - d.indent - 2).enumerated() {
                    out.append(Line([Span(indent), i == 0 ? symbol(status) : Span(" "), Span(" "), span(piece, role)]))
                }
            case .field(let label):
                let labelCells = max(labelWidth - d.indent, displayWidth(of: label) + 1)
                let value = clean(d.text)
                // A pin or a fingerprint (one token, no spaces) that does not fit beside its
                // label gets the next line to itself from the left edge, so it is copied whole.
                if !value.contains(" ") && !value.contains(":")
                    && displayWidth(of: value) > width - d.indent - labelCells
                {
                    // A pin keeps its scheme beside the label when the digest alone fits (trustx
                    // check takes the bare base64 too).
                    let scheme = value.hasPrefix("sha256//") && displayWidth(of: value) > width ? "sha256//" : ""
                    let token = String(value.dropFirst(scheme.count))
                    if displayWidth(of: token) <= width {
                        out.append(
                            Line([
                                Span(indent), span(clean(label).padding(to: labelCells), d.lit ? .changed : .label),
                                Span(scheme),
                            ]))
                        out.append(Line([Span(token, style: d.lit ? theme[.changed] : .plain)]))
                        continue
                    }
                }
                // A label longer than the label column (a lesson's Try row, an Info.plist's name)
                // would squeeze its value into a sliver broken inside words: it takes lines of its
                // own, wrapped at spaces, and the value follows under it, indented (D296).
                if labelCells > labelWidth && width - d.indent - labelCells < max(24, width / 2) {
                    let labelStyle: ThemeRole = d.lit ? .changed : .label
                    for piece in wrap(clean(label), width: width - d.indent) {
                        out.append(Line([Span(indent), span(piece, labelStyle)]))
                    }
                    let under = String(repeating: " ", count: d.indent + 2)
                    for piece in wrap(value, width: width - d.indent - 2) {
                        out.append(Line([Span(under), Span(piece, style: d.lit ? theme[.changed] : .plain)]))
                    }
                    continue
                }
                let pad = String(repeating: " ", count: d.indent + labelCells)
                let pieces = wrap(value, width: width - d.indent - labelCells)
                let valueStyle = d.lit ? theme[.changed] : Style.plain
                let mark = Span(d.lit ? (unicode ? "▸" : ">") : "", style: theme[.changed])
                for (i, piece) in pieces.enumerated() {
                    if i == 0 {
                        out.append(
                            Line([
                                Span(indent), span(clean(label).padding(to: labelCells), d.lit ? .changed : .label),
                                Span(piece, style: valueStyle), mark,
                            ]))
                    } else {
                        out.append(Line([Span(pad), Span(piece, style: valueStyle)]))
                    }
                }
            }
        }
        return out
    }
}
