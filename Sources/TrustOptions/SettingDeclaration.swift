import ATSModel
import TrustCore
import TrustSupport
import TrustX509

/// What a setting's reader asks of a parsed command line (the option names without `--`).
public protocol SettingArguments {
    /// Whether the option was given.
    func has(_ name: String) -> Bool
    /// The option's value (the last, when given twice).
    func value(_ name: String) -> String?
    /// Every value of a repeated option, in order.
    func all(_ name: String) -> [String]
}

/// A value the command line's parser let through that the setting refuses: a usage error.
public struct SettingError: Error, Sendable, Equatable {
    /// The message, as the command line prints it.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }
}

/// One command-line option of a setting: what help, the man page and completion show.
public struct SettingOption: Sendable, Equatable {
    /// How many values the option takes.
    public enum Arity: Sendable, Equatable {
        /// No value.
        case flag
        /// One value; the last given wins.
        case one
        /// One value per occurrence, repeatable.
        case repeated
    }

    /// The name without `--`.
    public var name: String
    /// The value's name in help (`<host>`); empty for a flag.
    public var valueName: String
    /// How many values it takes.
    public var arity: Arity
    /// The help sentence.
    public var help: String
    /// The value words the parser accepts and completion offers; empty for free text.
    public var allowedValues: [String]
    /// What help shows as the default.
    public var defaultText: String?
    /// Words completion offers beside files for a free value (`--store apple`).
    public var suggestedValues: [String]

    /// Declares an option.
    public init(
        _ name: String, valueName: String = "", arity: Arity, help: String, allowedValues: [String] = [],
        defaultText: String? = nil, suggestedValues: [String] = []
    ) {
        self.suggestedValues = suggestedValues
        self.name = name
        self.valueName = valueName
        self.arity = arity
        self.help = help
        self.allowedValues = allowedValues
        self.defaultText = defaultText
    }

    /// `--name`, as commands and messages write it.
    public var flag: String { "--" + name }
}

/// What a setting's reader knows of the target: its host decides the policy's default host,
/// its scheme what ATS evaluates.
public struct SettingTarget: Sendable {
    /// The server target's host; nil for files or no target.
    public var host: String?
    /// The target as typed; nil for files or no target.
    public var text: String?

    /// Creates a target.
    public init(host: String? = nil, text: String? = nil) {
        self.host = host
        self.text = text
    }
}

/// How a copied command is written for the target it reproduces.
public struct SettingContext {
    /// Whether the target is a server (its host is then the default host to check).
    public var isServer: Bool
    /// The target's own host; empty for files.
    public var targetHost: String
    /// The session's "now": a time equal to it is not written.
    public var now: Timestamp?
    /// How a file the settings name is written (absolutely, for the explorer's copied command).
    public var path: @Sendable (String) -> String

    /// Creates a context.
    public init(
        isServer: Bool, targetHost: String, now: Timestamp? = nil, path: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.isServer = isServer
        self.targetHost = targetHost
        self.now = now
        self.path = path
    }
}

/// One setting of `CheckSettings` with its command-line spelling: its options, how a parsed
/// command line sets it, and how a value is written back as options (the copied command, the
/// lab's variations). A setting is added here and nowhere else on the command line's side.
public struct CheckSetting: Sendable {
    /// The options, in help order.
    public let options: [SettingOption]
    let reader: @Sendable (inout CheckSettings, any SettingArguments, _ target: SettingTarget) throws -> Void
    let writer: @Sendable (CheckSettings, SettingContext) -> [String]
    /// The setting's switch in the JSON report's `settings`, nil when the report writes the
    /// setting's value itself (policy, anchors, time: values with a shape of their own).
    public let reported: ReportedSwitch?

    init(
        _ options: [SettingOption],
        read: @escaping @Sendable (inout CheckSettings, any SettingArguments, _ target: SettingTarget) throws -> Void,
        write: @escaping @Sendable (CheckSettings, SettingContext) -> [String],
        report: ReportedSwitch? = nil
    ) {
        self.options = options
        self.reader = read
        self.writer = write
        self.reported = report
    }

    /// The one option of a single-option setting.
    public var option: SettingOption { options[0] }

    /// Sets `settings` from a parsed command line.
    /// - Parameters:
    ///   - settings: The settings to change.
    ///   - arguments: The command line.
    ///   - target: The target the command line names.
    public func read(into settings: inout CheckSettings, from arguments: any SettingArguments, target: SettingTarget)
        throws(SettingError)
    {
        do {
            try reader(&settings, arguments, target)
        } catch let e as SettingError {
            throw e
        } catch {
            throw SettingError("\(error)")
        }
    }

    /// The options that give `settings`' value of this setting; empty for the default.
    public func arguments(_ settings: CheckSettings, _ context: SettingContext) -> [String] {
        writer(settings, context)
    }
}

/// An on/off setting as the JSON report names it: its key and its value in the settings the
/// engine evaluated with, declared beside the setting's options so that the report needs no
/// line of its own for it (D362).
public struct ReportedSwitch: Sendable {
    /// The key in the report's `settings` object.
    public let key: String
    let read: @Sendable (TrustSettings) -> Bool

    init(_ key: String, _ read: @escaping @Sendable (TrustSettings) -> Bool) {
        self.key = key
        self.read = read
    }

    /// The switch's value in `settings`.
    public func value(_ settings: TrustSettings) -> Bool { read(settings) }
}
