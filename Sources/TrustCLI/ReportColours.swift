import TrustReport

extension TextReport.Styling {
    /// Terminal colours for the text report (ANSI SGR): the verdict bold green or red, a step's
    /// symbol green, red, yellow or dim by its status. The report only names the tones; the
    /// escapes are the command line's, which alone knows it writes to a terminal.
    static let ansi = TextReport.Styling(marks: [
        .trusted: sgr("1;32"), .notTrusted: sgr("1;31"),
        .passed: sgr("32"), .failed: sgr("31"), .skipped: sgr("33"), .notApplicable: sgr("2"),
    ])

    private static func sgr(_ code: String) -> Mark { Mark(before: "\u{1B}[\(code)m", after: "\u{1B}[0m") }
}
