import ATSModel
import TrustCore
import TrustSupport
import TrustX509

extension ATSLint {
    // MARK: - Keys and types

    /// Whether `key` looks like a misspelling of `known`: the same letters in another case, or a
    /// few edits away (a quarter of the key's length at most, three at most).
    static func close(_ key: String, to known: String) -> Bool {
        if key.lowercased() == known.lowercased() { return true }
        let allowed = min(3, max(1, known.count / 6))
        return EditDistance.between(key.lowercased(), known.lowercased(), limit: allowed) <= allowed
    }

    static func unknownKeys(
        _ entries: [PropertyListEntry], known: [String], path: [String], into out: inout [LintFinding]
    ) {
        for e in entries where !known.contains(e.key) {
            if let intended = known.first(where: { close(e.key, to: $0) }) {
                out.append(misspelt(e.key, intended, path: path + [e.key]))
            } else {
                out.append(
                    LintFinding(
                        rule: .unknownKey, severity: .warning, path: path + [e.key],
                        message: "'\(e.key)' is not an App Transport Security key here",
                        why: "ATS ignores keys it does not know, so whatever it was meant to do does not happen.",
                        fix: "Remove it, or use one of: \(known.joined(separator: ", "))."))
            }
        }
    }

    static func misspelt(_ key: String, _ intended: String, path: [String]) -> LintFinding {
        LintFinding(
            rule: .misspeltKey, severity: .error, path: path,
            message: "'\(key)' looks like a misspelling of \(intended)",
            why: "Keys are matched exactly, case included, so ATS ignores this one and its setting does not apply.",
            fix: "Write \(intended).")
    }

    static func duplicates(_ entries: [PropertyListEntry], path: [String], into out: inout [LintFinding]) {
        var seen: Set<String> = []
        for e in entries where !seen.insert(e.key).inserted {
            out.append(
                LintFinding(
                    rule: .duplicateKey, severity: .error, path: path + [e.key],
                    message: "'\(e.key)' appears more than once in the same dictionary",
                    why: "Only one of the values takes effect, and which one depends on the reader.",
                    fix: "Keep one entry and merge the settings into it."))
        }
    }

    /// A key ATS reads as a boolean. The ATS reader takes any number (YES only when it equals 1)
    /// and skips other types as if absent; NSPinnedDomains' NSIncludesSubdomains is honoured only
    /// as a boolean true (`numbersCount` false).
    static func checkBoolean(
        _ entries: [PropertyListEntry], _ key: String, path: [String], numbersCount: Bool = true,
        into out: inout [LintFinding]
    ) {
        guard let value = entries.first(where: { $0.key == key })?.value else { return }
        var number: Double?
        if case .integer(let n) = value { number = Double(n) }
        if case .real(let d) = value { number = d }
        switch value {
        case .bool: return
        case _ where number != nil && numbersCount:
            let yes = number == 1
            out.append(
                LintFinding(
                    rule: .wrongType, severity: .warning, path: path + [key],
                    message: "\(key) is \(describe(value)), not a boolean",
                    why:
                        "ATS reads a number here as YES only when it equals 1, so this means \(yes ? "YES" : "NO") by accident.",
                    fix: "Write <\(yes ? "true" : "false")/>."))
        default:
            var fix = "Write <true/> or <false/>."
            if case .string(let s) = value {
                let lower = s.lowercased()
                if ["yes", "true", "1"].contains(lower) { fix = "Write <true/> instead of the string '\(s)'." }
                if ["no", "false", "0"].contains(lower) { fix = "Write <false/> instead of the string '\(s)'." }
            }
            out.append(
                LintFinding(
                    rule: .wrongType, severity: .error, path: path + [key],
                    message: "\(key) is \(describe(value)), not a boolean",
                    why: "ATS reads this key only as a boolean and ignores any other type, so the default applies.",
                    fix: fix))
        }
    }

    static func wrongType(_ path: [String], expected: String, found: PropertyListValue) -> LintFinding {
        LintFinding(
            rule: .wrongType, severity: .error, path: path, message: "expected \(expected), found \(describe(found))",
            why: "ATS ignores a value of the wrong type, so the setting does not apply.",
            fix: "Write \(expected).")
    }

    static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .string(let s): "the string '\(InputExcerpt.quote(s))'"
        case .bool(let b): b ? "<true/>" : "<false/>"
        case .integer(let n): "the integer \(n)"
        case .real(let d): "the real \(d)"
        case .date: "a date"
        case .data: "data"
        }
    }
}
