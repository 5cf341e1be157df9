import TrustCore
import TrustLab
import TrustReport
import TrustSupport

/// What `trustx` with no arguments shows until the interactive explorer exists: the built-in lab
/// started on loopback, every scenario checked over real TLS exactly as
/// `trustx check URL --anchor FILE` would, a table of verdicts, the full report of the classic
/// pitfall (the host-name mismatch), and the lab stopped again.
enum LabTour {
    /// The scenario whose full report is shown: the host-name mismatch, docs/lab.md's first lesson.
    static let featured = LabScenario.all.first(where: \.featuredInTour)?.name ?? ""

    /// Runs the tour; nil when the lab cannot start (then the caller shows help instead).
    static func render(now: Timestamp, environment: Environment) -> String? {
        // The lab's own lessons and the ATS lessons: the badssl.com cases are many, and two of them
        // make a slow key for their first client.
        let tour = LabScenario.all.filter { $0.group == .lessons || $0.group == .ats }.map(\.name)
        guard let lab = try? Lab.start(LabOptions(scenarios: tour, now: now)) else { return nil }
        defer { lab.stop() }
        let options = environment.textOptions
        let yes = TextReport.symbol(for: .passed, unicode: options.unicode)
        let no = TextReport.symbol(for: .failed, unicode: options.unicode)
        let nameWidth = (lab.scenarios.map(\.name.count).max() ?? 0) + 2
        var rows: [(String, String, String)] = []
        var featuredReport = ""
        var mismatches = 0
        for s in lab.scenarios {
            let args = s.targetArguments + ["--anchor", s.anchorPath, "--timeout", "5"]
            let outcome = check(args, now: now, environment: environment)
            let codes = describe(outcome.trusted, outcome.osstatus, outcome.urlError)
            var verdict = (outcome.trusted ? yes : no) + " " + codes
            let expected = s.expectation
            if outcome.trusted != expected.trusted || outcome.osstatus != expected.osstatus
                || outcome.urlError != expected.urlError
            {
                mismatches += 1
                verdict += " (the lab expects \(describe(expected.trusted, expected.osstatus, expected.urlError)))"
            }
            rows.append((s.name, verdict, s.lesson))
            if s.name == featured { featuredReport = outcome.report }
        }
        var out = "A tour of the built-in lab: \(lab.scenarios.count) deliberately broken TLS servers on 127.0.0.1,\n"
        out += "each checked as 'trustx check URL --anchor library-test-ca.pem' would check it.\n\n"
        // Verdict beside the name, the lesson beneath: the codes are long, so columns would not fit 80.
        for (name, verdict, lesson) in rows {
            out += "  " + name.padding(nameWidth) + verdict + "\n"
            out += "  " + "".padding(nameWidth) + TerminalSanitizer.sanitize(lesson) + "\n"
        }
        if mismatches > 0 { out += "\n\(mismatches) scenario(s) did not give the verdict the lab expects.\n" }
        if !featuredReport.isEmpty {
            out += "\nThe classic pitfall in full: '\(featured)', the same server reached as localhost.\n\n"
            out += featuredReport
        }
        out += "\nServe the lab yourself with 'trustx lab' (docs/lab.md, docs/training.md);\n"
        out += "run 'trustx check --help' to evaluate your own servers and certificates.\n"
        return out
    }

    struct Outcome {
        var trusted = false
        var osstatus: Int32?
        var urlError: Int?
        var report = ""
    }

    /// The same path as the command line's `check`, without printing.
    static func check(_ args: [String], now: Timestamp, environment: Environment) -> Outcome {
        guard case .run(let parsed)? = try? CheckCommand.spec.parse(args),
            let request = try? CheckCommand.validate(parsed, now: now)
        else { return Outcome() }
        switch CheckCommand.evaluateServer(request, environment: environment) {
        case .success(let e):
            return Outcome(
                trusted: e.verdict.trusted, osstatus: e.verdict.osstatus, urlError: e.verdict.urlError,
                report: TextReport.render(e, options: environment.textOptions))
        case .failure(let f):
            switch f.detail {
            case .evaluation(let e):
                return Outcome(trusted: false, osstatus: e.verdict.osstatus, urlError: e.verdict.urlError)
            case .connection(let report, _):
                return Outcome(trusted: false, osstatus: nil, urlError: report.failure?.urlError)
            case .message, .usage: return Outcome(trusted: false, osstatus: nil, urlError: nil)
            }
        }
    }

    static func describe(_ trusted: Bool, _ osstatus: Int32?, _ urlError: Int?) -> String {
        if trusted { return "trusted" }
        var parts: [String] = []
        if let osstatus { parts.append("\(OSStatusNames.name(osstatus)) (\(osstatus))") }
        if let urlError { parts.append("URLError \(urlError)") }
        return parts.joined(separator: ", ")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
