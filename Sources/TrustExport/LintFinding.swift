import TrustSupport

/// One problem `trustx lint` found in an Info.plist's App Transport Security configuration.
public struct LintFinding: Hashable, Sendable {
    /// How bad it is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// The configuration does not do what it says, or turns protection off.
        case error
        /// It works, but weakens security or will break.
        case warning
        /// Worth knowing; nothing is wrong today.
        case note

        /// Errors first.
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
        var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }
    }

    /// The rule that found it.
    public var lintRule: LintRule
    /// The rule's identifier (`arbitrary-loads`), stable for scripts and suppressions.
    public var rule: String { lintRule.rawValue }
    /// How bad it is.
    public var severity: Severity
    /// Where: keys from the plist's root and array indices, e.g.
    /// `["NSAppTransportSecurity", "NSPinnedDomains", "example.com", "NSPinnedLeafIdentities"]`.
    public var path: [String]
    /// What was found, in one line.
    public var message: String
    /// Why it matters, in one sentence.
    public var why: String
    /// What to do instead.
    public var fix: String

    /// Creates a finding.
    public init(rule: LintRule, severity: Severity, path: [String], message: String, why: String, fix: String) {
        // Keys and values come from the Info.plist being linted: each is quoted at a bounded size
        // here, once, so no rule can echo a megabyte key back to the terminal or a CI log.
        self.lintRule = rule
        self.severity = severity
        self.path = path.map { InputExcerpt.quote($0) }
        self.message = InputExcerpt.quote(message, limit: Self.textLimit)
        self.why = InputExcerpt.quote(why, limit: Self.textLimit)
        self.fix = InputExcerpt.quote(fix, limit: Self.textLimit)
    }

    /// The most bytes of a finding's message, reason or fix: room for two quoted keys and the rule's
    /// own words.
    static let textLimit = 600

    /// The key path with dots between keys and `[i]` for array elements:
    /// `NSAppTransportSecurity.NSPinnedDomains.example.com.NSPinnedLeafIdentities[0]`.
    public var keyPath: String {
        var out = ""
        for part in path {
            if part.hasPrefix("[") {
                out += part
            } else {
                out += (out.isEmpty ? "" : ".") + part
            }
        }
        return out
    }
}
