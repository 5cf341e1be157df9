import CommandLineSpec
import TrustCore
import TrustSupport

/// `check --quiet`: one line per target and address for scripts, and nothing else on standard
/// output (D411). The fields are separated by tabs, which the terminal sanitiser escapes in the
/// fields themselves: the target as written (or its label), the address connected to, `trusted`,
/// `not-trusted` or `failed`, the OSStatus and the URLError, `-` for what does not apply.
enum CheckQuiet {
    /// `--quiet`.
    static let option = OptionSpec(
        name: "quiet", arity: .flag,
        help:
            "Print one line per target and address and nothing else: the target, the address, trusted, not-trusted or failed, the OSStatus and the URLError, separated by tabs ('-' where none); also with --watch (a line when it changes). The exit status is unchanged."
    )

    /// The line of one check.
    static func line(label: String, address: String?, outcome: FleetCheck.Outcome) -> String {
        let word: String
        var osstatus: Int32?
        var urlError: Int?
        switch outcome.result {
        case .success(let e):
            word = e.verdict.trusted ? "trusted" : "not-trusted"
            osstatus = e.verdict.osstatus
            urlError = e.verdict.urlError
        case .failure(let f):
            word = "failed"
            switch f.detail {
            case .evaluation(let e):
                osstatus = e.verdict.osstatus
                urlError = e.connection?.failure?.urlError ?? e.verdict.urlError
            case .connection(let c, _): urlError = c.failure?.urlError
            case .message, .usage: break
            }
        }
        return fields([label, address ?? "-", word, osstatus.map { "\($0)" } ?? "-", urlError.map { "\($0)" } ?? "-"])
    }

    /// The line of a name that did not resolve (`--all-addresses` under `--watch`).
    static func unresolved(label: String) -> String { fields([label, "-", "failed", "-", "-"]) }

    static func fields(_ values: [String]) -> String {
        values.map { TerminalSanitizer.sanitize($0) }.joined(separator: "\t") + "\n"
    }
}
