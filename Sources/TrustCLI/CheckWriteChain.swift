import CommandLineSpec
import ServedChain
import TrustCore
import TrustSupport

/// `check --write-chain FILE`: the chain to serve instead, written after the report once it
/// alone evaluates as served (D442, D443).
enum CheckWriteChain {
    static let option = OptionSpec(
        name: "write-chain", valueName: "file", arity: .one,
        help:
            "Write the chain to serve, the built path's leaf and intermediates in order without the anchor, as PEM to this file (- for standard output instead of the report), once that chain alone and without AIA evaluates to the same verdict."
    )

    /// The usage errors of `--write-chain`, found before anything is read.
    static func validate(_ p: ParsedArguments) throws(UsageError) {
        guard let path = p.value(option.name) else { return }
        if path.isEmpty { throw UsageError(message: "--write-chain needs a file name, or - for standard output") }
        if p.has("all-addresses") || p.has("quiet") || p.value("format") == "junit" {
            throw UsageError(
                message:
                    "--write-chain writes the chain of one report; it does not combine with --all-addresses, --quiet or --format junit"
            )
        }
    }

    /// Writes the chain to serve for `evaluation` to `path` (`-`: standard output) and returns
    /// the run's status: `status` when written, 73 when not (the report is already out).
    static func finish(_ evaluation: Evaluation, to path: String, status: ExitStatus, deadline: EvaluationDeadline)
        -> ExitStatus
    {
        let chain: ChainToServe
        switch ChainToServe.make(for: evaluation, deadline: deadline) {
        case .success(let made): chain = made
        case .failure(let refusal):
            return Trustx.fail("--write-chain: nothing written: \(refusal.message)", .cannotCreate)
        }
        if path == "-" {
            Output.out(chain.pem)
        } else {
            do {
                try ChainFile.write(chain.pem, to: path)
            } catch {
                return Trustx.fail(
                    "--write-chain: cannot write \(InputExcerpt.quote(path)): \(error.reason)", .cannotCreate)
            }
        }
        let target = path == "-" ? "standard output" : InputExcerpt.quote(path)
        Output.err("Note: --write-chain: wrote \(TerminalSanitizer.sanitize(target)): \(chain.summary)\n")
        return status
    }
}
