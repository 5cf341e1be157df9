import TrustExplain

// `!`: the explain command's answer in the explorer, so a developer who arrives with an error
// from a device reads what it means beside the evaluation that reproduces it (D363).
extension AppState {
    /// The most text the explanation reads from the prompt; the prompt itself holds no more.
    static let explainInputLimit = Prompt.maximumLength

    /// Explains `text` (codes, names, a console line), or with no text this verdict's OSStatus
    /// and URLError, in an overlay.
    mutating func explain(_ text: String) {
        var input = text
        var title = "Explain"
        if input.isEmpty {
            guard let verdict = evaluation?.verdict else {
                message = "nothing evaluated yet: type a code or paste a console line"
                return
            }
            guard !verdict.trusted || verdict.osstatus != 0 else {
                message = "trusted: this verdict has no error code to explain (type one, or paste a console line)"
                return
            }
            // The codes as Xcode prints them for this verdict, so the scanner reads them as it
            // would a pasted line.
            input = verdict.osstatus == 0 ? "" : String(verdict.osstatus)
            if let url = verdict.urlError { input += " \(url)" }
            title = "Explain this verdict"
        }
        let report = ExplainReport(ExplainScanner.scan(Array(input.utf8.prefix(Self.explainInputLimit))))
        // The report's text escapes what came from the input; the overlay sanitises each line again.
        var paragraphs = report.text(asciiOnly: false).split(separator: "\n\n", omittingEmptySubsequences: true)
            .map(String.init)
        paragraphs.append("trustx explain TEXT prints the same on the command line (docs/cli.md). Any key closes.")
        overlay = TextOverlay(title: title, paragraphs: paragraphs)
    }
}
