// A grid of cells that widgets render into, and the difference between two frames.

/// One changed cell: what a backend has to draw at (x, y).
public struct CellUpdate: Hashable, Sendable {
    /// The column.
    public var x: Int
    /// The row.
    public var y: Int
    /// The new content; a wide character also covers column x + 1.
    public var cell: Cell

    /// Creates an update.
    /// - Parameters:
    ///   - x: The column.
    ///   - y: The row.
    ///   - cell: The new content.
    public init(x: Int, y: Int, cell: Cell) {
        self.x = x
        self.y = y
        self.cell = cell
    }
}

/// A rectangle of cells, row by row. Widgets render into it; a terminal draws the difference between
/// two of them.
///
/// Writing keeps wide characters whole: a wide character is followed by a continuation cell, and a
/// write over either half turns the other half into a space.
public struct Buffer: Hashable, Sendable {
    /// The cells the buffer covers, in screen coordinates.
    public private(set) var area: Rect
    /// The cells, row by row.
    public private(set) var cells: [Cell]

    /// Creates a buffer of blank cells.
    /// - Parameter area: The cells it covers.
    public init(area: Rect) {
        self.area = area
        self.cells = Array(repeating: .blank, count: area.area)
    }

    /// Creates a buffer of blank cells at the origin.
    /// - Parameters:
    ///   - width: The number of columns.
    ///   - height: The number of rows.
    public init(width: Int, height: Int) {
        self.init(area: Rect(x: 0, y: 0, width: width, height: height))
    }

    @inline(__always) func index(_ x: Int, _ y: Int) -> Int { (y - area.y) * area.width + (x - area.x) }

    /// The cell at (x, y); nil outside the area.
    /// - Parameters:
    ///   - x: The column.
    ///   - y: The row.
    /// - Returns: The cell.
    public func cell(x: Int, y: Int) -> Cell? {
        area.contains(x: x, y: y) ? cells[index(x, y)] : nil
    }

    /// Writes a string on one row, from column x, clipped to `maxWidth` columns and to the buffer.
    ///
    /// Control characters (C0, C1, DEL, ESC), line separators and format characters (bidirectional
    /// overrides among them) are replaced by U+FFFD: whatever the caller forgot to sanitise never
    /// reaches the terminal. A wide character that does not fit whole is not written; a combining mark
    /// stays with its base character.
    /// - Parameters:
    ///   - x: The first column.
    ///   - y: The row.
    ///   - string: The text.
    ///   - style: The style for every cell written.
    ///   - maxWidth: The most columns to use.
    /// - Returns: The number of columns the written text advanced (0 when nothing fit).
    @discardableResult
    public mutating func set(x: Int, y: Int, string: String, style: Style = .plain, maxWidth: Int = .max) -> Int {
        guard y >= area.y, y < area.bottom, x < area.right, maxWidth > 0 else { return 0 }
        let limit = maxWidth >= area.right - x ? area.right : x + maxWidth
        let rowStart = index(area.x, y)
        let rowEnd = rowStart + area.width
        var col = x
        var ascii = true
        for byte in string.utf8 where byte < 0x20 || byte > 0x7E {
            ascii = false
            break
        }
        if ascii {
            for byte in string.utf8 {
                if col >= limit { break }
                if col >= area.x {
                    replace(
                        at: rowStart + col - area.x, rowStart, rowEnd,
                        with: Cell(symbol: String(UnicodeScalar(byte)), style: style), wide: false)
                }
                col += 1
            }
            return col - x
        }
        var last: Int? = nil
        for character in replacingForbiddenScalars(string) {
            let w = displayWidth(of: character)
            if w == 0 {
                if let last { cells[last].symbol.unicodeScalars.append(contentsOf: character.unicodeScalars) }
                continue
            }
            if col + w > limit { break }
            if col >= area.x {
                let i = rowStart + col - area.x
                replace(at: i, rowStart, rowEnd, with: Cell(symbol: String(character), style: style), wide: w == 2)
                if w == 2 { replace(at: i + 1, rowStart, rowEnd, with: Cell(symbol: "", style: style), wide: false) }
                last = i
            } else if col + 1 == area.x && w == 2 {
                replace(at: rowStart, rowStart, rowEnd, with: Cell(symbol: " ", style: style), wide: false)
            }
            col += w
        }
        return col - x
    }

