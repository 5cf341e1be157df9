import TrustSupport

// A small command-line parser following swift-argument-parser's conventions (help layout,
// messages, exit code 64), which this package cannot depend on. See docs/cli.md.

/// A named option of a command.
public struct OptionSpec: Sendable {
    /// How many values an option takes.
    public enum Arity: Sendable {
        /// No value: `--with-system-anchors`.
        case flag
        /// One value; given twice, the last one wins: `--host example.com`.
        case one
        /// One or more values up to the next option: `--chain a.pem b.pem`; may be repeated.
        case upToNextOption
        /// One value per occurrence, repeatable: `--anchor a.pem --anchor b.pem`.
        case repeated
    }

    /// The name after `--`.
    public var name: String
    /// The value's name in help (`<file>`); empty for a flag.
    public var valueName: String = ""
    /// How many values it takes.
    public var arity: Arity
    /// Whether the command refuses to run without it.
    public var isRequired = false
    /// The help text.
    public var help: String
    /// The allowed values, shown in help and enforced by the parser; empty for free text.
    public var allowedValues: [String] = []
    /// What the help shows as the default, if anything.
    public var defaultText: String?
    /// Values shell completion offers besides `allowedValues` (which the parser enforces):
    /// suggestions for free text, such as the built-in theme names.
    public var suggestedValues: [String] = []

    /// Creates an option.
    public init(
        name: String, valueName: String = "", arity: Arity, isRequired: Bool = false, help: String,
        allowedValues: [String] = [], defaultText: String? = nil, suggestedValues: [String] = []
    ) {
        self.name = name
        self.valueName = valueName
        self.arity = arity
        self.isRequired = isRequired
        self.help = help
        self.allowedValues = allowedValues
        self.defaultText = defaultText
        self.suggestedValues = suggestedValues
    }

    /// What shell completion offers for the value; derived from the spec, so that the help, the
    /// completion scripts and the man page cannot disagree.
    public var completion: ValueCompletion {
        if arity == .flag { return .none }
        if !allowedValues.isEmpty { return .values(allowedValues) }
        return ValueCompletion.forValue(named: valueName, suggestions: suggestedValues)
    }

    /// `--host <host>` (help column and error messages).
    public var label: String { arity == .flag ? "--\(name)" : "--\(name) <\(valueName)>" }

    /// The usage-line form: `--chain <file> ...`, `[--anchor <file> ...]`.
    public var synopsis: String {
        var s = label
        if arity == .upToNextOption || arity == .repeated { s += " ..." }
        return isRequired ? s : "[\(s)]"
    }

    /// The help text with allowed values and default appended, as swift-argument-parser does.
    public var fullHelp: String {
        var extras: [String] = []
        if !allowedValues.isEmpty { extras.append("values: " + allowedValues.joined(separator: ", ")) }
        if let defaultText { extras.append("default: " + defaultText) }
        return extras.isEmpty ? help : "\(help) (\(extras.joined(separator: "; ")))"
    }
}

/// What shell completion offers for an option's value or an argument.
public enum ValueCompletion: Equatable, Sendable {
    /// Nothing: the value is free text (a host, a pin, a time).
    case none
    /// File names.
    case files
    /// Directory names.
    case directories
    /// These words (and, with `alsoFiles`, file names too).
    case values([String], alsoFiles: Bool = false)

    /// The completion a value name implies: `<file>` and `<info-plist>` are files, `<directory>`
    /// a directory; `suggestions` for a name that also takes a file (`--theme`).
    public static func forValue(named valueName: String, suggestions: [String] = []) -> ValueCompletion {
        switch valueName {
        case "file", "info-plist": return .files
        case "directory": return .directories
        default: return suggestions.isEmpty ? .none : .values(suggestions, alsoFiles: true)
        }
    }
}

/// A positional argument of a command.
public struct ArgumentSpec: Sendable {
    /// Its name in help (`<target>`).
    public var valueName: String
    /// The help text.
    public var help: String
    /// Whether it may be given more than once.
    public var isRepeating = false
    /// Whether the command refuses to run without it.
    public var isRequired = true
    /// The words it takes, for completion (the command checks them itself).
    public var allowedValues: [String] = []

    /// Creates an argument.
    public init(
        valueName: String, help: String, isRepeating: Bool = false, isRequired: Bool = true,
        allowedValues: [String] = []
    ) {
        self.valueName = valueName
        self.help = help
        self.isRepeating = isRepeating
        self.isRequired = isRequired
        self.allowedValues = allowedValues
    }

    /// What shell completion offers for it.
    public var completion: ValueCompletion {
        allowedValues.isEmpty ? ValueCompletion.forValue(named: valueName) : .values(allowedValues)
    }

