// Colours and text attributes of a cell. Values only: backends map them onto what the terminal can show.

/// A terminal colour: the eight basic colours, their bright variants, or an entry of the 256-colour palette.
public enum Color: Hashable, Sendable {
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    /// An entry of the 256-colour palette (0-7 basic, 8-15 bright, 16-231 a 6x6x6 cube, 232-255 greys).
    case indexed(UInt8)

    /// The colour's index in the 256-colour palette (0-15 for the named colours).
    public var paletteIndex: Int {
        switch self {
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .brightBlack: 8
        case .brightRed: 9
        case .brightGreen: 10
        case .brightYellow: 11
        case .brightBlue: 12
        case .brightMagenta: 13
        case .brightCyan: 14
        case .brightWhite: 15
        case .indexed(let i): Int(i)
        }
    }
}

/// Text attributes that can be combined: bold, dim, underline, reverse video and italic.
public struct Modifiers: OptionSet, Hashable, Sendable {
    /// The raw bits of the set.
    public let rawValue: UInt8
    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold (or bright) text.
    public static let bold = Modifiers(rawValue: 1 << 0)
    /// Dim (faint) text.
    public static let dim = Modifiers(rawValue: 1 << 1)
    /// Underlined text.
    public static let underline = Modifiers(rawValue: 1 << 2)
    /// Foreground and background swapped.
    public static let reverse = Modifiers(rawValue: 1 << 3)
    /// Italic text, where the terminal supports it.
    public static let italic = Modifiers(rawValue: 1 << 4)
}

/// How a cell looks: colours (nil means the terminal's default) and modifiers.
public struct Style: Hashable, Sendable {
    /// The text colour, or nil for the terminal's default.
    public var foreground: Color?
    /// The background colour, or nil for the terminal's default.
    public var background: Color?
    /// Bold, dim, underline, reverse, italic.
    public var modifiers: Modifiers

    /// Creates a style; by default the terminal's colours without modifiers.
    /// - Parameters:
    ///   - foreground: The text colour, or nil for the default.
    ///   - background: The background colour, or nil for the default.
    ///   - modifiers: The attributes to apply.
    public init(foreground: Color? = nil, background: Color? = nil, modifiers: Modifiers = []) {
        self.foreground = foreground
        self.background = background
        self.modifiers = modifiers
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// This style with `other` laid over it: other's colours win where set, modifiers are combined.
    /// - Parameter other: The style to apply on top.
    /// - Returns: The combined style.
    public func patched(with other: Style) -> Style {
        Style(
            foreground: other.foreground ?? foreground,
            background: other.background ?? background,
            modifiers: modifiers.union(other.modifiers))
    }

    /// This style with the given text colour.
    /// - Parameter color: The text colour.
    /// - Returns: The changed style.
    public func foreground(_ color: Color?) -> Style {
        var s = self
        s.foreground = color
        return s
    }

    /// This style with the given background colour.
    /// - Parameter color: The background colour.
    /// - Returns: The changed style.
    public func background(_ color: Color?) -> Style {
        var s = self
        s.background = color
        return s
    }

    /// This style with the given modifiers added.
    /// - Parameter added: The modifiers to add.
    /// - Returns: The changed style.
    public func adding(_ added: Modifiers) -> Style {
        var s = self
        s.modifiers.formUnion(added)
        return s
    }
}
