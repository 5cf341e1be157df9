// A table with a header and a selected row.

/// One column of a table: its header and how wide it is.
public struct Column: Hashable, Sendable {
    /// The header text.
    public var title: Line
    /// The column's width, solved like a horizontal split.
    public var constraint: Constraint

    /// Creates a column.
    /// - Parameters:
    ///   - title: The header text.
    ///   - constraint: The width.
    public init(_ title: Line, _ constraint: Constraint) {
        self.title = title
        self.constraint = constraint
    }
}

/// Rows of cells under a header, in columns sized by constraints, one row selected and kept visible.
public struct TableView: Hashable, Sendable {
    /// The columns.
    public var columns: [Column]
    /// The rows, one line per cell; missing cells stay blank, extra ones are ignored.
    public var rows: [[Line]]
    /// The index of the selected row, if any.
    public var selected: Int?
    /// The first visible row before scrolling to the selection.
    public var offset: Int
    /// The header row's style (bold by default).
    public var headerStyle: Style
    /// The style laid over the selected row.
    public var highlightStyle: Style
    /// The marker before the selected row; other rows get as many spaces.
    public var highlightSymbol: String
    /// The blank columns between two columns.
    public var columnSpacing: Int
    /// The style every cell is laid over.
    public var style: Style
    /// A frame drawn around the table.
    public var block: Block?

    /// Creates a table.
    /// - Parameters:
    ///   - columns: The columns.
    ///   - rows: The rows.
    ///   - selected: The selected row.
    ///   - offset: The first visible row before scrolling to the selection.
    ///   - headerStyle: The header's style.
    ///   - highlightStyle: The selected row's style.
    ///   - highlightSymbol: The marker of the selected row; nil picks the pointer of `symbols`.
    ///   - columnSpacing: The blank columns between two columns.
    ///   - style: The base style.
    ///   - block: An optional frame.
    ///   - symbols: The symbol set the default marker comes from.
    public init(
        columns: [Column], rows: [[Line]], selected: Int? = nil, offset: Int = 0,
        headerStyle: Style = Style(modifiers: .bold), highlightStyle: Style = Style(modifiers: .reverse),
        highlightSymbol: String? = nil, columnSpacing: Int = 1, style: Style = .plain, block: Block? = nil,
        symbols: Symbols = .unicode
    ) {
        self.columns = columns
        self.rows = rows
        self.selected = selected
        self.offset = offset
        self.headerStyle = headerStyle
        self.highlightStyle = highlightStyle
        self.highlightSymbol = highlightSymbol ?? symbols.pointer + " "
        self.columnSpacing = columnSpacing
        self.style = style
        self.block = block
    }

    /// The first visible row when `height` rows (the header excluded) are shown.
    /// - Parameter height: The number of visible body rows.
    /// - Returns: The index of the first visible row.
    public func scrollOffset(height: Int) -> Int {
        scrollPosition(offset: offset, selected: selected, count: rows.count, height: height)
    }

    /// The columns' x positions and widths in a given area (after the marker).
    /// - Parameter area: The table's inner area.
    /// - Returns: One (x, width) pair per column.
    public func columnLayout(in area: Rect) -> [(x: Int, width: Int)] {
        let marker = displayWidth(of: highlightSymbol)
        let spacing = max(0, columnSpacing)
        let available = max(0, area.width - marker - spacing * max(0, columns.count - 1))
        var x = area.x + marker
        return solve(columns.map(\.constraint), length: available).map { w in
            defer { x += w + spacing }
            return (x, w)
        }
    }

    /// Draws the header and the visible rows, clipped to the area.
    /// - Parameters:
    ///   - buffer: The buffer to draw into.
    ///   - area: The table's area (including the block, if any).
    public func render(into buffer: inout Buffer, area: Rect) {
        block?.render(into: &buffer, area: area)
        // Laid out in the whole area; the buffer clips what falls outside it.
        let inner = block?.inner(area) ?? area
        guard !inner.intersection(buffer.area).isEmpty else { return }
        if style != .plain { buffer.setStyle(inner, style) }
        let layout = columnLayout(in: inner)
        let limit = inner.right
        func drawRow(_ cells: [Line], y: Int, base: Style) {
            for (i, column) in layout.enumerated() where i < cells.count && column.x < limit {
                buffer.set(
                    x: column.x, y: y, line: cells[i], baseStyle: base, maxWidth: min(column.width, limit - column.x))
            }
        }
        drawRow(columns.map(\.title), y: inner.y, base: style.patched(with: headerStyle))
        let bodyHeight = inner.height - 1
        guard bodyHeight > 0 else { return }
        let first = scrollOffset(height: bodyHeight)
        let padding = String(repeating: " ", count: displayWidth(of: highlightSymbol))
        for row in 0..<bodyHeight {
            let index = first + row
            guard index < rows.count else { break }
            let y = inner.y + 1 + row
            let isSelected = index == selected
            buffer.set(
                x: inner.x, y: y, string: isSelected ? highlightSymbol : padding, style: style, maxWidth: inner.width)
            drawRow(rows[index], y: y, base: style)
            if isSelected { buffer.setStyle(Rect(x: inner.x, y: y, width: inner.width, height: 1), highlightStyle) }
        }
    }
}