    /// `<target>`.
    public var label: String { "<\(valueName)>" }
    /// The usage-line form: `<target> ...`, `[<target>]`.
    public var synopsis: String {
        let s = isRepeating ? "\(label) ..." : label
        return isRequired ? s : "[\(s)]"
    }
}

/// A command's interface: what it accepts and how its help reads.
public struct CommandSpec: Sendable {
    /// `trustx check`.
    public var commandPath: String
    /// The one-sentence overview.
    public var abstract: String
    /// The paragraph after it, if any.
    public var discussion: String = ""
    /// The positional arguments.
    public var arguments: [ArgumentSpec] = []
    /// The options.
    public var options: [OptionSpec] = []
    /// The subcommands, as help lists them.
    public var subcommands: [(name: String, abstract: String)] = []
    /// The usage lines when the generated one does not fit (the root command has two forms).
    public var customUsage: [String] = []

    /// Creates a command's interface.
    public init(
        commandPath: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], subcommands: [(name: String, abstract: String)] = [], customUsage: [String] = []
    ) {
        self.commandPath = commandPath
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.customUsage = customUsage
    }

    /// The column where help texts start and the width lines wrap at (swift-argument-parser's
    /// defaults; a fixed width keeps help identical everywhere, which the tests rely on).
    public static let labelColumn = 26
    public static let width = 80

    /// The last word of the command path: `check` for `trustx check`.
    public var name: String { String(commandPath.split(separator: " ").last ?? "") }

    /// The usage line without the `USAGE:` prefix.
    public var usage: String {
        if !customUsage.isEmpty { return customUsage.joined(separator: "\n       ") }
        if !subcommands.isEmpty && options.isEmpty && arguments.isEmpty { return "\(commandPath) <subcommand>" }
        let parts = arguments.map(\.synopsis) + options.map(\.synopsis)
        return ([commandPath] + parts).joined(separator: " ")
    }

    /// The full help text, ending in a newline (printed as is, it leaves one blank line at the
    /// end, like swift-argument-parser's).
    public var help: String {
        var out = wrap("OVERVIEW: " + abstract, indent: 0) + "\n\n"
        if !discussion.isEmpty { out += wrap(discussion, indent: 0) + "\n\n" }
        out += "USAGE: \(usage)\n\n"
        var sections: [String] = []
        if !arguments.isEmpty {
            sections.append("ARGUMENTS:\n" + arguments.map { element($0.label, $0.help) }.joined())
        }
        let builtIn = [("--version", "Show the version."), ("-h, --help", "Show help information.")]
        sections.append(
            "OPTIONS:\n" + options.map { element($0.label, $0.fullHelp) }.joined()
                + builtIn.map { element($0.0, $0.1) }.joined())
        if !subcommands.isEmpty {
            sections.append("SUBCOMMANDS:\n" + subcommands.map { element($0.name, $0.abstract) }.joined())
        }
        out += sections.joined(separator: "\n")
        if !subcommands.isEmpty { out += "\n  See '\(commandPath) help <subcommand>' for detailed help.\n" }
        return out
    }

    /// `Error: …` and where to find help, for standard error: two lines, however many options
    /// the command has (the usage line of `check` alone is over 400 characters).
    public func usageError(_ message: String) -> String {
        "Error: \(message)\nSee '\(commandPath) --help' for more information.\n"
    }

    /// One help row: the label at column 2, the text from column 26 (or on the next line when
    /// the label is too wide), wrapped at 80.
    public func element(_ label: String, _ text: String) -> String {
        let padded = "  " + label
        let body = wrap(text, indent: CommandSpec.labelColumn)
        if padded.count < CommandSpec.labelColumn {
            return padded + String(body.dropFirst(padded.count)) + "\n"
        }
        return padded + "\n" + body + "\n"
    }

    /// Greedy word wrap to `width` columns with every line indented by `indent`.
    public func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if current.isEmpty {
                current = pad + word
            } else if current.count + 1 + word.count <= CommandSpec.width {
                current += " " + word
            } else {
                lines.append(current)
                current = pad + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }
}

/// A usage error: the message after `Error: `.
public struct UsageError: Error, Sendable {
    /// The message.
    public var message: String

    /// Creates a usage error.
    public init(message: String) { self.message = message }
}

/// What a command line asked for.
public enum ParseOutcome: Sendable {
    /// Run with these options and arguments.
    case run(ParsedArguments)
    /// Print the help.
    case help
    /// Print the version.
    case version
}

