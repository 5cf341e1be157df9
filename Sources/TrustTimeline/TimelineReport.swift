import TrustCore
import TrustReport
import TrustSupport

/// A timeline as text (after the report, for a terminal), as the report's JSON `timeline` and as
/// Markdown. Causes name certificates as they name themselves: every text form escapes them.
public enum TimelineReport {
    /// The text section, ending in a newline: one line per change, the report's time marked
    /// between the changes before it and those after.
    public static func text(_ t: Timeline, options: TextReport.Options = TextReport.Options()) -> String {
        func clean(_ s: String) -> String {
            options.unicode
                ? TerminalSanitizer.sanitize(s) : TerminalSanitizer.sanitize(TextReport.asciiFold(s), asciiOnly: true)
        }
        func paint(_ s: String, _ tone: TextReport.Tone) -> String {
            guard let m = options.styling.marks[tone] else { return s }
            return m.before + s + m.after
        }
        let plural = t.boundaries.count == 1 ? "boundary" : "boundaries"
        var out =
            "\nTimeline: where the verdict changes under these settings (\(t.boundaries.count) \(plural), \(t.evaluations) evaluations)\n"
        if t.entries.isEmpty {
            out += "  No change: \(t.trustedNow ? "trusted" : "not trusted") at every boundary.\n"
        }
        var marked = false
        let nowLine =
            "  \(options.unicode ? "──" : "--") \(t.time.rfc3339) evaluation time \(options.unicode ? "──" : "--")\n"
        for e in t.entries {
            if !marked && e.at > t.time {
                out += nowLine
                marked = true
            }
            let symbol = paint(
                e.trusted ? (options.unicode ? "✓" : "+") : (options.unicode ? "✗" : "x"),
                e.trusted ? .trusted : .notTrusted)
            let verdict = e.trusted ? "trusted" : "\(e.osstatusName) (\(e.osstatus))"
            out +=
                "  \(e.at.rfc3339)  \(symbol) \(verdict): \(clean(e.cause.isEmpty ? "no boundary named" : e.cause))\n"
        }
        if !marked && !t.entries.isEmpty { out += nowLine }
        if let why = t.incomplete { out += "  Incomplete: \(why); changes further away were not looked for.\n" }
        return out
    }

    /// The `timeline` array of the JSON report: one object per change, oldest first.
    public static func json(_ t: Timeline) -> JSONValue {
        .array(
            t.entries.map { e in
                .object([
                    ("at", .string(e.at.rfc3339)),
                    ("trusted", .bool(e.trusted)),
                    ("osstatus", .int(Int(e.osstatus))),
                    ("osstatusName", .string(e.osstatusName)),
                    ("decisiveStep", .string(e.decisiveStep?.rawValue)),
                    ("cause", .string(e.cause)),
                    ("boundaries", .array(e.causes.map(boundary))),
                ])
            })
    }

    /// The `timelineSearch` object beside it: what was evaluated and whether it was complete.
    public static func searchJSON(_ t: Timeline) -> JSONValue {
        .object([
            ("time", .string(t.time.rfc3339)),
            ("trustedNow", .bool(t.trustedNow)),
            ("boundaries", .int(t.boundaries.count)),
            ("evaluations", .int(t.evaluations)),
            ("incomplete", .string(t.incomplete)),
        ])
    }

    static func boundary(_ b: TimelineBoundary) -> JSONValue {
        .object([
            ("kind", .string(b.kind.rawValue)), ("instant", .string(b.instant.rfc3339)), ("what", .string(b.what)),
        ])
    }

    /// The report's JSON document with `timeline` and `timelineSearch` added at its end; any
    /// other value is returned as it is.
    public static func adding(_ t: Timeline, to document: JSONValue) -> JSONValue {
        guard case .object(let members) = document else { return document }
        return .object(members + [("timeline", json(t)), ("timelineSearch", searchJSON(t))])
    }

    /// A Markdown section: a table of the changes.
    public static func markdown(_ t: Timeline) -> String {
        var out = "\n## Timeline\n\n"
        if t.entries.isEmpty { return out + "No change at any of \(t.boundaries.count) boundaries.\n" }
        out += "| at | verdict | cause |\n|---|---|---|\n"
        for e in t.entries {
            let verdict = e.trusted ? "trusted" : "\(e.osstatusName) (\(e.osstatus))"
            out += "| \(e.at.rfc3339) | \(MarkdownReport.escape(verdict)) | \(MarkdownReport.escape(e.cause)) |\n"
        }
        if let why = t.incomplete { out += "\nIncomplete: \(why).\n" }
        return out
    }
}
