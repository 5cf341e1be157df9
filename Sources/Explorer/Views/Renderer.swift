import ExplorerState
import TermUI
import TrustCore
import TrustReport
import TrustSupport

/// The drawing of one frame: the state and the options, and what every pane draws with
/// (sanitised text, themed spans, blocks, fitting). Each pane, bar and overlay is drawn by an
/// extension in its own file.
struct Renderer {
    let state: AppState
    let options: ViewOptions

    var theme: Theme { options.theme }
    var sym: Symbols { options.symbols }
    var unicode: Bool { options.symbols == .unicode }

    /// Every string drawn passes here: text from certificates and servers is already sanitised
    /// where it is produced, and this catches anything else (and escapes non-ASCII for terminals
    /// whose locale is not UTF-8).
    func clean(_ text: String) -> String {
        unicode
            ? TerminalSanitizer.sanitize(text) : TerminalSanitizer.sanitize(TextReport.asciiFold(text), asciiOnly: true)
    }

    func span(_ text: String, _ role: ThemeRole? = nil) -> Span {
        Span(clean(text), style: role.map { theme[$0] } ?? .plain)
    }

    func block(_ title: String, focused: Bool) -> Block {
        Block(
            title: Line([Span(clean(title), style: theme[.title])]), borderStyle: theme[.border],
            focusedStyle: theme[.title].patched(with: Style(foreground: theme[.changed].foreground)),
            isFocused: focused, symbols: sym)
    }

    /// The selection is drawn in full in the pane that has focus (or feeds the detail pane);
    /// elsewhere only the pointer shows it.
    func highlight(_ active: Bool) -> Style { active ? theme[.selection] : .plain }

    func symbol(_ status: StepStatus) -> Span {
        switch status {
        case .passed: Span(sym.check, style: theme[.stepPassed])
        case .failed: Span(sym.cross, style: theme[.stepFailed])
        case .skipped: Span(sym.bullet, style: theme[.stepSkipped])
        case .notApplicable: Span(sym.dash, style: theme[.stepNotApplicable])
        }
    }

    /// `text` cut to `width` cells with an ellipsis, or padded to it.
    static func fit(_ text: String, _ width: Int, unicode: Bool) -> String {
        guard displayWidth(of: text) > width else { return text.padding(to: width) }
        var out = ""
        for c in text {
            if displayWidth(of: out + String(c)) > width - 1 { break }
            out.append(c)
        }
        return out + (unicode ? "…" : "~")
    }

    /// The first of `candidates` (longest first) that fits `width` cells; when none does, the
    /// shortest with whole words dropped from its end: a smaller terminal gets a shorter form,
    /// never a cut word.
    func fitting(_ candidates: [Line], width: Int) -> Line {
        if let line = candidates.first(where: { $0.width <= width }) { return line }
        return fitWords(candidates.last ?? Line(""), width: width)
    }

    /// `line` with whole words dropped from its end, and an ellipsis, until it fits `width`.
    func fitWords(_ line: Line, width: Int) -> Line {
        guard line.width > width else { return line }
        let ellipsis = Span(unicode ? "…" : "~", style: theme[.label])
        var spans = line.spans
        while !spans.isEmpty, Line(spans).width + ellipsis.width > width {
            var text = spans[spans.count - 1].text
            while text.last == " " { text.removeLast() }
            if let space = text.lastIndex(of: " ") {
                text = String(text[..<space])
                while text.last == " " { text.removeLast() }
            } else {
                text = ""
            }
            // A lone separator left at the end goes with the word it introduced.
            for tail in [" ·", " |", ":", ","] where text.hasSuffix(tail) { text.removeLast(tail.count) }
            if text.isEmpty { spans.removeLast() } else { spans[spans.count - 1].text = text }
        }
        return Line(spans + [ellipsis])
    }

    /// A pane title: the first of `candidates` that fits inside the borders of `area`.
    func title(_ candidates: [String], _ area: Rect) -> String {
        candidates.first { displayWidth(of: clean($0)) <= area.width - 2 } ?? candidates.last ?? ""
    }

    /// ` 12/33` for a selection in a list, empty for an empty list.
    func position(_ selected: Int, _ count: Int) -> String { count > 1 ? " \(selected + 1)/\(count)" : "" }

    /// TermUI's word wrap: spaces, then hex at byte boundaries, then inside a word too long.
    func wrap(_ text: String, width: Int) -> [String] { wrapText(text, width: width) }
}

extension String {
    /// Pads with spaces to `width` cells (never truncates).
    func padding(to width: Int) -> String {
        let w = displayWidth(of: self)
        return w < width ? self + String(repeating: " ", count: width - w) : self
    }
}

extension String {
    /// Without `prefix`, when it starts with it.
    func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