    /// Writes a line of styled spans on one row, from column x, clipped like `set(x:y:string:style:maxWidth:)`.
    ///
    /// A span's underline and reverse mark its words, not the spaces before and after them: an
    /// underlined or reversed blank is a mark with no text (a padded column, a placeholder), so
    /// those spaces are written in the base style laid over the span's colours. Spaces between
    /// the span's words keep them, and so does the base style (a selection bar, a widget's style).
    /// - Parameters:
    ///   - x: The first column.
    ///   - y: The row.
    ///   - line: The spans.
    ///   - baseStyle: A style each span's style is laid over.
    ///   - maxWidth: The most columns to use.
    /// - Returns: The number of columns written.
    @discardableResult
    public mutating func set(x: Int, y: Int, line: Line, baseStyle: Style = .plain, maxWidth: Int = .max) -> Int {
        var used = 0
        for span in line.spans {
            guard used < maxWidth else { break }
            let style = baseStyle.patched(with: span.style)
            guard !span.style.modifiers.isDisjoint(with: Self.blankMarks) else {
                used += set(x: x + used, y: y, string: span.text, style: style, maxWidth: maxWidth - used)
                continue
            }
            var bare = span.style
            bare.modifiers.subtract(Self.blankMarks)
            let blankStyle = baseStyle.patched(with: bare)
            // Whole characters: a space that carries a combining mark is not padding.
            let text = Substring(span.text)
            let leading = text.prefix { $0 == " " }
            let rest = text.dropFirst(leading.count)
            let trailing = rest.reversed().prefix { $0 == " " }.count
            for (part, partStyle) in [
                (leading, blankStyle), (rest.dropLast(trailing), style), (rest.suffix(trailing), blankStyle),
            ] where !part.isEmpty {
                guard used < maxWidth else { break }
                used += set(x: x + used, y: y, string: String(part), style: partStyle, maxWidth: maxWidth - used)
            }
        }
        return used
    }

    /// The modifiers that show on a blank cell, and so are not spread over a span's padding.
    static let blankMarks: Modifiers = [.underline, .reverse]

    /// Replaces one cell, turning the orphaned half of a wide character it overwrites into a space
    /// (without the underline or reverse it had: they would show on the blank).
    private mutating func replace(at i: Int, _ rowStart: Int, _ rowEnd: Int, with cell: Cell, wide: Bool) {
        let old = cells[i]
        if old.isContinuation {
            if !cell.isContinuation && i > rowStart && !cells[i - 1].isContinuation {
                cells[i - 1].symbol = " "
                cells[i - 1].style.modifiers.subtract(Self.blankMarks)
            }
        } else if !wide && i + 1 < rowEnd && cells[i + 1].isContinuation {
            cells[i + 1].symbol = " "
            cells[i + 1].style.modifiers.subtract(Self.blankMarks)
        }
        cells[i] = cell
    }

    /// Puts a cell whose symbol is one column wide and safe to draw (a border from `Symbols`),
    /// clipped to the buffer: what `set(x:y:string:style:)` does for it, without measuring and
    /// checking the same symbol again for every cell of an edge.
    mutating func setNarrow(x: Int, y: Int, _ cell: Cell) {
        guard area.contains(x: x, y: y) else { return }
        let rowStart = index(area.x, y)
        replace(at: rowStart + x - area.x, rowStart, rowStart + area.width, with: cell, wide: false)
    }

