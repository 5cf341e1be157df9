// Lines of styled text, optionally word-wrapped, scrolled by whole lines.

/// Styled text in an area: lines of spans, word-wrapped or clipped, scrolled by a line offset.
public struct Paragraph: Hashable, Sendable {
    /// The text's lines.
    public var lines: [Line]
    /// Whether long lines wrap at word boundaries (else they are clipped).
    public var wrap: Bool
    /// The number of (wrapped) lines scrolled off the top.
    public var scroll: Int
    /// The style every span is laid over, also given to the empty cells of the area.
    public var style: Style
    /// A frame drawn around the text, which then goes inside it.
    public var block: Block?

    /// Creates a paragraph.
    /// - Parameters:
    ///   - lines: The text's lines.
    ///   - wrap: Whether to word-wrap (true by default).
    ///   - scroll: The lines scrolled off the top.
    ///   - style: The base style.
    ///   - block: An optional frame.
    public init(_ lines: [Line], wrap: Bool = true, scroll: Int = 0, style: Style = .plain, block: Block? = nil) {
        self.lines = lines
        self.wrap = wrap
        self.scroll = scroll
        self.style = style
        self.block = block
    }

    /// The lines as they are drawn in a given width: wrapped when `wrap` is set.
    /// - Parameter width: The number of columns of the text area.
    /// - Returns: The display lines (use their count to bound `scroll`).
    public func displayLines(width: Int) -> [Line] {
        guard wrap else { return lines }
        return lines.flatMap { wrapLine($0, width: width) }
    }

    /// Draws the paragraph, clipped to the area.
    /// - Parameters:
    ///   - buffer: The buffer to draw into.
    ///   - area: The paragraph's area (including the block, if any).
    public func render(into buffer: inout Buffer, area: Rect) {
        block?.render(into: &buffer, area: area)
        // Laid out in the whole area; the buffer clips what falls outside it.
        let inner = block?.inner(area) ?? area
        guard !inner.intersection(buffer.area).isEmpty else { return }
        if style != .plain { buffer.setStyle(inner, style) }
        let shown = displayLines(width: inner.width).dropFirst(max(0, scroll)).prefix(inner.height)
        for (row, line) in shown.enumerated() {
            buffer.set(x: inner.x, y: inner.y + row, line: line, baseStyle: style, maxWidth: inner.width)
        }
    }
}

/// Greedy word wrap: breaks at spaces, drops the spaces at a break, splits words longer than the width.
func wrapLine(_ line: Line, width: Int) -> [Line] {
    guard width > 0 else { return [] }
    if line.width <= width { return [line] }
    // Graphemes with their styles, split into runs of spaces and of other characters.
    struct Glyph {
        var character: Character
        var style: Style
        var width: Int
    }
    var words: [(space: Bool, glyphs: [Glyph], width: Int)] = []
    for span in line.spans {
        for ch in replacingForbiddenScalars(span.text) {
            let w = displayWidth(of: ch)
            let space = ch == " "
            if let last = words.last, last.space == space {
                words[words.count - 1].glyphs.append(Glyph(character: ch, style: span.style, width: w))
                words[words.count - 1].width += w
            } else {
                words.append((space, [Glyph(character: ch, style: span.style, width: w)], w))
            }
        }
    }
    var out: [[Glyph]] = []
    var current: [Glyph] = []
    var used = 0
    var pending: [Glyph] = []  // spaces before the next word, dropped at a break
    var pendingWidth = 0
    func breakLine() {
        out.append(current)
        current = []
        used = 0
    }
    for (index, word) in words.enumerated() {
        if word.space {
            if index == 0 {
                current = Array(word.glyphs.prefix(width))  // indentation of the first line is kept
                used = current.reduce(0) { $0 + $1.width }
            } else {
                pending = word.glyphs
                pendingWidth = word.width
            }
            continue
        }
        if used > 0 && used + pendingWidth + word.width > width {
            breakLine()
        } else if used > 0 {
            current += pending
            used += pendingWidth
        }
        pending = []
        pendingWidth = 0
        var wordStart = current.count
        for g in word.glyphs {
            if used + g.width > width && used > 0 {
                // Hex with separators (`ab:cd:ef`) breaks after a separator, never inside a byte.
                var carried: [Glyph] = []
                if let colon = current[wordStart...].lastIndex(where: { $0.character == ":" }),
                    colon - wordStart >= 2, colon < current.count - 1
                {
                    carried = Array(current[(colon + 1)...])
                    current.removeSubrange((colon + 1)...)
                }
                breakLine()
                current = carried
                used = carried.reduce(0) { $0 + $1.width }
                wordStart = 0
            }
            current.append(g)
            used += g.width
        }
    }
    if !current.isEmpty || out.isEmpty { out.append(current) }
    return out.map { glyphs in
        var spans: [Span] = []
        for g in glyphs {
            if let last = spans.last, last.style == g.style {
                spans[spans.count - 1].text.append(g.character)
            } else {
                spans.append(Span(String(g.character), style: g.style))
            }
        }
        return Line(spans)
    }
}

/// Word-wraps plain text to `width` cells: breaks at spaces, hex at byte boundaries, and splits
/// only a word longer than the width.
/// - Parameters:
///   - text: The text (one paragraph).
///   - width: The width in cells.
/// - Returns: The lines; none for a width of zero.
public func wrapText(_ text: String, width: Int) -> [String] {
    wrapLine(Line(text), width: width).map { $0.spans.map(\.text).joined() }
}
