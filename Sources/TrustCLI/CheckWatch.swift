import CommandLineSpec
import Synchronization
import TLSProbe
import TrustCore
import TrustReport
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trustx check --watch SECONDS`: checks the target (or every target of several, of
/// `--targets`, of a `--connect-to` list, or every address of `--all-addresses`) once and prints
/// the usual report or table, then checks them again every SECONDS and prints only what changed,
/// one line per address stamped with the UTC time (D241). Each round is validated once and run as
/// a check of several targets is, with the same `--jobs` and `--timeout`; names are resolved
/// again every round, so an address that appears or goes is seen.
enum CheckWatch {
    /// The longest interval between rounds: a day.
    static let maximumInterval = 86_400
    /// The most rounds `--watch-count` may ask for.
    static let maximumRounds = 1_000_000

    /// `--watch SECONDS`.
    static let watchOption = OptionSpec(
        name: "watch", valueName: "seconds", arity: .one,
        help:
            "Check again every this many seconds (1 to \(maximumInterval)) until Ctrl-C or SIGTERM: first the usual report, then only what changed (a new leaf or key, a new chain, a verdict that flips, an address that appears or goes, a failure, a recovery), one line per address stamped with the UTC time; with --format json, one JSON object per line."
    )

    /// `--watch-count N`.
    static let countOption = OptionSpec(
        name: "watch-count", valueName: "rounds", arity: .one,
        help:
            "With --watch: stop after this many rounds, the first included (1 to \(maximumRounds)); the exit status is the last round's worst."
    )

    /// `--until-change`.
    static let untilChangeOption = OptionSpec(
        name: "until-change", arity: .flag,
        help:
            "With --watch: stop at the first round that finds a change, with that round's exit status (the worst of its checks)."
    )

    /// The options only `check` takes.
    static let optionNames = [watchOption.name, countOption.name, untilChangeOption.name]

    /// Whether the command line asks for a watch.
    static func applies(_ p: ParsedArguments) -> Bool { optionNames.contains { p.has($0) } }

    /// One target as the user named it, validated once for every round.
    struct Watched {
        var label: String
        var request: CheckCommand.Request
        /// Whether each round resolves the name and checks every address (`--all-addresses`).
        var eachAddress: Bool
        /// The history this target's observations go to: the addresses of one `--connect-to`
        /// list share their target's.
        var group: Int
    }

    /// One connection of a round and the target it belongs to.
    struct Check {
        var watched: Int
        var request: CheckCommand.Request
    }

    /// What one round gave.
    struct Round {
        var time: Timestamp
        var checks: [Check]
        var outcomes: [FleetCheck.Outcome]
        /// `--all-addresses` targets whose name did not resolve, with why.
        var unresolved: [(watched: Int, message: String)]

        /// The worst status among the round's checks, ranked as for several targets.
        var status: ExitStatus {
            var worst = unresolved.isEmpty ? ExitStatus.success : .unavailable
            for o in outcomes where FleetCheck.rank(o.exitStatus) > FleetCheck.rank(worst) { worst = o.exitStatus }
            return worst
        }
    }

    static func run(_ p: ParsedArguments, now: Timestamp, environment: Environment) -> ExitStatus {
        let spec = CheckCommand.spec
        let interval: Int
        let rounds: Int?
        let jobs: Int
        let fleet: Bool
        var watched: [Watched]
        do {
            (interval, rounds) = try schedule(p)
            var base = p
            base.occurrences.removeAll { optionNames.contains($0.name) }
            if ReportFormat(base) == .markdown || ReportFormat(base) == .junit {
                throw UsageError(
                    message:
                        "--watch prints text, or JSON with --format json, not \(ReportFormat(base) == .junit ? "JUnit" : "Markdown")"
                )
            }
            jobs = try FleetCheck.jobCount(base)
            fleet = FleetCheck.applies(base)
            watched = try targets(base, fleet: fleet, now: now)
        } catch let e as Trustx.Failure {
            return e.report()
        } catch let e as UsageError {
            return Trustx.usageError(e, spec)
        } catch {
            return Trustx.fail("\(error)", .usage)
        }
        var requests = watched.map(\.request)
        if let failure = FleetCheck.readAnchorsOnce(&requests) { return failure.report() }
        for i in watched.indices { watched[i].request = requests[i] }
        let format = ReportFormat(p)
        let single = !fleet && !watched[0].eachAddress
        let quiet = watched[0].request.quiet
        let untilChange = p.has(untilChangeOption.name)
        // --quiet: the line last printed for each target and address, of the previous round only.
        var lastQuiet: [String: String] = [:]

        // Blocked before any thread starts, so every thread inherits the mask and the waits
        // below are the only place a stop signal arrives: the watch ends between lines.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopSignals, s) }
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &stopSignals, &previousMask)
        let run = RunStreams.current
        run.stopSignals.withLock { $0 = stopSignals }
        // Run in process for a caller that goes on (not main, which exits), the caller's thread
        // gets its mask back; main keeps it, so a late signal cannot end the process unreported.
        defer { if !run.isProcess { pthread_sigmask(SIG_SETMASK, &previousMask, nil) } }

        var histories: [WatchHistory] = []
        for w in watched where w.group == histories.count { histories.append(WatchHistory(target: w.label)) }
        var status: ExitStatus?
        var round = 0
        var changeCount = 0
        var first: Timestamp?
        var last: Timestamp?
        var next = ContinuousClock.now
        while round < rounds ?? Int.max {
            if round > 0 && !sleep(until: next, stopSignals) { break }
            next = ContinuousClock.now + .seconds(interval)
            guard let result = runRound(watched, jobs: jobs, environment: environment, stopSignals) else { break }
            var observed = Array(repeating: [WatchObservation](), count: histories.count)
            for o in observations(result, watched) { observed[o.group].append(o.observation) }
            var changes: [WatchChange] = []
            for g in histories.indices { changes += histories[g].fold(observed[g], at: result.time) }
            if first == nil { first = result.time }
            last = result.time
            // Counted as printed: the changes of one address seen at once share a line (D304).
            if round > 0 { changeCount += WatchChange.textLines(changes).count }
            if quiet {
                if round == 0, let failure = ownInputFailure(result) { return failure }
                let lines = quietLines(result, watched)
                let text = lines.filter { lastQuiet[$0.key] != $0.line }.map(\.line).joined()
                lastQuiet = Dictionary(lines.map { ($0.key, $0.line) }, uniquingKeysWith: { _, last in last })
                if !text.isEmpty && (!emit(text) || Output.stopped) { return result.status }
            } else if round == 0 {
                if let failure = printFirst(result, watched, single: single, format: format, environment: environment) {
                    return failure
                }
                // The first report could not be written: a watch nobody can read ends here; so
                // does one whose stop signal came while the report waited for its reader.
                if Output.outputFailure != 0 || Output.stopped { return result.status }
                if format != .json && rounds != 1 {
                    Output.err("Watching every \(interval) s until Ctrl-C; from now on only changes are printed.\n")
                }
            } else if !changes.isEmpty {
                let text = format == .json ? changes.map(\.jsonLine).joined() : WatchChange.textLines(changes).joined()
                // Nobody reads any more (`| head`): the watch has no one left to tell. A stop
                // signal while the reader does not read ends it too.
                if !emit(text) || Output.stopped { return result.status }
            }
            status = result.status
            round += 1
            // --until-change: the first change ends the watch with its round's status (D412).
            if untilChange && round > 1 && !changes.isEmpty { break }
        }
        // What the night came to, for whoever scrolls back: the rounds, their span, the changes.
        if format != .json, !quiet, round > 1, let first, let last {
            let plural = changeCount == 1 ? "change" : "changes"
            Output.err("Watched \(round) rounds from \(first.rfc3339) to \(last.rfc3339): \(changeCount) \(plural).\n")
        }
        // Stopped before the first round ended: no server was checked.
        return status ?? .unavailable
    }

    /// Writes `text` to standard output; false when it cannot be written (the reader has gone,
    /// the disk is full: main then exits 73) or a stop signal came while it waited for the
    /// reader (D325).
    static func emit(_ text: String) -> Bool { Output.write(text, to: 1) }

    /// `--watch` and `--watch-count`, checked.
    static func schedule(_ p: ParsedArguments) throws(UsageError) -> (interval: Int, rounds: Int?) {
        guard let text = p.value("watch") else {
            if !p.has("watch-count") {
                throw UsageError(message: "--until-change ends a --watch at its first change; give --watch SECONDS too")
            }
            throw UsageError(message: "--watch-count counts the rounds of --watch SECONDS; give --watch too")
        }
        guard let interval = Int(text), interval >= 1, interval <= maximumInterval else {
            throw UsageError(
                message:
                    "The value '\(InputExcerpt.quote(text))' is invalid for '--watch <seconds>': expected a whole number of seconds from 1 to \(maximumInterval)"
            )
        }
        guard let countText = p.value("watch-count") else { return (interval, nil) }
        guard let count = Int(countText), count >= 1, count <= maximumRounds else {
            throw UsageError(
                message:
                    "The value '\(InputExcerpt.quote(countText))' is invalid for '--watch-count <rounds>': expected a whole number from 1 to \(maximumRounds)"
            )
        }
        return (interval, count)
    }

    /// The targets to watch, each validated as its single check would be.
    static func targets(_ p: ParsedArguments, fleet: Bool, now: Timestamp) throws -> [Watched] {
        guard fleet else {
            let request = try CheckCommand.validate(p, now: now)
            guard request.connection != nil else {
                throw UsageError(
                    message: "--watch checks a server again and again; give a server rather than --chain files")
            }
            let label = request.targetText ?? p.positionals.first ?? ""
            return [Watched(label: label, request: request, eachAddress: request.allAddresses, group: 0)]
        }
        var out: [Watched] = []
        var groups: [String: Int] = [:]
        for item in try FleetCheck.expandAddresses(try FleetCheck.collect(p)) {
            // The addresses of one --connect-to list come from one item: one target, one history.
            let key = item.origin + "\u{0}" + item.label
            let group = groups[key] ?? groups.count
            groups[key] = group
            out.append(
                Watched(
                    label: item.label, request: try FleetCheck.validate(item, now: now), eachAddress: false,
                    group: group))
        }
        return out
    }

    /// Runs one round on a thread of its own while this thread waits for it or for a stop
    /// signal; nil when a signal came first (the round's connections are abandoned, nothing of
    /// the round is printed).
    static func runRound(
        _ watched: [Watched], jobs: Int, environment: Environment, _ stopSignals: sigset_t
    ) -> Round? {
        // Each round is a run of its own for the input cap (D241): files read again every round
        // (CRLs, an ATS property list, a client identity) would otherwise exhaust it.
        RunStreams.current.inputAllowance.withLock { $0 = InputAllowance() }
        let job = RoundJob(watched: watched, jobs: jobs, environment: environment)
        guard (try? POSIXThread(detached: true, RunStreams.bound { job.run() })) != nil else {
            job.run()
            return job.result
        }
        var signals = stopSignals
        while !job.isDone {
            var wait = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            if sigtimedwait(&signals, nil, &wait) > 0 { return nil }
        }
        return job.result
    }

    /// Waits until `deadline`; false when a stop signal came first.
    static func sleep(until deadline: ContinuousClock.Instant, _ stopSignals: sigset_t) -> Bool {
        var signals = stopSignals
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero { return true }
            let (seconds, attoseconds) = left.components
            var wait = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            // A positive result is the signal's number; -1 is the time running out (EAGAIN) or
            // another signal (EINTR), after which the time left is measured again.
            if sigtimedwait(&signals, nil, &wait) > 0 { return false }
        }
    }

    /// One round's work, handed to its thread.
    final class RoundJob: @unchecked Sendable {
        // @unchecked: the inputs are set in init and only read; `finished` is written once by
        // the round's thread under `done`'s lock and read by the waiting thread only after it
        // saw `done` set under the same lock.
        let watched: [Watched]
        let jobs: Int
        let environment: Environment
        private let done = Mutex(false)
        private var finished: Round?

        init(watched: [Watched], jobs: Int, environment: Environment) {
            self.watched = watched
            self.jobs = jobs
            self.environment = environment
        }

        var isDone: Bool { done.withLock { $0 } }

        var result: Round? { isDone ? finished : nil }

        func run() {
            let round = CheckWatch.round(watched, jobs: jobs, environment: environment)
            done.withLock { flag in
                finished = round
                flag = true
            }
        }
    }

    /// Resolves the `--all-addresses` names, then checks everything `jobs` at a time.
    static func round(_ watched: [Watched], jobs: Int, environment: Environment) -> Round {
        let time = currentTime()
        var checks: [Check] = []
        var unresolved: [(watched: Int, message: String)] = []
        for (i, w) in watched.enumerated() {
            // Without --at every round evaluates at its own time: a leaf that expires during the
            // watch is reported, and one issued after the watch began is not "not yet valid".
            var request = w.request
            request.now = time
            guard w.eachAddress, let c = request.connection else {
                checks.append(Check(watched: i, request: request))
                continue
            }
            do {
                for address in try Probe.addresses(of: c.target.host, timeout: c.options.timeout) {
                    var one = request
                    one.connection?.target.connectTo = Endpoint(host: address, port: c.target.port)
                    checks.append(Check(watched: i, request: one))
                }
            } catch {
                unresolved.append((i, error.message))
            }
        }
        let outcomes = FleetCheck.runAll(checks.map(\.request), jobs: jobs, environment: environment)
        return Round(time: time, checks: checks, outcomes: outcomes, unresolved: unresolved)
    }

    /// The round's observations, each with the history it belongs to.
    static func observations(_ r: Round, _ watched: [Watched]) -> [(group: Int, observation: WatchObservation)] {
        var out: [(group: Int, observation: WatchObservation)] = []
        for (check, outcome) in zip(r.checks, r.outcomes) {
            let w = watched[check.watched]
            let o = WatchObservation(
                target: w.label, address: address(check, outcome), time: r.time, outcome: watchOutcome(outcome))
            out.append((w.group, o))
        }
        for (i, message) in r.unresolved {
            let w = watched[i]
            out.append(
                (w.group, WatchObservation(target: w.label, address: nil, time: r.time, outcome: .failed(message))))
        }
        return out
    }

    /// The address a check went to: the one it was told to connect to, else the one it
    /// reached; nil when it reached none (the name did not resolve, the port refused).
    static func address(_ check: Check, _ outcome: FleetCheck.Outcome) -> String? {
        check.request.connection?.target.connectTo?.description ?? outcome.connection?.peerAddress
    }

    static func watchOutcome(_ o: FleetCheck.Outcome) -> WatchOutcome {
        if let e = o.evaluation {
            var summary = WatchSummary(e, trusted: o.status == .success)
            summary.failsFrom = o.failsSoon?.at
            return .evaluated(summary)
        }
        guard case .failure(let f) = o.result else { return .failed("no result") }
        if case .connection(let c, _) = f.detail { return .failed(CheckCommand.connectionFailureLine(c)) }
        return .failed(f.message)
    }

    /// The failure of the run's own input (an unreadable file) among the round's, which ends the
    /// watch before it starts.
    static func ownInputFailure(_ r: Round) -> ExitStatus? {
        for o in r.outcomes {
            if case .failure(let f) = o.result, FleetCheck.rank(f.status) > FleetCheck.rank(.unavailable) {
                return f.report()
            }
        }
        return nil
    }

    /// The round's `--quiet` lines, each with its target and address as the key a later round's
    /// line is compared under.
    static func quietLines(_ r: Round, _ watched: [Watched]) -> [(key: String, line: String)] {
        var out: [(key: String, line: String)] = []
        for (check, outcome) in zip(r.checks, r.outcomes) {
            let label = watched[check.watched].label
            let address = address(check, outcome)
            out.append(
                (label + "\u{0}" + (address ?? ""), CheckQuiet.line(label: label, address: address, outcome: outcome)))
        }
        for (i, _) in r.unresolved {
            out.append((watched[i].label + "\u{0}", CheckQuiet.unresolved(label: watched[i].label)))
        }
        return out
    }

    /// Prints the first round: the report of one target or the table of several (text), or one
    /// `initial` JSON line per check with its full report. Returns a status when the run's own
    /// input is at fault (an unreadable file), which ends the watch before it starts.
    static func printFirst(
        _ r: Round, _ watched: [Watched], single: Bool, format: ReportFormat, environment: Environment
    ) -> ExitStatus? {
        if let failure = ownInputFailure(r) { return failure }
        let labels = r.checks.map { watched[$0.watched].label }
        if format == .json {
            var text = ""
            for ((check, outcome), label) in zip(zip(r.checks, r.outcomes), labels) {
                text += initialLine(
                    r.time, target: label, address: address(check, outcome),
                    report: report(
                        outcome, single: single, timeout: check.request.timeout,
                        includePEM: check.request.includePEM))
            }
            for (i, message) in r.unresolved {
                let error: JSONValue = .object([
                    ("schema", .int(JSONReport.schemaVersion)), ("error", .string(message)),
                ])
                text += initialLine(r.time, target: watched[i].label, address: nil, report: error)
            }
            Output.out(text)
            return nil
        }
        if single, let outcome = r.outcomes.first {
            switch outcome.result {
            case .success(let e):
                let compared = withStoreComparison(e, deadline: EvaluationDeadline(after: watched[0].request.timeout))
                CheckTimeline.render(
                    compared, outcome.timeline, show: outcome.showTimeline, format: format, environment: environment,
                    includePEM: false)
                if let soon = outcome.failsSoon, let days = watched[0].request.timeline.expiresWithin {
                    Output.err(CheckTimeline.note(soon, days: days))
                }
            case .failure(let f):
                switch f.detail {
                case .evaluation(let e): CheckCommand.render(e, format: format, environment: environment)
                case .connection(let c, _): _ = Trustx.fail(CheckCommand.connectionFailureLine(c), .unavailable)
                case .message, .usage: _ = Trustx.fail(f.message, f.status)
                }
            }
            return nil
        }
        Output.out(
            FleetTable.text(labels: labels, outcomes: r.outcomes)
                + CheckTimeline.fleetText(labels: labels, outcomes: r.outcomes, environment: environment))
        for (i, message) in r.unresolved {
            _ = Trustx.fail("\(InputExcerpt.quote(watched[i].label)): \(message)", .unavailable)
        }
        return nil
    }

    /// One `initial` line: the time, the target, the address and the full report.
    static func initialLine(_ time: Timestamp, target: String, address: String?, report: JSONValue) -> String {
        JSONWriter.serializeLine(
            .object([
                ("event", .string("initial")),
                ("time", .string(time.rfc3339)),
                ("target", .string(target)),
                ("address", .string(address)),
                ("report", report),
            ]))
    }

    /// The report `check --format json` prints for this outcome (with the store comparison
    /// only for one target, as there).
    static func report(
        _ outcome: FleetCheck.Outcome, single: Bool, timeout: Duration, includePEM: Bool = false
    ) -> JSONValue {
        switch outcome.result {
        case .success(let e):
            // The comparison of a watch's first report has its own --timeout, as a round does.
            return CheckTimeline.document(
                JSONReport.document(
                    single ? withStoreComparison(e, deadline: EvaluationDeadline(after: timeout)) : e,
                    includePEM: includePEM), outcome)
        case .failure(let f):
            switch f.detail {
            case .evaluation(let e): return JSONReport.document(e, includePEM: includePEM)
            case .connection(let c, let settings): return JSONReport.connectionFailureDocument(c, settings: settings)
            case .message, .usage:
                return .object([("schema", .int(JSONReport.schemaVersion)), ("error", .string(f.message))])
            }
        }
    }
}
