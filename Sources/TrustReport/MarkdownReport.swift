import ServedChain
import TrustCore
import TrustSupport

/// Renders an `Evaluation` as GitHub-flavoured Markdown: a heading, the verdict, a path table and
/// a steps table. Every piece of text is sanitised for terminals and escaped for Markdown, so a
/// certificate cannot inject table cells, links, emphasis, HTML or code spans.
public enum MarkdownReport {
    static func connectionTable(_ c: ConnectionReport, _ line: (String) -> Void) {
        line("## Connection")
        line("")
        line("| | |")
        line("|---|---|")
        for (k, v) in c.rows() { line(row([k, v])) }
        line("")
    }

    /// The document for a connection that produced no chain.
    /// - Parameter connection: What the attempt showed.
    /// - Returns: Markdown text.
    public static func renderConnectionFailure(_ connection: ConnectionReport) -> String {
        var out = ""
        func line(_ s: String) { out += s + "\n" }
        line("# trustx: \(escape(connection.target.host))")
        line("")
        let code = connection.failure?.urlError.map { ": \(URLErrorNames.name($0)) (\($0))" } ?? ""
        line("**✗ Not trusted**\(escape(code))")
        line("")
        line(escape(ConnectionReport.failureSummary(connection)))
        line("")
        connectionTable(connection, line)
        return out
    }

    /// The whole document, ending in a newline.
    /// - Parameter e: The evaluation.
    /// - Returns: Markdown text.
    public static func render(_ e: Evaluation) -> String {
        var out = ""
        func line(_ s: String = "") { out += s + "\n" }
        let v = e.verdict
        line("# trustx: \(escape(e.path.certificates[0].displayName))")
        line()
        let head = v.trusted ? "**✓ Trusted**" : "**✗ Not trusted**"
        line("\(head): \(escape(ReportFormatting.codes(v, separator: "·")))")
        line()
        line(escape(v.summary))
        line()
        let s = e.settings
        line("- Policy: \(escape(s.policy.appleName))")
        line("- Anchors: \(escape(ReportFormatting.anchorsDescription(s)))")
        line("- System trust store: \(escape(ReportFormatting.storeDescription(s)))")
        if let c = e.storeComparison { line("- Trusted by: \(escape(ReportFormatting.trustedBy(c)))") }
        let pins = s.pins.digests.map { "sha256//" + Base64.encode($0) }
        line("- Pins: \(pins.isEmpty ? "none" : escape(pins.joined(separator: ", ")))")
        line("- Time: \(ReportFormatting.timeDescription(s))")
        line("- Profile: \(s.profile.rawValue)")
        if s.client != .app { line("- Client: \(ReportFormatting.clientDescription(s))") }
        line("- SecTrustResultType: \(v.resultType.rawValue)")
        if v.extendedValidation {
            line("- Extended Validation: yes")
        } else if let why = v.extendedValidationFailure {
            line("- Extended Validation: no, \(escape(why))")
        }
        line()
        if let c = e.connection { connectionTable(c, line) }
        for w in ReportFormatting.warnings(e) {
            line("**Warning:** \(escape(w))")
            line()
        }
        let ats = ReportFormatting.atsRows(e)
        if !ats.isEmpty {
            line("## App Transport Security")
            line()
            line("| | |")
            line("|---|---|")
            for (k, v) in ats { line(row([k, v])) }
            line()
        }
        line("## Path")
        line()
        line("| # | Subject | Issuer | Source | Key | Not before | Not after |")
        line("|---|---|---|---|---|---|---|")
        for (i, c) in e.path.certificates.enumerated() {
            let cells = [
                String(i), c.subject.description, c.issuer.description, ReportFormatting.sourceDescription(e, i),
                ReportFormatting.keyDescription(c.publicKey), c.notBefore.rfc3339, c.notAfter.rfc3339,
            ]
            line(row(cells))
        }
        line()
        let served = ServedChainAnalysis.findings(e)
        if !served.isEmpty {
            line("## Served chain")
            line()
            line("| Kind | Certificates | Which clients pay, and why |")
            line("|---|---|---|")
            for f in served {
                let which = f.certificates.map { "\($0.label) \($0.certificate.subject.description)" }
                line(row([f.kind.rawValue, which.joined(separator: ", "), f.explanation]))
            }
            line()
        }
        line("## Steps")
        line()
        line("| Certificate | Step | Status | Title | Apple check | Detail |")
        line("|---|---|---|---|---|---|")
        for (index, steps) in ReportFormatting.groups(e) {
            let label: String
            switch index {
            case nil: label = "path"
            case let i? where i >= 0: label = "\(i) \(ReportFormatting.certificateLabel(e, i))"
            default: label = "other"
            }
            for step in steps {
                var status = TextReport.symbol(for: step.status, unicode: true) + " " + step.status.identifier
                if case .skipped(let why) = step.status { status += " (\(why))" }
                let code = ReportFormatting.appleCode(step, separator: "·") ?? ""
                let detail = step.status == .failed ? step.detail : ""
                line(row([label, step.id.rawValue, status, step.title, code, detail]))
            }
        }
        if !e.pinAdvice.isEmpty {
            line()
            line("## Pin advice")
            line()
            for a in e.pinAdvice { line("- \(escape(a.sourceDescription)): \(escape(a.message))") }
        }
        let ct = e.steps.first { $0.id == .certificateTransparency }?.finding.certificateTransparency
        if let advice = ct?.publishedPolicyAdvice, !advice.isEmpty {
            line()
            line("## CT advice")
            line()
            for a in advice { line("- \(escape(a.message))") }
        }
        return out
    }

    static func row(_ cells: [String]) -> String {
        "| " + cells.map(escape).joined(separator: " | ") + " |"
    }

    /// Sanitised for terminals, then escaped for a Markdown table cell or paragraph: inline
    /// punctuation Markdown gives meaning to is backslash-escaped (CommonMark 2.4); `<`, `>`
    /// and `&` become entities so no HTML, autolink or entity forms.
    /// - Parameter text: Any text.
    /// - Returns: Text that renders literally, on one line, inside a table cell.
    public static func escape(_ text: String) -> String {
        let safe = TerminalSanitizer.sanitize(text)
        var out = ""
        out.reserveCapacity(safe.utf8.count + 8)
        for ch in safe.unicodeScalars {
            switch ch {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "|", "`", "*", "_", "[", "]", "\\", "#", "~", "$":
                // Table cells, code spans, emphasis, links, strikethrough, heading closers and
                // GitHub math. Block syntax (lists, headings) cannot start inside a cell, and every
                // paragraph this report writes starts with its own text.
                out += "\\"
                out.unicodeScalars.append(ch)
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
