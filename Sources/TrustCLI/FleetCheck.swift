import CommandLineSpec
import Synchronization
import TLSProbe
import TrustCore
import TrustOptions
import TrustReport
import TrustSupport
import TrustTimeline
import TrustX509

/// `trustx check` with several targets: positional targets, a `--targets` file, or one target with
/// several `--connect-to` addresses. Every target is validated before any connection is made,
/// the checks run `--jobs` at a time, and the reports come back in input order: a summary table in
/// text and Markdown, an array of the single-target JSON reports in JSON (D209).
enum FleetCheck {
    /// At most this many checks per run, after `--connect-to` lists are expanded.
    static let maximumTargets = 1000
    /// `--jobs` when not given.
    static let defaultJobs = 8
    /// The most checks that may run at once: each holds a thread and a socket.
    static let maximumJobs = 64

    /// The options a line of a `--targets` file may carry: they describe how to reach that server
    /// and what to hold it to. The rest apply to the whole run and stay on the command line.
    static let lineOptions = [
        "connect-to", "sni", "no-sni", "host", "policy", "pin", "starttls", "tls-min", "tls-max", "no-aia",
        "proxy", "timeout",
    ]

    /// `check`'s positional argument: one or more servers.
    static let targetsArgument = ArgumentSpec(
        valueName: "target",
        help: CheckCommand.targetArgument.help
            + " Several targets are checked concurrently and summarized in one table, as with --targets.",
        isRepeating: true, isRequired: false)

    /// `--targets FILE`.
    static let targetsOption = OptionSpec(
        name: "targets", valueName: "file", arity: .one,
        help:
            "Check the servers listed in this file, one target per line (NAME=TARGET gives it a label), each optionally followed by its own \(lineOptions.map { "--" + $0 }.joined(separator: ", ")); '#' starts a comment; - reads the list from standard input. At most \(maximumTargets) checks (targets times their --connect-to addresses)."
    )

    /// `--jobs N`.
    static let jobsOption = OptionSpec(
        name: "jobs", valueName: "count", arity: .one,
        help:
            "How many of several targets are checked at once (1 to \(maximumJobs)); each check has its own --timeout.",
        defaultText: "\(defaultJobs)")

    /// The options only `check` takes, which `explore` and `export` leave out.
    static let optionNames =
        [targetsOption.name, jobsOption.name, CheckQuiet.option.name, "include-pem", CheckWriteChain.option.name]
        + CheckWatch.optionNames + [CheckTimeline.timelineOption.name, CheckTimeline.expiresWithinOption.name]

    /// Whether `option` is one of `optionNames`.
    static func owns(_ option: OptionSpec) -> Bool { optionNames.contains(option.name) }

    /// Whether the command line asks for several reports rather than one.
    static func applies(_ p: ParsedArguments) -> Bool {
        p.positionals.count > 1 || p.has("targets") || p.has("jobs")
            || p.all("connect-to").contains { $0.contains(",") }
    }

    /// One check to run: the target as the user wrote it, where it came from, and its arguments.
    struct Item {
        var label: String
        /// `FILE:LINE: ` for a line of `--targets`, empty for the command line.
        var origin: String
        var arguments: ParsedArguments
    }

