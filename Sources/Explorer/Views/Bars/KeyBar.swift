import ExplorerState
import TermUI
import TrustCore

// The bottom four lines, and the last two of them: the change line and the key bar, or the
// prompt being typed and its status.
extension Renderer {
    func bottom(_ buffer: inout Buffer, _ area: Rect) {
        var area = area
        if area.height > 4 {
            let strip = Rect(x: area.x, y: area.y, width: area.width, height: 1)
            buffer.set(x: strip.x, y: strip.y, line: timelineStrip(width: strip.width), maxWidth: strip.width)
            area = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
        }
        let rows = area.split(vertical: [.length(1), .length(1), .length(1), .length(1)])
        buffer.set(x: rows[0].x, y: rows[0].y, line: verdictLine(width: rows[0].width), maxWidth: rows[0].width)
        buffer.set(
            x: rows[1].x, y: rows[1].y, line: settingsLine(width: rows[1].width), maxWidth: rows[1].width)
        if let prompt = state.prompt {
            buffer.set(
                x: rows[2].x, y: rows[2].y, line: fitWords(promptStatus(prompt), width: rows[2].width),
                maxWidth: rows[2].width)
            buffer.set(
                x: rows[3].x, y: rows[3].y, line: promptLine(prompt, width: rows[3].width), maxWidth: rows[3].width)
        } else {
            buffer.set(
                x: rows[2].x, y: rows[2].y, line: fitWords(changeLine, width: rows[2].width), maxWidth: rows[2].width)
            hintBar(&buffer, rows[3])
        }
    }

    /// The help bar: as many whole hints as fit, dimmed where the key does nothing here. When
    /// all do not fit, keys for another pane's selection go first, then the spacing and the
    /// words get shorter.
    func hintBar(_ buffer: inout Buffer, _ area: Rect) {
        let all = options.keymap.hints(for: state, unicode: unicode)
        let here = all.filter { !$0.elsewhere }
        func width(_ hints: [HintItem], gap: Int, short: Bool) -> Int {
            hints.reduce(gap * max(0, hints.count - 1)) { total, h in
                total + displayWidth(of: clean(h.key)) + 1 + displayWidth(of: clean(short ? h.shortAction : h.action))
            }
        }
        let forms = [(all, 2, false), (here, 2, false), (here, 2, true), (here, 1, true)]
        let (hints, gap, short) = forms.first { width($0.0, gap: $0.1, short: $0.2) <= area.width } ?? forms[3]
        var x = area.x
        for (i, hint) in hints.enumerated() {
            let key = clean(hint.key)
            let action = clean(short ? hint.shortAction : hint.action)
            let lead = i == 0 ? 0 : gap
            let width = lead + displayWidth(of: key) + 1 + displayWidth(of: action)
            guard x + width <= area.right else { break }
            x += lead
            let keyStyle = hint.enabled ? theme[.key] : theme[.stepNotApplicable]
            x += buffer.set(x: x, y: area.y, string: key, style: keyStyle)
            x += buffer.set(
                x: x, y: area.y, string: " " + action, style: hint.enabled ? theme[.label] : theme[.stepNotApplicable])
        }
    }

    /// The text being typed, with a cursor; the tail is kept visible when it is long.
    func promptLine(_ p: Prompt, width: Int) -> Line {
        let label = p.kind.label + ": "
        let help = "  Enter ok  Esc cancel" + (p.kind == .host || p.kind.completesPaths ? "  Tab complete" : "")
        var text = clean(p.text)
        let room = max(8, width - displayWidth(of: label) - 1 - displayWidth(of: help))
        while displayWidth(of: text) > room { text.removeFirst() }
        return Line([
            span(label, .label), span(text), Span(unicode ? "▏" : "_", style: theme[.key]), span(help, .label),
        ])
    }

    /// Above the prompt: why the text cannot be used, the candidates of the last Tab, or the
    /// verdict the typed value would give.
    func promptStatus(_ p: Prompt) -> Line {
        // Nothing typed is not a mistake yet: the hint says what may be typed.
        if !p.text.isEmpty, let why = state.problem(with: p) {
            return Line([Span(sym.cross + " ", style: theme[.stepFailed]), span(why, .stepFailed)])
        }
        if !p.completions.isEmpty {
            return Line([span("Tab: ", .label), span(p.completions.prefix(12).joined(separator: "  "))])
        }
        if state.predict && p.kind.previews && state.problem(with: p) == nil {
            // Predict mode: the room votes before anything tells them the answer.
            return Line([
                Span("? ", style: theme[.key]),
                span("Enter applies it; predict mode: the verdict is revealed after the vote", .label),
            ])
        }
        if let preview = p.preview {
            let trusted = preview == .trusted
            return Line([
                Span(
                    (trusted ? sym.check : sym.cross) + " ", style: theme[trusted ? .verdictTrusted : .verdictUntrusted]
                ),
                span("Enter gives: ", .label), span(preview.words, trusted ? .verdictTrusted : .verdictUntrusted),
            ])
        }
        return Line([span(p.kind.hint, .label)])
    }
}
