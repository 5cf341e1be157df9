import ExplorerState
import TermUI
import TrustCore

// What is drawn over the panes: a text overlay, the help, and the too-small notice.
extension Renderer {
    /// A box over the panes with paragraphs that wrap at spaces only: a command line copied
    /// from the screen must come out whole.
    func textOverlay(_ overlay: AppState.TextOverlay, _ buffer: inout Buffer, _ area: Rect) {
        let width = min(area.width - 2, 120)
        var lines: [Line] = []
        for (i, paragraph) in overlay.paragraphs.enumerated() {
            if i > 0 { lines.append(Line("")) }
            // A paragraph's own line breaks (a multi-line command) are kept: each line is
            // sanitised and wrapped on its own, so no line break reaches the terminal as text.
            for row in paragraph.split(separator: "\n", omittingEmptySubsequences: false) {
                for piece in wrap(clean(String(row)), width: width - 4) {
                    lines.append(Line([span(piece, i == 0 ? nil : .label)]))
                }
            }
        }
        let height = min(area.height, lines.count + 2)
        let box = Rect(
            x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        clearAround(box, &buffer, area)
        let b = block(overlay.title, focused: true)
        b.render(into: &buffer, area: box)
        let inner = b.inner(box)
        for (row, line) in lines.prefix(inner.height).enumerated() {
            buffer.set(x: inner.x + 1, y: inner.y + row, line: line, maxWidth: inner.width - 1)
        }
    }

    /// Draws the help over `area`; its size, so the state can bound its scrolling.
    func help(_ buffer: inout Buffer, _ area: Rect) -> Viewport {
        let (box, lines) = helpLayout(area)
        clearAround(box, &buffer, area)
        let inner = Block(symbols: sym).inner(box)
        let maxScroll = max(0, lines.count - inner.height)
        let scroll = min(state.helpScroll, maxScroll)
        let position = lines.count > inner.height ? " \(min(scroll + inner.height, lines.count))/\(lines.count)" : ""
        let titles = [
            "Help\(position): j/k PgUp/PgDn scroll, q, Esc or any other key closes",
            "Help\(position): j/k PgUp/PgDn scroll, other keys close", "Help\(position): j/k, q closes",
            "Help\(position)",
        ]
        let b = block(titles.first { displayWidth(of: $0) <= box.width - 4 } ?? "Help", focused: true)
        b.render(into: &buffer, area: box)
        for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            buffer.set(x: inner.x + 1, y: inner.y + row, line: line, maxWidth: inner.width - 1)
        }
        return Viewport(lines: lines.count, height: inner.height)
    }

    /// The help's lines and its box in `area`.
    func helpLayout(_ area: Rect) -> (box: Rect, lines: [Line]) {
        let width = min(area.width - 2, 100)
        let entries = HelpContent.entries(options.keymap, state)
        let keyWidth = min(
            18,
            options.keymap.bindings.map { $0.keys.map { $0.label(unicode: unicode) }.joined(separator: " ").count }
                .max() ?? 0)
        let textWidth = max(10, width - 4 - keyWidth - 2)
        var lines: [Line] = []
        for entry in entries {
            switch entry {
            case .heading(let text):
                if !lines.isEmpty { lines.append(Line("")) }
                lines.append(Line([span(text, .title)]))
            case .binding(let b, let enabled):
                let keys = b.keys.map { $0.label(unicode: unicode) }.joined(separator: " ")
                let pieces = wrap(clean(b.help(in: state)), width: textWidth)
                for (i, piece) in pieces.enumerated() {
                    let key = i == 0 ? keys.padding(to: keyWidth + 2) : String(repeating: " ", count: keyWidth + 2)
                    lines.append(
                        Line([
                            span(key, enabled ? .key : .stepNotApplicable),
                            Span(piece, style: enabled ? .plain : theme[.stepNotApplicable]),
                        ]))
                }
            case .legend:
                lines.append(Line(""))
                lines.append(
                    Line([
                        symbol(.passed), span(" passed  "), symbol(.failed), span(" failed  "), symbol(.skipped("")),
                        span(" skipped  "), symbol(.notApplicable), span(" not applicable"),
                    ]))
                lines.append(
                    Line([Span(unicode ? "Δ" : "*", style: theme[.changed]), span(" changed by the last change")]))
            }
        }
        let height = min(area.height, lines.count + 2)
        let box = Rect(
            x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        return (box, lines)
    }

    /// Blanks `box` and a cell around it within `area`: a pane's border left beside the box's
    /// own (`┌┌Help` at 80 columns) would read as a stray glyph.
    func clearAround(_ box: Rect, _ buffer: inout Buffer, _ area: Rect) {
        buffer.fill(
            Rect(x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2).intersection(area))
    }

    func tooSmall(_ buffer: inout Buffer, _ area: Rect) {
        let text = [
            "Window too small",
            "\(area.width)x\(area.height); needs \(ExplorerView.minimumWidth)x\(ExplorerView.minimumHeight)",
            "q quits",
        ]
        let lines = text.flatMap { wrap($0, width: area.width) }
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (i, line) in lines.prefix(area.height).enumerated() {
            let x = area.x + max(0, (area.width - displayWidth(of: line)) / 2)
            buffer.set(x: x, y: top + i, string: line, style: i == 0 ? theme[.title] : .plain, maxWidth: area.width)
        }
    }
}