    /// Runs every target and prints the summary (text, Markdown) or the array of reports (JSON).
    static func run(_ p: ParsedArguments, now: Timestamp, environment: Environment) -> ExitStatus {
        let spec = CheckCommand.spec
        let jobs: Int
        var requests: [(Item, CheckCommand.Request)] = []
        do {
            jobs = try jobCount(p)
            for item in try expandAddresses(try collect(p)) {
                requests.append((item, try validate(item, now: now)))
            }
        } catch let e as Trustx.Failure {
            return e.report()
        } catch let e as UsageError {
            return Trustx.usageError(e, spec)
        } catch {
            return Trustx.fail("\(error)", .usage)
        }
        let format = ReportFormat(p)
        let (started, runStart) = (currentTime(), ContinuousClock.now)
        var shared = requests.map(\.1)
        if let failure = readAnchorsOnce(&shared) { return failure.report() }
        let outcomes = runAll(shared, jobs: jobs, environment: environment)
        var worst = ExitStatus.success
        for outcome in outcomes where rank(outcome.exitStatus) > rank(worst) { worst = outcome.exitStatus }
        let labels = requests.map(\.0.label)
        switch format {
        case .json: Output.out(json(outcomes, includePEM: shared[0].includePEM))
        case .markdown: Output.out(FleetTable.markdown(labels: labels, outcomes: outcomes))
        case .junit:
            let cases = zip(zip(requests, labels), outcomes).map { pair, outcome in
                JUnitReport.Case(label: pair.1, address: JUnitReport.address(pair.0.1, outcome), outcome: outcome)
            }
            Output.out(
                JUnitReport.render(
                    cases, settings: shared[0].settings,
                    context: SettingContext(isServer: true, targetHost: shared[0].targetHost), started: started,
                    seconds: JUnitReport.seconds(since: runStart)
                ))
        case .text:
            if shared[0].quiet {
                Output.out(
                    zip(zip(requests, labels), outcomes).map { pair, outcome in
                        CheckQuiet.line(
                            label: pair.1, address: JUnitReport.address(pair.0.1, outcome), outcome: outcome)
                    }.joined())
            } else {
                Output.out(
                    FleetTable.text(labels: labels, outcomes: outcomes)
                        + CheckTimeline.fleetText(labels: labels, outcomes: outcomes, environment: environment))
            }
            // Errors that are not a server's answer (an unreadable --anchor file) go where a
            // single check puts them.
            for (label, outcome) in zip(labels, outcomes) {
                if case .failure(let f) = outcome.result, case .message = f.detail {
                    Output.err(
                        "Error: \(TerminalSanitizer.sanitize(label)): \(TerminalSanitizer.sanitize(f.message))\n")
                }
            }
        }
        return worst
    }

    /// Reads the --anchor files once for every request, which all share them: read per check,
    /// a large bundle times a thousand targets would exhaust the run's input allowance (D213).
    static func readAnchorsOnce(_ requests: inout [CheckCommand.Request]) -> Trustx.Failure? {
        guard let first = requests.first, !first.anchorFiles.isEmpty else { return nil }
        var anchors: [Certificate] = []
        for path in first.anchorFiles {
            switch Trustx.load(path, password: first.password, command: CheckCommand.spec) {
            case .success(let certs): anchors += certs
            case .failure(let f): return f
            }
        }
        for i in requests.indices where requests[i].anchorFiles == first.anchorFiles {
            requests[i].anchorCertificates = anchors
        }
        return nil
    }

    /// Validates one item as a single check, its error prefixed with where the item came from.
    static func validate(_ item: Item, now: Timestamp) throws(UsageError) -> CheckCommand.Request {
        do {
            return try CheckCommand.validate(item.arguments, now: now)
        } catch {
            // A line of the file can be as long as the file: its message is quoted, not repeated.
            throw UsageError(message: item.origin + InputExcerpt.quote(error.message, limit: 300))
        }
    }

    /// How bad a status is among several checks: a failure to reach a server outranks a chain
    /// that is not trusted, and an error in the run's own input outranks both; a chain trusted
    /// now that fails soon (`--expires-within`) ranks between trusted and not trusted (D464).
    static func rank(_ s: ExitStatus) -> Int {
        switch s {
        case .success: return 0
        case .expiresSoon: return 1
        case .notTrusted: return 2
        case .unavailable: return 3
        default: return 4
        }
    }

    static func jobCount(_ p: ParsedArguments) throws(UsageError) -> Int {
        guard let text = p.value("jobs") else { return defaultJobs }
        guard let n = Int(text), n >= 1, n <= maximumJobs else {
            throw UsageError(
                message:
                    "The value '\(InputExcerpt.quote(text))' is invalid for '--jobs <count>': expected a whole number from 1 to \(maximumJobs)"
            )
        }
        return n
    }

