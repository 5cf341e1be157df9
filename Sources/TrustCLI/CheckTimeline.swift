import CommandLineSpec
import TrustCore
import TrustReport
import TrustSupport
import TrustTimeline

/// `check --timeline` and `--expires-within DAYS`: when the verdict changes under the run's
/// settings, and whether a trusted chain stops being trusted soon (exit status 2). Output and CI
/// options, not settings: the explorer and the exports know nothing of them (D462, D463).
enum CheckTimeline {
    /// `--timeline`.
    static let timelineOption = OptionSpec(
        name: "timeline", arity: .flag,
        help:
            "Add the instants at which the verdict or its code changes under these settings (each certificate's notBefore and notAfter, the date constraints, the SCTs and their logs), found by evaluating on both sides of each: a section in text and Markdown, timeline in JSON."
    )

    /// `--expires-within DAYS`.
    static let expiresWithinOption = OptionSpec(
        name: "expires-within", valueName: "days", arity: .one,
        help:
            "Exit 2 when the chain is trusted now and not trusted at some instant within this many days (0 to \(maximumDays)); with several targets or --watch, 2 ranks above 0 and below 1."
    )

    /// The most days `--expires-within` takes: a hundred years.
    static let maximumDays = 36_500

    /// What the command line asks of the timeline.
    struct Request {
        /// `--timeline`: show it.
        var show = false
        /// `--expires-within`: the window, in days.
        var expiresWithin: Int?

        /// Whether a timeline is made at all.
        var wanted: Bool { show || expiresWithin != nil }
    }

    /// Reads and checks both options.
    static func validate(_ p: ParsedArguments, format: ReportFormat, quiet: Bool) throws(UsageError) -> Request {
        var r = Request(show: p.has(timelineOption.name))
        if let text = p.value(expiresWithinOption.name) {
            guard let days = Int(text), days >= 0, days <= maximumDays else {
                throw UsageError(
                    message:
                        "The value '\(InputExcerpt.quote(text))' is invalid for '--expires-within <days>': expected a whole number of days from 0 to \(maximumDays)"
                )
            }
            r.expiresWithin = days
        }
        if r.show && (quiet || format == .junit) {
            throw UsageError(
                message:
                    "--timeline adds a section to the report; \(quiet ? "--quiet" : "--format junit") prints none (--expires-within still sets the exit status)"
            )
        }
        return r
    }

    /// The timeline of `e` when `request` asks for one, within a `--timeout` of its own.
    static func make(_ e: Evaluation, _ request: CheckCommand.Request) -> Timeline? {
        guard request.timeline.wanted else { return nil }
        return Timeline.make(e, deadline: EvaluationDeadline(after: request.timeout))
    }

    /// The change that makes the run exit 2: the first failure within the window, when the
    /// chain is trusted now.
    static func failure(_ t: Timeline?, _ e: Evaluation, _ request: CheckCommand.Request) -> Timeline.Entry? {
        guard e.verdict.trusted, let t, let days = request.timeline.expiresWithin else { return nil }
        return t.failsWithin(days: days)
    }

    /// The line on standard error that says why the status is 2.
    static func note(_ entry: Timeline.Entry, days: Int) -> String {
        "Note: trusted now, fails within \(days) days: from \(entry.at.rfc3339), \(entry.osstatusName) (\(entry.osstatus)): \(TerminalSanitizer.sanitize(entry.cause))\n"
    }

    /// The report of one evaluation with its timeline, when there is one to show.
    static func render(
        _ e: Evaluation, _ t: Timeline?, show: Bool, format: ReportFormat, environment: Environment,
        includePEM: Bool
    ) {
        guard show, let t else {
            CheckCommand.render(e, format: format, environment: environment, includePEM: includePEM)
            return
        }
        switch format {
        case .json:
            Output.out(
                JSONWriter.serialize(TimelineReport.adding(t, to: JSONReport.document(e, includePEM: includePEM))))
        case .markdown: Output.out(MarkdownReport.render(e) + TimelineReport.markdown(t))
        case .text, .junit:
            Output.out(
                TextReport.render(e, options: environment.textOptions)
                    + TimelineReport.text(t, options: environment.textOptions))
        }
    }

    /// Below the table of several targets: each one's timeline (`--timeline`), else a line for
    /// each target that fails within `--expires-within`'s window.
    static func fleetText(labels: [String], outcomes: [FleetCheck.Outcome], environment: Environment) -> String {
        var out = ""
        for (label, outcome) in zip(labels, outcomes) {
            let name = TerminalSanitizer.sanitize(InputExcerpt.quote(label))
            if outcome.showTimeline, let t = outcome.timeline {
                out += "\n\(name): " + TimelineReport.text(t, options: environment.textOptions).dropFirst()
            } else if let soon = outcome.failsSoon {
                out +=
                    "\(name): trusted now, fails from \(soon.at.rfc3339): \(soon.osstatusName) (\(soon.osstatus)): \(TerminalSanitizer.sanitize(soon.cause))\n"
            }
        }
        return out
    }

    /// `document` with the outcome's timeline, when shown.
    static func document(_ document: JSONValue, _ outcome: FleetCheck.Outcome) -> JSONValue {
        guard outcome.showTimeline, let t = outcome.timeline else { return document }
        return TimelineReport.adding(t, to: document)
    }
}

extension FleetCheck.Outcome {
    /// Adds the timeline `request` asks for, and whether the chain fails within its window.
    mutating func addTimeline(_ request: CheckCommand.Request) {
        guard request.timeline.wanted, case .success(let e) = result else { return }
        timeline = CheckTimeline.make(e, request)
        failsSoon = CheckTimeline.failure(timeline, e, request)
        showTimeline = request.timeline.show
    }
}
