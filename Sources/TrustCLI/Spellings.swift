// The words the command line takes for formats and policies, each spelled once.

import CommandLineSpec
import TrustCore
import TrustExport

/// How a report command prints (`--format`) for check and the commands like it (ats, diff, lab,
/// lint, store): each format's one spelling is its raw value, which parsing, the help, the man
/// page and the completions all read through `option(_:help:)`.
enum ReportFormat: String, CaseIterable, Sendable {
    /// For a person at a terminal: the default.
    case text
    /// For a program: JSON (docs/json-report.md for check's).
    case json
    /// For a pull request or a wiki page: check's Markdown.
    case markdown
    /// For a CI system: check's JUnit XML, one testcase per target and address (D410).
    case junit

    /// What the commands other than check print: text or JSON.
    static let textOrJSON: [ReportFormat] = [.text, .json]

    /// `--format` taking `formats`, text by default.
    static func option(_ formats: [ReportFormat], help: String) -> OptionSpec {
        OptionSpec(
            name: "format", valueName: "format", arity: .one, help: help, allowedValues: formats.map(\.rawValue),
            defaultText: ReportFormat.text.rawValue)
    }

    /// The format `--format` names in `p`, text without one. The parser has already held the
    /// value to the option's allowed spellings, so every value it lets through is a case.
    init(_ p: ParsedArguments) {
        self = p.value("format").flatMap(ReportFormat.init(rawValue:)) ?? .text
    }
}

extension ExportFormat {
    /// The exports as `export`'s `<format>` argument spells them, in the help's order.
    static let spellings = allCases.map(\.rawValue)

    /// The spellings as a message lists them: `'swift', 'plist', 'curl' or 'openssl'`.
    static var spellingsInWords: String {
        let quoted = spellings.map { "'\($0)'" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
    }
}
