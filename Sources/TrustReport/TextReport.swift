import ServedChain
import TrustCore
import TrustSupport

/// Renders an `Evaluation` for a terminal: the verdict first, then the settings, the built path
/// and every step grouped by certificate.
///
/// All text that can come from a certificate or a server goes through `TerminalSanitizer`.
/// Styling (the command line's colours) is optional and never carries meaning alone: every
/// status also has its symbol. The report names what a piece of text stands for, a `Tone`, and
/// writes no terminal escapes itself: the caller's `Styling` says how each tone is marked.
public enum TextReport {
    /// What a piece of the report stands for, for the caller's styling.
    public enum Tone: Hashable, Sendable, CaseIterable {
        /// The verdict of a trusted chain.
        case trusted
        /// The verdict of a chain that is not trusted.
        case notTrusted
        /// A passed step's symbol.
        case passed
        /// A failed step's symbol.
        case failed
        /// A skipped step's symbol.
        case skipped
        /// The symbol of a step that does not apply.
        case notApplicable
    }

    /// How the caller marks text of each tone: what goes before and after it. The command line
    /// gives terminal colours here; the default marks nothing.
    public struct Styling: Sendable, Equatable {
        /// The text written before and after a piece of text of one tone.
        public struct Mark: Sendable, Equatable {
            /// Written before the text.
            public var before: String
            /// Written after the text.
            public var after: String

            /// Creates a mark.
            public init(before: String, after: String) {
                self.before = before
                self.after = after
            }
        }

        /// The mark of each tone; a tone without one is written plain.
        public var marks: [Tone: Mark]

        /// Creates a styling.
        public init(marks: [Tone: Mark]) { self.marks = marks }

        /// No marks at all.
        public static let plain = Styling(marks: [:])
    }

    /// How to draw the report.
    public struct Options: Sendable, Equatable {
        /// How text of each tone is marked (colours only when writing to a terminal and NO_COLOR
        /// is not set: the caller decides).
        public var styling: Styling
        /// Use Unicode symbols (✓ ✗ • –); false draws ASCII (+ x o -) and escapes all non-ASCII
        /// text, for terminals whose locale is not UTF-8.
        public var unicode: Bool

        /// Creates options.
        /// - Parameters:
        ///   - styling: How text of each tone is marked.
        ///   - unicode: Whether the terminal takes UTF-8.
        public init(styling: Styling = .plain, unicode: Bool = true) {
            self.styling = styling
            self.unicode = unicode
        }
    }

    /// The symbol drawn for a step status.
    /// - Parameters:
    ///   - status: The step's status.
    ///   - unicode: Whether Unicode symbols may be used.
    /// - Returns: One character.
    public static func symbol(for status: StepStatus, unicode: Bool) -> String {
        switch status {
        case .passed: unicode ? "✓" : "+"
        case .failed: unicode ? "✗" : "x"
        case .skipped: unicode ? "•" : "o"
        case .notApplicable: unicode ? "–" : "-"
        }
    }

    /// The whole report, ending in a newline.
    /// - Parameters:
    ///   - e: The evaluation.
    ///   - options: Colour and symbol choices.
    /// - Returns: The report text.
    public static func render(_ e: Evaluation, options: Options = Options()) -> String {
        var r = Renderer(options: options)
        r.verdict(e)
        if let c = e.connection { r.connection(c) }
        r.warnings(e)
        r.settings(e.settings, comparison: e.storeComparison)
        r.ats(e)
        r.path(e)
        r.served(e)
        r.unreadable(e)
        r.steps(e)
        r.pinAdvice(e)
        r.ctAdvice(e)
        return r.out
    }

    struct Renderer {
        let options: Options
        var out = ""

        init(options: Options) { self.options = options }

        var dot: String { options.unicode ? "·" : "|" }