    /// The targets of the command line, then those of the `--targets` file, each with the
    /// command line's options (and the line's own after them, so that the line's win).
    static func collect(_ p: ParsedArguments) throws -> [Item] {
        if p.has("chain") {
            throw UsageError(message: "Several targets or --targets cannot be combined with --chain files")
        }
        if p.has("all-addresses") {
            throw UsageError(
                message:
                    "--all-addresses checks one name; for a pool among several targets, give --connect-to with the addresses separated by commas"
            )
        }
        var base = p
        base.positionals = []
        base.occurrences.removeAll { $0.name == "targets" || $0.name == "jobs" }
        var items = p.positionals.map { target in
            var a = base
            a.positionals = [target]
            return Item(label: target, origin: "", arguments: a)
        }
        if let path = p.value("targets") {
            let bytes: [UInt8]
            do {
                bytes = try Trustx.readInput(path)
            } catch {
                throw Trustx.Failure(message: error.description, status: .noInput)
            }
            items += try TargetsFile.parse(
                bytes, path: path == "-" ? Trustx.standardInputName : path, base: base, limit: maximumTargets)
        }
        if items.isEmpty {
            throw UsageError(message: "The --targets file names no target")
        }
        return items
    }

    /// One item per address of a `--connect-to` list (`127.0.0.1,127.0.0.2:8443`): a pool named
    /// without DNS, as `--all-addresses` finds one through it.
    static func expandAddresses(_ items: [Item]) throws(UsageError) -> [Item] {
        var out: [Item] = []
        var overflow = false
        for item in items {
            guard let list = item.arguments.value("connect-to"), list.contains(",") else {
                out.append(item)
                continue
            }
            // Counted before it is split: a list of millions is refused at the cost of one pass
            // over its bytes, not millions of strings (D323).
            if out.count + addressCount(list) > maximumTargets {
                overflow = true
                break
            }
            let addresses = list.split(separator: ",", omittingEmptySubsequences: false).map {
                String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            }
            if addresses.contains(where: \.isEmpty) {
                throw UsageError(
                    message: "\(item.origin)--connect-to \(InputExcerpt.quote(list)) has an empty address in its list")
            }
            for address in addresses {
                var one = item
                one.arguments.occurrences.removeAll { $0.name == "connect-to" }
                one.arguments.occurrences.append(.init(name: "connect-to", value: address))
                out.append(one)
            }
            if out.count > maximumTargets { break }
        }
        if overflow || out.count > maximumTargets {
            throw UsageError(
                message: "More than \(maximumTargets) checks (targets times --connect-to addresses); split the list")
        }
        return out
    }

    /// How many checks a `--connect-to` value makes: one per address of a comma-separated list,
    /// one for a single address or none given. Counts bytes, makes no strings.
    static func addressCount(_ list: String?) -> Int {
        guard let list else { return 1 }
        var commas = 0
        for b in list.utf8 where b == 0x2C { commas += 1 }
        return commas + 1
    }

    /// What one check gave: its exit status and the evaluation or the failure.
    struct Outcome {
        var result: Result<Evaluation, Trustx.Failure>
        /// How long the check took, for `--format junit`'s `time`.
        var seconds: Double = 0
        /// The timeline `--timeline` or `--expires-within` asked for.
        var timeline: Timeline?
        /// The change within `--expires-within`'s window of a chain trusted now.
        var failsSoon: Timeline.Entry?
        /// Whether the report shows the timeline (`--timeline`).
        var showTimeline = false

        /// The status the run exits with for this check: `status`, or 2 for a trusted chain
        /// that fails within `--expires-within`'s window.
        var exitStatus: ExitStatus { status == .success && failsSoon != nil ? .expiresSoon : status }

        var status: ExitStatus {
            switch result {
            case .success(let e): return e.verdict.trusted ? .success : .notTrusted
            case .failure(let f): return f.status
            }
        }

        /// The outcome of `check`, timed.
        static func timed(_ check: () -> Result<Evaluation, Trustx.Failure>) -> Outcome {
            let start = ContinuousClock.now
            let result = check()
            return Outcome(result: result, seconds: JUnitReport.seconds(since: start))
        }

