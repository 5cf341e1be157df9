import ExplorerState
import TermUI

/// The meanings the explorer gives colour to. Views ask for a role, never for a colour, so a
/// theme file changes the look without touching code, and colour always comes with a symbol.
public enum ThemeRole: String, Hashable, Sendable, CaseIterable {
    /// The verdict bar when trusted.
    case verdictTrusted = "verdict.trusted"
    /// The verdict bar when not trusted (or no connection).
    case verdictUntrusted = "verdict.untrusted"
    /// A passed step's symbol.
    case stepPassed = "step.passed"
    /// A failed step's symbol and id.
    case stepFailed = "step.failed"
    /// A skipped step's symbol.
    case stepSkipped = "step.skipped"
    /// A not-applicable step's symbol and text.
    case stepNotApplicable = "step.na"
    /// The selected row.
    case selection
    /// Steps and text the last toggle changed.
    case changed
    /// Pane borders.
    case border
    /// Pane titles and section headings.
    case title
    /// Field labels and secondary text.
    case label
    /// Keys in the help bar.
    case key
    /// The whole screen: the colours every other role is drawn over (`-, -` keeps the
    /// terminal's own, so a theme without a background follows the terminal's).
    case screen
}

/// A style for every role: the defaults in code, overridden by an optional theme file.
public struct Theme: Hashable, Sendable {
    /// The style of each role.
    public var styles: [ThemeRole: Style]

    /// Creates a theme.
    /// - Parameter styles: The style of each role; a role left out is plain.
    public init(styles: [ThemeRole: Style]) {
        self.styles = styles
    }

    /// The style of `role` (plain when a theme leaves it out).
    public subscript(_ role: ThemeRole) -> Style { styles[role] ?? .plain }

    /// The default colours (the basic eight, so every colour terminal shows them).
    public static let standard = Theme(styles: [
        .verdictTrusted: Style(foreground: .green, modifiers: .bold),
        .verdictUntrusted: Style(foreground: .red, modifiers: .bold),
        .stepPassed: Style(foreground: .green),
        .stepFailed: Style(foreground: .red, modifiers: .bold),
        .stepSkipped: Style(foreground: .yellow),
        .stepNotApplicable: Style(modifiers: .dim),
        .selection: Style(modifiers: .reverse),
        .changed: Style(foreground: .magenta, modifiers: .bold),
        .border: Style(modifiers: .dim),
        .title: Style(modifiers: .bold),
        .label: Style(foreground: .cyan),
        .key: Style(modifiers: .bold),
        .screen: .plain,
    ])

    /// Attributes only, for monochrome terminals and NO_COLOR (htop's habit): the symbols carry
    /// the meaning, attributes the emphasis.
    public static let monochrome = Theme(styles: [
        .verdictTrusted: Style(modifiers: .bold),
        .verdictUntrusted: Style(modifiers: [.bold, .underline]),
        .stepPassed: .plain,
        .stepFailed: Style(modifiers: .bold),
        .stepSkipped: .plain,
        .stepNotApplicable: Style(modifiers: .dim),
        .selection: Style(modifiers: .reverse),
        .changed: Style(modifiers: [.bold, .underline]),
        .border: .plain,
        .title: Style(modifiers: .bold),
        .label: .plain,
        .key: Style(modifiers: .bold),
        .screen: .plain,
    ])

    /// The built-in theme named `name`: one of `builtInNames` (the files in themes/, compiled
    /// in), or `standard` and `monochrome`, the names of `default` and `mono` in code.
    /// - Parameter name: The theme's name, without `.theme`.
    /// - Returns: The theme, nil when no built-in theme has that name.
    public static func builtIn(_ name: String) -> Theme? {
        let key =
            switch name {
            case "standard": "default"
            case "monochrome": "mono"
            default: name
            }
        guard let text = builtInTexts.first(where: { $0.name == key })?.text else { return nil }
        // The texts are checked by ThemeFilesTests to parse; a broken one falls back to the
        // defaults rather than stopping the explorer.
        return (try? parse(text, over: .standard)) ?? .standard
    }

    /// A theme file's problem: the line and what is wrong.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 1-based line number.
        public var line: Int
        /// What is wrong.
        public var message: String
        /// `line N: message`.
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses a theme file over `base`: `role = foreground, background, attribute...` lines,
    /// `#` comments and blank lines. Colours are names (`red`, `bright-blue`), 0-255, or
    /// `default`/`-`; attributes are bold, dim, underline, reverse, italic.
    /// - Parameters:
    ///   - text: The file's text.
    ///   - base: The theme the file overrides.
    /// - Returns: The theme.
    /// - Throws: `ParseError` at the first line that does not parse.
    public static func parse(_ text: String, over base: Theme = .standard) throws(ParseError) -> Theme {
        var theme = base
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = line.trimmingCharacters()
            if trimmed.isEmpty { continue }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw ParseError(line: n + 1, message: "expected 'role = foreground, background, attributes'")
            }
            let name = trimmed[..<eq].trimmingCharacters()
            guard let role = ThemeRole(rawValue: String(name)) else {
                let known = ThemeRole.allCases.map(\.rawValue).joined(separator: ", ")
                throw ParseError(line: n + 1, message: "unknown role '\(name)' (roles: \(known))")
            }
            let fields = trimmed[trimmed.index(after: eq)...].split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters() }
            var style = Style()
            for (i, field) in fields.enumerated() where !field.isEmpty {
                if i < 2, let color = parseColor(field) {
                    if i == 0 { style.foreground = color } else { style.background = color }
                } else if let modifier = modifierNames[field.lowercased()] {
                    style.modifiers.insert(modifier)
                } else {
                    throw ParseError(line: n + 1, message: "'\(field)' is neither a colour nor an attribute")
                }
            }
            theme.styles[role] = style
        }
        return theme
    }

    static let modifierNames: [String: Modifiers] = [
        "bold": .bold, "dim": .dim, "underline": .underline, "reverse": .reverse, "italic": .italic,
    ]

    static let colorNames: [String: Color] = [
        "black": .black, "red": .red, "green": .green, "yellow": .yellow, "blue": .blue, "magenta": .magenta,
        "cyan": .cyan, "white": .white, "bright-black": .brightBlack, "gray": .brightBlack, "grey": .brightBlack,
        "bright-red": .brightRed, "bright-green": .brightGreen, "bright-yellow": .brightYellow,
        "bright-blue": .brightBlue, "bright-magenta": .brightMagenta, "bright-cyan": .brightCyan,
        "bright-white": .brightWhite,
    ]

    /// A colour field: `.some(nil)` for the terminal's default, nil when it is no colour.
    static func parseColor(_ text: Substring) -> Color?? {
        let t = text.lowercased()
        if t == "default" || t == "-" { return .some(nil) }
        if let c = colorNames[t] { return .some(c) }
        if let n = UInt8(t) { return .some(.indexed(n)) }
        return nil
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingCharacters() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
