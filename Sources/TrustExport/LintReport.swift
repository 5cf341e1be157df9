import TrustCore
import TrustReport

/// `trustx lint`'s findings as text for people and JSON for CI.
public enum LintReport {
    /// Findings grouped by severity, each with its key path, rule, message, why and fix.
    /// - Parameters:
    ///   - findings: What `ATSLint.lint` found.
    ///   - file: The linted file's name, for the heading.
    /// - Returns: Text ending in a newline; attacker-written keys are not sanitised here (the
    ///   caller does that for a terminal).
    public static func text(_ findings: [LintFinding], file: String) -> String {
        guard !findings.isEmpty else { return "\(file): no findings\n" }
        var out = "\(file): \(summary(findings))\n"
        for f in findings {
            out += "\n\(f.severity.rawValue)  \(f.keyPath.isEmpty ? "(root)" : f.keyPath)  [\(f.rule)]\n"
            out += "  \(f.message)\n"
            out += "  why: \(f.why)\n"
            out += "  fix: \(f.fix)\n"
        }
        return out
    }

    /// `3 findings (2 errors, 1 warning)`.
    public static func summary(_ findings: [LintFinding]) -> String {
        var parts: [String] = []
        for severity in [LintFinding.Severity.error, .warning, .note] {
            let n = findings.filter { $0.severity == severity }.count
            if n > 0 { parts.append("\(n) \(severity.rawValue)\(n == 1 ? "" : "s")") }
        }
        return "\(findings.count) finding\(findings.count == 1 ? "" : "s") (\(parts.joined(separator: ", ")))"
    }

    /// `{"file":…,"findings":[{"rule":…,"severity":…,"path":…,"keys":[…],"message":…,"why":…,"fix":…}],
    /// "counts":{"error":n,"warning":n,"note":n}}`, one object, ending in a newline.
    public static func json(_ findings: [LintFinding], file: String) -> String {
        var items: [String] = []
        for f in findings {
            let keys = f.path.map(quote).joined(separator: ",")
            items.append(
                "{\"rule\":\(quote(f.rule)),\"severity\":\(quote(f.severity.rawValue)),\"path\":\(quote(f.keyPath)),"
                    + "\"keys\":[\(keys)],\"message\":\(quote(f.message)),\"why\":\(quote(f.why)),\"fix\":\(quote(f.fix))}"
            )
        }
        let counts = [LintFinding.Severity.error, .warning, .note].map { s in
            "\(quote(s.rawValue)):\(findings.filter { $0.severity == s }.count)"
        }
        return "{\"file\":\(quote(file)),\"findings\":[\(items.joined(separator: ","))],"
            + "\"counts\":{\(counts.joined(separator: ","))}}\n"
    }

    /// A JSON string literal, escaped as the reports escape theirs.
    static func quote(_ text: String) -> String { JSONWriter.quoted(text) }
}
