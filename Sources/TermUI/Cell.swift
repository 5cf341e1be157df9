// One terminal cell, the width of a grapheme cluster, and the scalars that never reach a terminal.

/// One column of one row: a grapheme cluster and its style.
///
/// A wide character (CJK, emoji) takes two cells: the first holds the character, the second is a
/// continuation whose symbol is empty.
public struct Cell: Hashable, Sendable {
    /// One grapheme cluster, or "" for the second half of a wide character.
    public var symbol: String
    /// The cell's style.
    public var style: Style

    /// Creates a cell.
    /// - Parameters:
    ///   - symbol: One grapheme cluster ("" marks a continuation cell).
    ///   - style: The style.
    public init(symbol: String, style: Style = .plain) {
        self.symbol = symbol
        self.style = style
    }

    /// A space in the default style.
    public static let blank = Cell(symbol: " ")

    /// Whether this cell is the second half of a wide character.
    public var isContinuation: Bool { symbol.isEmpty }
}

/// The number of terminal columns a grapheme cluster takes: 0, 1 or 2.
///
/// Wide (2) are East Asian Wide and Fullwidth characters and emoji with emoji presentation; zero are
/// clusters that start with a combining mark, a format character or a control character. The width is
/// that of the first scalar, as `wcwidth` (and so ncurses) sees it.
/// - Parameter character: The grapheme cluster.
/// - Returns: Its width in columns.
public func displayWidth(of character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    return scalarWidth(first)
}

/// The number of terminal columns a string takes, the sum of its grapheme clusters' widths.
/// - Parameter string: The text.
/// - Returns: Its width in columns.
public func displayWidth(of string: String) -> Int {
    var width = 0
    var ascii = true
    for byte in string.utf8 where byte < 0x20 || byte > 0x7E {
        ascii = false
        break
    }
    if ascii { return string.utf8.count }
    for character in string { width += displayWidth(of: character) }
    return width
}

func scalarWidth(_ s: Unicode.Scalar) -> Int {
    let v = s.value
    if v >= 0x20 && v < 0x7F { return 1 }
    if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
    switch s.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if v >= 0x1160 && v <= 0x11FF { return 0 }  // Hangul medial vowels and final consonants
    if v == 0x200B { return 0 }
    return isWide(s) ? 2 : 1
}

private func isWide(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    if v < 0x1100 { return false }
    switch v {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F200...0x1F2FF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD:
        return true
    default:
        return s.properties.isEmojiPresentation
    }
}

/// Whether a scalar must never reach the terminal: C0 and C1 controls, DEL (and so ESC), line and
/// paragraph separators, and format characters, which include the bidirectional overrides and
/// isolates. Zero-width joiners and non-joiners are kept: they shape scripts and emoji, and move nothing.
func isForbidden(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    if v < 0x20 || (v >= 0x7F && v < 0xA0) { return true }
    if v < 0xA0 { return false }
    if v == 0x200C || v == 0x200D { return false }
    switch s.properties.generalCategory {
    case .format, .lineSeparator, .paragraphSeparator, .surrogate: return true
    default: return false
    }
}

/// The text with every forbidden scalar replaced by U+FFFD.
func replacingForbiddenScalars(_ text: String) -> String {
    var clean = true
    for s in text.unicodeScalars where isForbidden(s) {
        clean = false
        break
    }
    if clean { return text }
    var scalars = String.UnicodeScalarView()
    for s in text.unicodeScalars { scalars.append(isForbidden(s) ? "\u{FFFD}" : s) }
    return String(scalars)
}
