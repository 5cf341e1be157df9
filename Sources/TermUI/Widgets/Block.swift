// A frame around a pane: borders, a title, and a look for the focused pane.

/// Which sides of a block have a border.
public struct Borders: OptionSet, Hashable, Sendable {
    /// The raw bits of the set.
    public let rawValue: UInt8
    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The top side.
    public static let top = Borders(rawValue: 1 << 0)
    /// The bottom side.
    public static let bottom = Borders(rawValue: 1 << 1)
    /// The left side.
    public static let left = Borders(rawValue: 1 << 2)
    /// The right side.
    public static let right = Borders(rawValue: 1 << 3)
    /// All four sides.
    public static let all: Borders = [.top, .bottom, .left, .right]
}

/// A bordered frame with an optional title on its top border.
///
/// ```
/// ┌Chain──────┐
/// │           │
/// └───────────┘
/// ```
public struct Block: Hashable, Sendable {
    /// The title, drawn on the top border from the second column.
    public var title: Line?
    /// The sides that have a border.
    public var borders: Borders
    /// The style of the border when the block is not focused.
    public var borderStyle: Style
    /// The style laid over the border and title when the block is focused.
    public var focusedStyle: Style
    /// Whether the block is the focused pane.
    public var isFocused: Bool
    /// The style laid over every cell inside the block, borders included.
    public var style: Style
    /// Box drawing or ASCII.
    public var symbols: Symbols

    /// Creates a block.
    /// - Parameters:
    ///   - title: The title on the top border.
    ///   - borders: The sides with a border (all by default).
    ///   - borderStyle: The border's style.
    ///   - focusedStyle: The style laid over the border and title when focused (bold by default).
    ///   - isFocused: Whether the block is focused.
    ///   - style: The style of the whole area.
    ///   - symbols: Box drawing or ASCII.
    public init(
        title: Line? = nil, borders: Borders = .all, borderStyle: Style = .plain,
        focusedStyle: Style = Style(foreground: .cyan, modifiers: .bold), isFocused: Bool = false,
        style: Style = .plain, symbols: Symbols = .unicode
    ) {
        self.title = title
        self.borders = borders
        self.borderStyle = borderStyle
        self.focusedStyle = focusedStyle
        self.isFocused = isFocused
        self.style = style
        self.symbols = symbols
    }

    /// The area inside the borders.
    /// - Parameter area: The block's area.
    /// - Returns: What is left for the content (possibly empty).
    public func inner(_ area: Rect) -> Rect {
        var r = area
        if borders.contains(.left) && r.width > 0 {
            r.x += 1
            r.width -= 1
        }
        if borders.contains(.right) && r.width > 0 { r.width -= 1 }
        if borders.contains(.top) && r.height > 0 {
            r.y += 1
            r.height -= 1
        }
        if borders.contains(.bottom) && r.height > 0 { r.height -= 1 }
        return r
    }

    /// Draws the borders and title, clipped to the buffer. When the area is one row high the top border
    /// wins over the bottom one, and when one column wide the left over the right.
    /// - Parameters:
    ///   - buffer: The buffer to draw into.
    ///   - area: The block's area.
    public func render(into buffer: inout Buffer, area: Rect) {
        let visible = area.intersection(buffer.area)
        guard !visible.isEmpty else { return }
        if style != .plain { buffer.setStyle(visible, style) }
        var edge = style.patched(with: borderStyle)
        if isFocused { edge = edge.patched(with: focusedStyle) }
        let s = symbols
        let lastX = area.right - 1
        let lastY = area.bottom - 1
        let top = borders.contains(.top)
        let left = borders.contains(.left)
        let bottom = borders.contains(.bottom) && !(top && lastY == area.y)
        let right = borders.contains(.right) && !(left && lastX == area.x)
        // The symbols are TermUI's own, each one column wide and printable.
        func put(_ x: Int, _ y: Int, _ symbol: String) {
            buffer.setNarrow(x: x, y: y, Cell(symbol: symbol, style: edge))
        }
        if top { for x in visible.x..<visible.right { put(x, area.y, s.horizontal) } }
        if bottom { for x in visible.x..<visible.right { put(x, lastY, s.horizontal) } }
        if left { for y in visible.y..<visible.bottom { put(area.x, y, s.vertical) } }
        if right { for y in visible.y..<visible.bottom { put(lastX, y, s.vertical) } }
        if top && left { put(area.x, area.y, s.topLeft) }
        if top && right { put(lastX, area.y, s.topRight) }
        if bottom && left { put(area.x, lastY, s.bottomLeft) }
        if bottom && right { put(lastX, lastY, s.bottomRight) }
        if let title, top {
            let x = area.x + (left ? 1 : 0)
            let width = area.width - (left ? 1 : 0) - (right ? 1 : 0)
            var titleStyle = style
            if isFocused { titleStyle = titleStyle.patched(with: focusedStyle) }
            buffer.set(x: x, y: area.y, line: title, baseStyle: titleStyle, maxWidth: width)
        }
    }
}
