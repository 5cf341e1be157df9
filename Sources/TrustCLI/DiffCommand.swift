import CommandLineSpec
import TLSProbe
import TrustCore
import TrustReport
import TrustSupport
import TrustX509

/// `trustx diff A B`: two servers (or chain files) side by side. Both are evaluated as `check`
/// would, at the same time and with the same options; the chains as sent and the paths as built
/// are aligned position by position, each pair classified and its differing fields listed, then
/// the steps whose status differs and both verdicts (D211).
enum DiffCommand {
    static let name = "diff"
    /// The prefix that makes a side a chain file rather than a server.
    static let filePrefix = "file:"

    static let spec = CommandSpec(
        commandPath: "trustx diff",
        abstract: "Compare two servers, or a server and a chain file, certificate by certificate.",
        discussion:
            "Evaluates both sides as trustx check would, with the same options, and shows the chains as sent and the paths as built side by side: each pair is the same certificate, the same key in a new certificate, or different, with the fields that differ; then the steps whose status differs and both verdicts. A side written file:PATH is a chain file (PEM, DER, PKCS#7 or PKCS#12, leaf first) instead of a server; connection options apply to the server sides only, and --connect-to A,B gives each side its own address (two nodes behind one name). Exit status: 0 when both verdicts and both leaf keys are the same, 1 when either differs, 64 usage error, 65 malformed input, 66 unreadable file, 69 a side could not be reached.",
        arguments: [
            ArgumentSpec(
                valueName: "side",
                help:
                    "Two sides, A then B: each a server in any form trustx check takes, or file:PATH for a chain file.",
                isRepeating: true)
        ],
        options: CheckCommand.spec.options.filter {
            !["chain", "format", "all-addresses"].contains($0.name) && !FleetCheck.owns($0)
        } + [
            ReportFormat.option(ReportFormat.textOrJSON, help: "The output format.")
        ])

    static func run(_ args: [String], now: Timestamp, environment: Environment) -> ExitStatus {
        let parsed: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let p): parsed = p
        case .failure(let exit): return exit.status
        }
        guard parsed.positionals.count == 2 else {
            return Trustx.usageError(UsageError(message: "Give two sides to compare: trustx diff A B"), spec)
        }
        var requests: [CheckCommand.Request] = []
        do {
            for (i, side) in parsed.positionals.enumerated() {
                requests.append(try request(side, parsed, index: i, now: now))
            }
        } catch {
            return Trustx.usageError(error, spec)
        }
        if let failure = FleetCheck.readAnchorsOnce(&requests) { return failure.report() }
        let outcomes = FleetCheck.runAll(requests, jobs: 2, environment: environment)
        var evaluations: [Evaluation] = []
        for (side, outcome) in zip(parsed.positionals, outcomes) {
            switch outcome.result {
            case .success(let e): evaluations.append(e)
            case .failure(let f):
                if case .evaluation(let e) = f.detail {
                    evaluations.append(e)
                    continue
                }
                var message = f.message
                if case .connection(let c, _) = f.detail { message = CheckCommand.connectionFailureLine(c) }
                let status = f.status == .usage ? ExitStatus.usage : f.status
                return Trustx.fail("\(InputExcerpt.quote(side)): \(message)", status)
            }
        }
        // `--connect-to A,B` compares two nodes behind one name: each side is headed with the
        // address it was sent to, or both would read the same.
        let labels = zip(parsed.positionals, requests).map { side, request in
            request.connection?.target.connectTo.map { "\(side) at \($0.description)" } ?? side
        }
        let comparison = ChainComparison(a: evaluations[0], b: evaluations[1], labels: (labels[0], labels[1]))
        switch ReportFormat(parsed) {
        case .json: Output.out(JSONWriter.serialize(comparison.json))
        case .text, .markdown, .junit: Output.out(comparison.text)
        }
        return comparison.same ? .success : .notTrusted
    }

    /// The check request for one side: a server with the shared options, or a chain file with
    /// the shared options that are not about connecting.
    /// `--connect-to A,B` gives each side its own address, so that two nodes behind one name
    /// can be compared: `trustx diff host host --connect-to 10.0.0.1,10.0.0.2`.
    static func request(_ side: String, _ p: ParsedArguments, index: Int, now: Timestamp) throws(UsageError)
        -> CheckCommand.Request
    {
        var arguments = p
        arguments.positionals = []
        arguments.occurrences.removeAll { $0.name == "format" }
        if let list = p.value("connect-to"), list.contains(",") {
            let addresses = list.split(separator: ",", omittingEmptySubsequences: false)
            guard addresses.count == 2, addresses.allSatisfy({ !$0.isEmpty }) else {
                throw UsageError(message: "--connect-to takes one address, or two (A's,B's) for diff")
            }
            arguments.occurrences.removeAll { $0.name == "connect-to" }
            arguments.occurrences.append(.init(name: "connect-to", value: String(addresses[index])))
        }
        if side.hasPrefix(filePrefix) {
            let path = String(side.dropFirst(filePrefix.count))
            if path.isEmpty { throw UsageError(message: "file: needs a path, as in file:chain.pem") }
            arguments.occurrences.removeAll { CheckCommand.connectionOptions.contains($0.name) }
            arguments.occurrences.append(.init(name: "chain", value: path))
        } else {
            arguments.positionals = [side]
        }
        do {
            return try CheckCommand.validate(arguments, now: now)
        } catch {
            throw UsageError(message: "\(InputExcerpt.quote(side)): \(error.message)")
        }
    }
}
