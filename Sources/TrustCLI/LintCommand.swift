import ATSModel
import CommandLineSpec
import TrustCore
import TrustExport
import TrustSupport

/// `trustx lint`: CI guardrails over an Info.plist's App Transport Security settings
/// (docs/lint.md).
enum LintCommand {
    static let name = "lint"

    static let spec = CommandSpec(
        commandPath: "trustx lint",
        abstract:
            "Check an Info.plist's App Transport Security and pinning settings for what a careful reviewer would flag.",
        discussion:
            "Reads XML and binary property lists. Exit status: 0 no findings, 1 findings, 64 usage error, 65 not a readable property list, 66 the file cannot be read. See docs/lint.md for every rule.",
        arguments: [
            ArgumentSpec(valueName: "info-plist", help: "The Info.plist file, XML or binary; - reads standard input.")
        ],
        options: [
            ReportFormat.option(ReportFormat.textOrJSON, help: "The report format.")
        ]
    )

    static func run(_ args: [String], environment: Environment) -> ExitStatus {
        let p: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let parsed): p = parsed
        case .failure(let exit): return exit.status
        }
        // `-` is standard input, named so in messages and the report.
        let path = p.positionals[0] == "-" ? Trustx.standardInputName : p.positionals[0]
        let bytes: [UInt8]
        do {
            bytes = try Trustx.readInput(p.positionals[0])
        } catch {
            return Trustx.fail(error.description, .noInput)
        }
        let root: PropertyListValue
        do {
            root = try PropertyList.parse(bytes)
        } catch {
            return Trustx.fail("\(path): not a readable property list: \(error.description)", .dataError)
        }
        let findings = ATSLint.lint(root)
        if ReportFormat(p) == .json {
            Output.out(LintReport.json(findings, file: path))
        } else {
            let text = LintReport.text(findings, file: path)
            // Keys and values are whoever wrote the plist's text: sanitised line by line.
            let ascii = !environment.textOptions.unicode
            Output.out(
                text.split(separator: "\n", omittingEmptySubsequences: false).map {
                    TerminalSanitizer.sanitize(String($0), asciiOnly: ascii)
                }.joined(separator: "\n"))
        }
        // 1, as check's "not trusted": the configuration does not pass.
        return findings.isEmpty ? .success : .notTrusted
    }
}