        /// The evaluation to show, also for a connection that failed after the chain arrived.
        var evaluation: Evaluation? {
            switch result {
            case .success(let e): return e
            case .failure(let f):
                if case .evaluation(let e) = f.detail { return e }
                return nil
            }
        }

        /// What the connection showed, evaluated or not.
        var connection: ConnectionReport? {
            if let c = evaluation?.connection { return c }
            if case .failure(let f) = result, case .connection(let c, _) = f.detail { return c }
            return nil
        }
    }

    /// Runs the checks on `jobs` threads, each taking the next unstarted one, and returns the
    /// outcomes in the order of `requests`.
    static func runAll(_ requests: [CheckCommand.Request], jobs: Int, environment: Environment) -> [Outcome] {
        let slots = Slots(count: requests.count)
        let work = Work(requests: requests, environment: environment)
        var threads: [POSIXThread] = []
        for _ in 0..<min(jobs, requests.count) {
            let thread = try? POSIXThread(
                RunStreams.bound {
                    while let i = slots.claim() { slots.store(i, work.timed(i)) }
                })
            if let thread { threads.append(thread) }
        }
        // Should no thread start at all, the checks run here, one at a time.
        if threads.isEmpty {
            while let i = slots.claim() { slots.store(i, work.timed(i)) }
        }
        for t in threads { t.join() }
        return slots.results()
    }

    /// The requests, shared read-only by the worker threads.
    final class Work: @unchecked Sendable {
        // @unchecked: both properties are set in init and only read afterwards.
        let requests: [CheckCommand.Request]
        let environment: Environment

        init(requests: [CheckCommand.Request], environment: Environment) {
            self.requests = requests
            self.environment = environment
        }

        func check(_ i: Int) -> Result<Evaluation, Trustx.Failure> {
            CheckCommand.evaluateServer(requests[i], environment: environment)
        }

        /// The check of request `i`, with how long it took, and its timeline when asked for.
        func timed(_ i: Int) -> Outcome {
            var outcome = Outcome.timed { check(i) }
            outcome.addTimeline(requests[i])
            return outcome
        }
    }

    /// One slot per check, each written by the one thread that claimed its index.
    final class Slots: @unchecked Sendable {
        // @unchecked: `next` is guarded by its mutex; each slot of `buffer` is written by the
        // single thread that claimed its index and read only after every thread was joined.
        private let next = Mutex<Int>(0)
        private let buffer: UnsafeMutableBufferPointer<Outcome?>

        init(count: Int) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: nil)
        }

        deinit {
            buffer.deinitialize()
            buffer.deallocate()
        }

        func claim() -> Int? {
            next.withLock { n in
                guard n < buffer.count else { return nil }
                defer { n += 1 }
                return n
            }
        }

        func store(_ i: Int, _ outcome: Outcome) { buffer[i] = outcome }

        func results() -> [Outcome] {
            buffer.map {
                $0 ?? Outcome(result: .failure(Trustx.Failure(message: "not checked", status: .unavailable)))
            }
        }
    }

    /// The array of reports, each the object a single `check --format json` prints.
    static func json(_ outcomes: [Outcome], includePEM: Bool = false) -> String {
        let documents = outcomes.map { outcome -> String in
            var text: String
            switch outcome.result {
            case .success(let e):
                text = JSONWriter.serialize(
                    CheckTimeline.document(JSONReport.document(e, includePEM: includePEM), outcome))
            case .failure(let f):
                switch f.detail {
                case .evaluation(let e): text = JSONReport.render(e, includePEM: includePEM)
                case .connection(let c, let settings): text = JSONReport.renderConnectionFailure(c, settings: settings)
                case .message, .usage:
                    text = JSONWriter.serialize(
                        .object([
                            ("schema", .int(JSONReport.schemaVersion)), ("error", .string(f.message)),
                        ]))
                }
            }
            while text.hasSuffix("\n") { text.removeLast() }
            return text
        }
        return "[\n" + documents.joined(separator: ",\n") + "\n]\n"
    }
}
