import AppleTrustData
import CommandLineSpec
import TrustExplain
import TrustSupport

/// `trustx explain`: what an error code a developer pasted means, what causes it and what to run
/// next (docs/cli.md).
enum ExplainCommand {
    static let name = "explain"

    static let spec = CommandSpec(
        commandPath: "trustx explain",
        abstract: "Explain the TLS error codes in text pasted from Xcode's console or a log.",
        discussion:
            "Finds every OSStatus (errSec..., -67xxx, -25xxx), SecureTransport and ATS code (-98xx) and URLError (-1xxx) in the text, with Xcode's pairs ('-1202 [3:-9813]', '_kCFStreamErrorCodeKey=-9802') and the host of a failing URL, and gives for each its name and meaning from Apple's headers, the trustx steps that produce it, the lab scenario that shows it and the command to run next. Exit status: 0 every code found is known, 1 a code is unknown or none was found, 64 usage error, 66 standard input cannot be read.",
        arguments: [
            ArgumentSpec(
                valueName: "text", help: "Codes, names or pasted console lines; - reads standard input.",
                isRepeating: true)
        ],
        options: [
            ReportFormat.option(ReportFormat.textOrJSON, help: "The report format.")
        ]
    )

    /// The arguments with every word that is not one of explain's options after `--`: codes
    /// start with `-` (`-1202`), and the parser would take them for options.
    static func separated(_ args: [String]) -> [String] {
        if args.contains("--") { return args }
        var options: [String] = []
        var text: [String] = []
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg == "--format", i + 1 < args.count {
                options += [arg, args[i + 1]]
                i += 2
                continue
            }
            if arg.hasPrefix("--") || arg == "-h" { options.append(arg) } else { text.append(arg) }
            i += 1
        }
        return options + ["--"] + text
    }

    static func run(_ args: [String], environment: Environment) -> ExitStatus {
        let p: ParsedArguments
        switch Trustx.parse(separated(args), spec) {
        case .success(let parsed): p = parsed
        case .failure(let exit): return exit.status
        }
        var bytes: [UInt8] = []
        for (index, text) in p.positionals.enumerated() {
            if index > 0 { bytes.append(0x0A) }
            if text == "-" {
                do {
                    bytes += try Trustx.readInput("-")
                } catch {
                    return Trustx.fail(error.description, .noInput)
                }
            } else {
                bytes += text.utf8
            }
        }
        let report = ExplainReport(ExplainScanner.scan(bytes))
        switch ReportFormat(p) {
        case .json: Output.out(report.json())
        case .text, .markdown, .junit: Output.out(report.text(asciiOnly: !environment.textOptions.unicode))
        }
        return report.allKnown ? .success : .notTrusted
    }
}