        /// Sanitised text; in ASCII mode typographic punctuation is folded first so the
        /// engine's own prose stays readable.
        func clean(_ s: String) -> String {
            if options.unicode { return TerminalSanitizer.sanitize(s) }
            return TerminalSanitizer.sanitize(asciiFold(s), asciiOnly: true)
        }

        func paint(_ s: String, _ tone: Tone) -> String {
            guard let mark = options.styling.marks[tone] else { return s }
            return mark.before + s + mark.after
        }

        func statusTone(_ status: StepStatus) -> Tone {
            switch status {
            case .passed: .passed
            case .failed: .failed
            case .skipped: .skipped
            case .notApplicable: .notApplicable
            }
        }

        mutating func line(_ s: String = "") { out += s + "\n" }

        mutating func verdict(_ e: Evaluation) {
            let v = e.verdict
            let head =
                v.trusted
                ? paint(symbol(for: .passed, unicode: options.unicode) + " Trusted", .trusted)
                : paint(symbol(for: .failed, unicode: options.unicode) + " Not trusted", .notTrusted)
            line("\(head)  \(ReportFormatting.codes(v, separator: dot))")
            line("  \(clean(v.summary))")
            line("  SecTrustResultType: \(v.resultType.rawValue)")
            if v.extendedValidation {
                line("  Extended Validation: yes")
            } else if let why = v.extendedValidationFailure {
                line("  Extended Validation: no, \(clean(why))")
            }
            line()
        }

        mutating func connection(_ c: ConnectionReport) {
            line("Connection")
            for (k, v) in c.rows() { line("  \(k.padded(to: 11)) \(clean(v))") }
            line()
        }

        mutating func settings(_ s: TrustSettings, comparison: StoreComparison? = nil) {
            line("Settings")
            let pins =
                s.pins.isEmpty ? "none" : s.pins.digests.map { "sha256//" + Base64.encode($0) }.joined(separator: ", ")
            var rows: [(String, String)] = [
                ("policy", s.policy.appleName),
                ("anchors", ReportFormatting.anchorsDescription(s)),
                ("store", ReportFormatting.storeDescription(s)),
                ("pins", pins),
                ("time", ReportFormatting.timeDescription(s)),
                ("profile", s.profile.rawValue),
            ]
            if s.client != .app { rows.append(("client", ReportFormatting.clientDescription(s))) }
            for (k, v) in rows { line("  \(k.padded(to: 8)) \(clean(v))") }
            if let comparison { line("  trusted by \(clean(ReportFormatting.trustedBy(comparison)))") }
            line()
        }

        mutating func warnings(_ e: Evaluation) {
            let warnings = ReportFormatting.warnings(e)
            guard !warnings.isEmpty else { return }
            line("Warning")
            for w in warnings { line("  \(clean(w))") }
            line()
        }

        mutating func ats(_ e: Evaluation) {
            let rows = ReportFormatting.atsRows(e)
            guard !rows.isEmpty else { return }
            line("App Transport Security")
            for (k, v) in rows { line("  \(k.padded(to: 8)) \(clean(v))") }
            line()
        }

        mutating func pinAdvice(_ e: Evaluation) {
            guard !e.pinAdvice.isEmpty else { return }
            line()
            line("Pin advice")
            for a in e.pinAdvice { line("  \(clean(a.sourceDescription)): \(clean(a.message))") }
        }

        /// Where the path passes trustd's CT code but not Apple's published policy (the verdict
        /// follows the code).
        mutating func ctAdvice(_ e: Evaluation) {
            let advice =
                e.steps.first { $0.id == .certificateTransparency }?.finding.certificateTransparency?
                .publishedPolicyAdvice ?? []
            guard !advice.isEmpty else { return }
            line()
            line("CT advice")
            for a in advice { line("  \(clean(a.message))") }
        }

        mutating func unreadable(_ e: Evaluation) {
            guard !e.unreadable.isEmpty else { return }
            line("Unreadable certificates (left out of path building)")
            for why in e.unreadable { line("  \(clean(why))") }
            line()
        }

