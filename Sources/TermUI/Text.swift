// Styled text: a span is a run of one style, a line a row of spans.

/// A run of text in one style.
public struct Span: Hashable, Sendable {
    /// The text; control characters are replaced when it is written into a buffer.
    public var text: String
    /// The style of the whole run.
    public var style: Style

    /// Creates a span.
    /// - Parameters:
    ///   - text: The text.
    ///   - style: Its style (plain by default).
    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// The number of terminal columns the text takes once written (control characters count as the
    /// U+FFFD that replaces them).
    public var width: Int { displayWidth(of: replacingForbiddenScalars(text)) }
}

/// One line of styled text, made of spans.
public struct Line: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The spans, left to right.
    public var spans: [Span]

    /// Creates a line from spans.
    /// - Parameter spans: The spans, left to right.
    public init(_ spans: [Span]) { self.spans = spans }

    /// Creates a line of one span.
    /// - Parameters:
    ///   - text: The text.
    ///   - style: Its style.
    public init(_ text: String, style: Style = .plain) { self.spans = [Span(text, style: style)] }

    /// Creates a plain line from a string literal.
    /// - Parameter value: The text.
    public init(stringLiteral value: String) { self.spans = [Span(value)] }

    /// The number of terminal columns the line takes.
    public var width: Int { spans.reduce(0) { $0 + $1.width } }

    /// The text without styles.
    public var plainText: String { spans.map(\.text).joined() }
}