/// The options and arguments found, in command-line order.
public struct ParsedArguments: Sendable {
    /// One option occurrence (a flag has no value). A flat array rather than a dictionary keyed
    /// by name: the first use of `[String: [String]]` costs more at start-up, in runtime
    /// metadata, than parsing a whole command line.
    public struct Occurrence: Sendable {
        /// The option's name.
        public var name: String
        /// Its value; nil for a flag.
        public var value: String?

        /// Creates an occurrence.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// Every option occurrence, in command-line order.
    public var occurrences: [Occurrence] = []
    /// The positional arguments, in order.
    public var positionals: [String] = []

    /// No options and no arguments.
    public init() {}

    /// The last value given for `name`.
    public func value(_ name: String) -> String? { occurrences.last { $0.name == name && $0.value != nil }?.value }

    /// Every value given for `name`, in order.
    public func all(_ name: String) -> [String] { occurrences.compactMap { $0.name == name ? $0.value : nil } }

    /// Whether the flag or option `name` was given.
    public func has(_ name: String) -> Bool { occurrences.contains { $0.name == name } }
}

extension CommandSpec {
    /// Parses `args` (without the command path). `--help`, `-h` and `--version` win over
    /// everything before `--`, as in swift-argument-parser.
    public func parse(_ args: [String]) throws(UsageError) -> ParseOutcome {
        for a in args {
            if a == "--" { break }
            if a == "--help" || a == "-h" { return .help }
            if a == "--version" { return .version }
        }
        var result = ParsedArguments()
        var unexpected: [String] = []
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                if arguments.isEmpty { unexpected.append(arg) } else { result.positionals.append(arg) }
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            guard arg.hasPrefix("--") else { throw UsageError(message: "Unknown option '\(arg)'") }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError(message: "Unknown option '--\(name)'" + suggestion(for: name))
            }
            switch option.arity {
            case .flag:
                if let inline {
                    throw UsageError(
                        message: "The option '--\(name)' does not take any value, but '\(inline)' was specified.")
                }
                result.occurrences.append(.init(name: name, value: nil))
            case .one, .repeated:
                let value: String
                if let inline {
                    value = inline
                } else if i < args.count, !looksLikeOption(args[i]) {
                    value = args[i]
                    i += 1
                } else {
                    throw UsageError(message: "Missing value for '\(option.label)'")
                }
                try check(value, for: option)
                result.occurrences.append(.init(name: name, value: value))
            case .upToNextOption:
                var taken: [String] = []
                if let inline { taken.append(inline) }
                while i < args.count, !looksLikeOption(args[i]) {
                    taken.append(args[i])
                    i += 1
                }
                if taken.isEmpty { throw UsageError(message: "Missing value for '\(option.label)'") }
                for v in taken { try check(v, for: option) }
                result.occurrences += taken.map { .init(name: name, value: $0) }
            }
        }
        switch unexpected.count {
        case 0: break
        case 1: throw UsageError(message: "Unexpected argument '\(unexpected[0])'")
        default:
            throw UsageError(
                message: "\(unexpected.count) unexpected arguments: '\(unexpected.joined(separator: "', '"))'")
        }
        for option in options where option.isRequired && !result.has(option.name) {
            throw UsageError(message: "Missing expected argument '\(option.synopsis)'")
        }
        if let first = arguments.first, first.isRequired, result.positionals.isEmpty {
            throw UsageError(message: "Missing expected argument '\(first.synopsis)'")
        }
        if let only = arguments.first, !only.isRepeating, result.positionals.count > 1 {
            throw UsageError(message: "Unexpected argument '\(result.positionals[1])'")
        }
        return .run(result)
    }

    /// A value that is an option rather than an option's value: `-x`, `--x`, but not `-`
    /// (conventionally standard input) or a negative number.
    private func looksLikeOption(_ s: String) -> Bool {
        guard s.count > 1, s.hasPrefix("-") else { return false }
        let second = s.utf8.dropFirst().first!
        return !(second >= 0x30 && second <= 0x39)
    }

    private func check(_ value: String, for option: OptionSpec) throws(UsageError) {
        guard !option.allowedValues.isEmpty, !option.allowedValues.contains(value) else { return }
        let quoted = option.allowedValues.map { "'\($0)'" }
        let list =
            quoted.count <= 2
            ? quoted.joined(separator: " and ")
            : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        throw UsageError(
            message: "The value '\(value)' is invalid for '\(option.label)'. Please provide one of \(list).")
    }

    /// `. Did you mean '--host'?` when an option is one edit or a prefix away.
    private func suggestion(for name: String) -> String {
        let close =
            options.first { $0.name.hasPrefix(name) && !name.isEmpty }
            ?? options.first { EditDistance.between($0.name, name, limit: 2) <= 2 }
        return close.map { ". Did you mean '--\($0.name)'?" } ?? ""
    }

}