    /// Lays a style over every cell of a rectangle (clipped to the buffer), keeping the symbols.
    /// - Parameters:
    ///   - rect: The cells to restyle.
    ///   - style: The style to lay over theirs.
    public mutating func setStyle(_ rect: Rect, _ style: Style) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.bottom {
            let start = index(r.x, y)
            for i in start..<(start + r.width) { cells[i].style = cells[i].style.patched(with: style) }
        }
    }

    /// Lays a style under every cell of a rectangle (clipped to the buffer): each cell keeps its
    /// own colours and attributes and takes the style's where it sets none, as a screen's
    /// background shows through everything drawn on it.
    /// - Parameters:
    ///   - rect: The cells to restyle.
    ///   - style: The style to lay under theirs.
    public mutating func setBaseStyle(_ rect: Rect, _ style: Style) {
        let r = rect.intersection(area)
        guard !r.isEmpty, style != .plain else { return }
        for y in r.y..<r.bottom {
            let start = index(r.x, y)
            for i in start..<(start + r.width) { cells[i].style = style.patched(with: cells[i].style) }
        }
    }

    /// Fills a rectangle (clipped to the buffer) with one cell.
    /// - Parameters:
    ///   - rect: The cells to fill.
    ///   - cell: The content, a blank space by default; a wide symbol is not allowed and becomes U+FFFD.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        var cell = cell
        if let c = cell.symbol.first,
            cell.symbol.count != 1 || displayWidth(of: c) != 1 || isForbidden(c.unicodeScalars.first!)
        {
            cell.symbol = "\u{FFFD}"
        } else if cell.symbol.isEmpty {
            cell.symbol = " "
        }
        for y in r.y..<r.bottom {
            let rowStart = index(area.x, y)
            let rowEnd = rowStart + area.width
            let start = index(r.x, y)
            for i in start..<(start + r.width) { replace(at: i, rowStart, rowEnd, with: cell, wide: false) }
        }
    }

    /// Fills the whole buffer with blank cells.
    public mutating func reset() {
        for i in cells.indices { cells[i] = .blank }
    }

    /// The text of each row, wide characters once, trailing spaces trimmed: a snapshot for tests.
    /// - Returns: One string per row.
    public func lines() -> [String] {
        (0..<area.height).map { row in
            var text = ""
            let start = row * area.width
            for i in start..<(start + area.width) { text += cells[i].symbol }
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// The look of each cell as text, one character per cell, for tests that compare styles as
    /// well as text: the legend's character for the cell's style, `.` for the plain style (unless
    /// the legend names it) and `?` for any other. Continuation cells are left out, so a row's
    /// characters line up with those of `lines()`; trailing `.` are trimmed.
    /// - Parameter legend: A character for each style of interest.
    /// - Returns: One string per row.
    public func styleLines(_ legend: [Style: Character]) -> [String] {
        (0..<area.height).map { row in
            var text = ""
            let start = row * area.width
            for cell in cells[start..<(start + area.width)] where !cell.isContinuation {
                text.append(legend[cell.style] ?? (cell.style == .plain ? "." : "?"))
            }
            while text.last == "." { text.removeLast() }
            return text
        }
    }

    /// The cells that differ from `previous`, row by row, left to right; every cell when the areas
    /// differ. Continuation cells are never listed: the wide character before them covers them.
    /// - Parameter previous: The frame on the screen.
    /// - Returns: The updates that turn `previous` into this buffer.
    public func diff(from previous: Buffer) -> [CellUpdate] {
        var updates = [CellUpdate]()
        let same = previous.area == area
        for row in 0..<area.height {
            let start = row * area.width
            for col in 0..<area.width {
                let cell = cells[start + col]
                if cell.isContinuation { continue }
                if !same || cell != previous.cells[start + col] || isChangedWide(start + col, previous) {
                    updates.append(CellUpdate(x: area.x + col, y: area.y + row, cell: cell))
                }
            }
        }
        return updates
    }

    /// A wide character whose continuation cell changed needs drawing again (its style may differ).
    private func isChangedWide(_ i: Int, _ previous: Buffer) -> Bool {
        i + 1 < cells.count && cells[i + 1].isContinuation && cells[i + 1] != previous.cells[i + 1]
    }
}