        mutating func path(_ e: Evaluation) {
            line("Path (leaf to anchor)")
            for (i, c) in e.path.certificates.enumerated() {
                let label = "[\(i)]"
                let indent = String(repeating: " ", count: 2 + label.count + 1)
                line("  \(label) \(clean(c.subject.description))")
                line("\(indent)issuer  \(clean(c.issuer.description))")
                line("\(indent)source  \(ReportFormatting.sourceDescription(e, i))")
                line("\(indent)key     \(clean(ReportFormatting.keyDescription(c.publicKey)))")
                line("\(indent)valid   \(c.notBefore.rfc3339) to \(c.notAfter.rfc3339)")
            }
            line()
        }

        /// How the chain was served, when anything is to be said (D440): each finding's kind and
        /// certificates, then its explanation.
        mutating func served(_ e: Evaluation) {
            let findings = ServedChainAnalysis.findings(e)
            guard !findings.isEmpty else { return }
            line("Served chain")
            let width = findings.map(\.kind.rawValue.count).max() ?? 0
            for f in findings {
                let certificates =
                    f.certificates.count > 3
                    ? "\(f.certificates.count) certificates"
                    : f.certificates.map { "\($0.label) \(clean($0.certificate.subject.description))" }
                        .joined(separator: ", ")
                line("  \(f.kind.rawValue.padded(to: width))  \(certificates)")
                line("  \(String(repeating: " ", count: width))  \(clean(f.explanation))")
            }
            line()
        }

        mutating func steps(_ e: Evaluation) {
            line("Steps")
            let idWidth = e.steps.map { $0.id.rawValue.count }.max() ?? 0
            for (index, steps) in ReportFormatting.groups(e) {
                switch index {
                case nil: line("  Path")
                case let i? where i >= 0: line("  [\(i)] \(clean(ReportFormatting.certificateLabel(e, i)))")
                default: line("  Other")
                }
                for s in steps {
                    let sym = paint(symbol(for: s.status, unicode: options.unicode), statusTone(s.status))
                    var text = "    \(sym) \(s.id.rawValue.padded(to: idWidth))  \(clean(s.title))"
                    if case .skipped(let why) = s.status { text += " (skipped: \(clean(why)))" }
                    line(text)
                    guard s.status == .failed else { continue }
                    let detailIndent = String(repeating: " ", count: 6)
                    if let code = ReportFormatting.appleCode(s, separator: dot) { line(detailIndent + code) }
                    line(detailIndent + clean(s.detail))
                }
            }
        }
    }

    /// Typographic punctuation the engine uses, as ASCII (for terminals whose locale is not UTF-8).
    public static func asciiFold(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x2013, 0x2014, 0x2212: out += "-"
            case 0x2018, 0x2019: out += "'"
            case 0x201C, 0x201D: out += "\""
            case 0x00B7: out += "|"
            case 0x2026: out += "..."
            case 0x2192: out += "->"
            case 0x2265: out += ">="
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// Pads with spaces to `width` characters (never truncates).
    fileprivate func padded(to width: Int) -> String {
        let n = count
        return n < width ? self + String(repeating: " ", count: width - n) : self
    }
}

extension TextReport {
    /// The report for a connection that produced no chain.
    /// - Parameters:
    ///   - connection: What the attempt showed.
    ///   - options: Colour and symbol choices.
    /// - Returns: The report text.
    public static func renderConnectionFailure(_ connection: ConnectionReport, options: Options = Options()) -> String {
        var r = Renderer(options: options)
        let head = r.paint(symbol(for: .failed, unicode: options.unicode) + " Not trusted", .notTrusted)
        let code = connection.failure?.urlError.map { "  \(URLErrorNames.name($0)) (\($0))" } ?? ""
        r.line(head + code)
        r.line("  " + r.clean(ConnectionReport.failureSummary(connection)))
        r.line()
        r.connection(connection)
        return r.out
    }
}
