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

    /// Draws the borders and title, clipped to the area and the buffer.
    /// - Parameters:
    ///   - buffer: The buffer to draw into.
    ///   - area: The block's area.
    public func render(into buffer: inout Buffer, area: Rect) {
        let area = area.intersection(buffer.area)
        guard !area.isEmpty else { return }
        if style != .plain { buffer.setStyle(area, style) }
        var edge = style.patched(with: borderStyle)
        if isFocused { edge = edge.patched(with: focusedStyle) }
        let s = symbols
        let (l, r, t, b) = (
            borders.contains(.left), borders.contains(.right), borders.contains(.top), borders.contains(.bottom)
        )
        let lastX = area.right - 1
        let lastY = area.bottom - 1
        if t {
            for x in area.x..<area.right { buffer.set(x: x, y: area.y, string: s.horizontal, style: edge) }
        }
        if b {
            for x in area.x..<area.right { buffer.set(x: x, y: lastY, string: s.horizontal, style: edge) }
        }
        if l {
            for y in area.y..<area.bottom { buffer.set(x: area.x, y: y, string: s.vertical, style: edge) }
        }
        if r {
            for y in area.y..<area.bottom { buffer.set(x: lastX, y: y, string: s.vertical, style: edge) }
        }
        if t && l { buffer.set(x: area.x, y: area.y, string: s.topLeft, style: edge) }
        if t && r { buffer.set(x: lastX, y: area.y, string: s.topRight, style: edge) }
        if b && l { buffer.set(x: area.x, y: lastY, string: s.bottomLeft, style: edge) }
        if b && r { buffer.set(x: lastX, y: lastY, string: s.bottomRight, style: edge) }
        if let title, t {
            let x = area.x + (l ? 1 : 0)
            let width = area.width - (l ? 1 : 0) - (r ? 1 : 0)
            var titleStyle = style
            if isFocused { titleStyle = titleStyle.patched(with: focusedStyle) }
            buffer.set(x: x, y: area.y, line: title, baseStyle: titleStyle, maxWidth: width)
        }
    }
}
