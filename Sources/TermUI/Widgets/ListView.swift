// A scrolling list with one selected item.

/// A vertical list of one-line items, one of them selected, scrolled to keep the selection visible.
///
/// Every row starts with room for the selection marker, so the text does not move when the
/// selection does.
public struct ListView: Hashable, Sendable {
    /// The items, one line each.
    public var items: [Line]
    /// The index of the selected item, if any.
    public var selected: Int?
    /// The first visible item before scrolling to the selection (keep the returned `scrollOffset`
    /// here between frames so the list does not jump).
    public var offset: Int
    /// The style laid over the selected row, across the whole width.
    public var highlightStyle: Style
    /// The marker before the selected item (`▶ ` by default); other rows get as many spaces.
    public var highlightSymbol: String
    /// The style every item is laid over.
    public var style: Style
    /// A frame drawn around the list.
    public var block: Block?

    /// Creates a list.
    /// - Parameters:
    ///   - items: The items.
    ///   - selected: The selected index.
    ///   - offset: The first visible item before scrolling to the selection.
    ///   - highlightStyle: The style of the selected row (reverse video by default).
    ///   - highlightSymbol: The marker before the selected item; nil picks the pointer of `symbols`.
    ///   - style: The base style.
    ///   - block: An optional frame.
    ///   - symbols: The symbol set the default marker comes from.
    public init(
        _ items: [Line], selected: Int? = nil, offset: Int = 0, highlightStyle: Style = Style(modifiers: .reverse),
        highlightSymbol: String? = nil, style: Style = .plain, block: Block? = nil, symbols: Symbols = .unicode
    ) {
        self.items = items
        self.selected = selected
        self.offset = offset
        self.highlightStyle = highlightStyle
        self.highlightSymbol = highlightSymbol ?? symbols.pointer + " "
        self.style = style
        self.block = block
    }

    /// The first visible item when `height` rows are shown: `offset`, moved just enough to show the
    /// selection, and never past the end.
    /// - Parameter height: The number of visible rows.
    /// - Returns: The index of the first visible item.
    public func scrollOffset(height: Int) -> Int {
        scrollPosition(offset: offset, selected: selected, count: items.count, height: height)
    }

    /// Draws the visible items, clipped to the area.
    /// - Parameters:
    ///   - buffer: The buffer to draw into.
    ///   - area: The list's area (including the block, if any).
    /// - Returns: The first visible item, as `scrollOffset` gives it: what the frame showed, for
    ///   the caller to keep as the next frame's `offset` (ratatui's stateful widgets) and to find
    ///   which item a row shows.
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Int {
        block?.render(into: &buffer, area: area)
        // Laid out in the whole area; the buffer clips what falls outside it.
        let inner = block?.inner(area) ?? area
        let first = scrollOffset(height: inner.height)
        guard !inner.intersection(buffer.area).isEmpty else { return first }
        if style != .plain { buffer.setStyle(inner, style) }
        let markerWidth = displayWidth(of: highlightSymbol)
        let padding = String(repeating: " ", count: markerWidth)
        for row in 0..<inner.height {
            let index = first + row
            guard index < items.count else { break }
            let y = inner.y + row
            let isSelected = index == selected
            let used = buffer.set(
                x: inner.x, y: y, string: isSelected ? highlightSymbol : padding, style: style, maxWidth: inner.width)
            buffer.set(x: inner.x + used, y: y, line: items[index], baseStyle: style, maxWidth: inner.width - used)
            if isSelected { buffer.setStyle(Rect(x: inner.x, y: y, width: inner.width, height: 1), highlightStyle) }
        }
        return first
    }
}

/// The first visible row of a scrolled list so the selection shows, moving as little as possible.
func scrollPosition(offset: Int, selected: Int?, count: Int, height: Int) -> Int {
    guard height > 0, count > 0 else { return 0 }
    var first = min(max(0, offset), max(0, count - height))
    if let selected, selected >= 0, selected < count {
        if selected < first { first = selected }
        if selected >= first + height { first = selected - height + 1 }
    }
    return first
}
