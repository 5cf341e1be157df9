// The one-line help bar.

/// One entry of the help bar: a key and what it does.
public struct KeyHint: Hashable, Sendable {
    /// The key, as shown (`q`, `↑↓`, `Enter`).
    public var key: String
    /// What it does (`quit`).
    public var action: String

    /// Creates a hint.
    /// - Parameters:
    ///   - key: The key, as shown.
    ///   - action: What it does.
    public init(key: String, action: String) {
        self.key = key
        self.action = action
    }
}

/// A one-line help bar, `q quit  ↑↓ move  ? help`, with as many whole hints as fit.
public struct KeyHints: Hashable, Sendable {
    /// The hints, most important first: the ones that do not fit are dropped from the end.
    public var hints: [KeyHint]
    /// The style of the keys (bold by default).
    public var keyStyle: Style
    /// The style of the actions.
    public var actionStyle: Style
    /// The text between two hints.
    public var separator: String

    /// Creates a help bar from (key, action) pairs.
    /// - Parameters:
    ///   - hints: The hints, most important first.
    ///   - keyStyle: The keys' style.
    ///   - actionStyle: The actions' style.
    ///   - separator: The text between two hints (two spaces by default).
    public init(
        _ hints: [(key: String, action: String)], keyStyle: Style = Style(modifiers: .bold),
        actionStyle: Style = .plain, separator: String = "  "
    ) {
        self.hints = hints.map { KeyHint(key: $0.key, action: $0.action) }
        self.keyStyle = keyStyle
        self.actionStyle = actionStyle
        self.separator = separator
    }

    /// Draws the hints that fit whole on the area's first row.
    /// - Parameters:
    ///   - buffer: The buffer to draw into.
    ///   - area: The bar's area (only its first row is used).
    public func render(into buffer: inout Buffer, area: Rect) {
        let area = area.intersection(buffer.area)
        guard !area.isEmpty else { return }
        var x = area.x
        let gap = displayWidth(of: separator)
        for (i, hint) in hints.enumerated() {
            let lead = i == 0 ? 0 : gap
            let width = lead + displayWidth(of: hint.key) + 1 + displayWidth(of: hint.action)
            guard x + width <= area.right else { break }
            if lead > 0 { x += buffer.set(x: x, y: area.y, string: separator, style: actionStyle) }
            x += buffer.set(x: x, y: area.y, string: hint.key, style: keyStyle)
            x += buffer.set(x: x, y: area.y, string: " " + hint.action, style: actionStyle)
        }
    }
}
