// The glyphs widgets draw, in a Unicode set and an ASCII set for terminals without UTF-8.

/// A symbol set: box drawing and marks in Unicode, or their ASCII stand-ins.
public enum Symbols: Hashable, Sendable {
    /// Box-drawing characters and ✓ ✗ • – ▶.
    case unicode
    /// `+ - |` boxes and `+ x o - >` marks, for terminals whose locale is not UTF-8.
    case ascii

    /// A passed check: ✓ or `+`.
    public var check: String { self == .unicode ? "✓" : "+" }
    /// A failed check: ✗ or `x`.
    public var cross: String { self == .unicode ? "✗" : "x" }
    /// A neutral mark (skipped, not applicable): • or `o`.
    public var bullet: String { self == .unicode ? "•" : "o" }
    /// A dash: – or `-`.
    public var dash: String { self == .unicode ? "–" : "-" }
    /// The selection pointer: ▶ or `>`.
    public var pointer: String { self == .unicode ? "▶" : ">" }
    /// An ellipsis for truncated text: … or `~`.
    public var ellipsis: String { self == .unicode ? "…" : "~" }

    /// A horizontal border line: ─ or `-`.
    public var horizontal: String { self == .unicode ? "─" : "-" }
    /// A vertical border line: │ or `|`.
    public var vertical: String { self == .unicode ? "│" : "|" }
    /// The top-left corner: ┌ or `+`.
    public var topLeft: String { self == .unicode ? "┌" : "+" }
    /// The top-right corner: ┐ or `+`.
    public var topRight: String { self == .unicode ? "┐" : "+" }
    /// The bottom-left corner: └ or `+`.
    public var bottomLeft: String { self == .unicode ? "└" : "+" }
    /// The bottom-right corner: ┘ or `+`.
    public var bottomRight: String { self == .unicode ? "┘" : "+" }
}
