import ATSModel
import CommandLineSpec
import TLSProbe
import TrustCore
import TrustOptions
import TrustReport
import TrustSupport
import TrustTimeline
import TrustX509

/// `trustx check`: evaluates a chain from a server or from files and prints a report.
enum CheckCommand {
    static let name = "check"

    static func run(_ args: [String], now: Timestamp, environment: Environment) -> ExitStatus {
        let parsed: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let p): parsed = p
        case .failure(let exit): return exit.status
        }
        if parsed.has(CheckWriteChain.option.name) && (CheckWatch.applies(parsed) || FleetCheck.applies(parsed)) {
            return Trustx.usageError(
                UsageError(
                    message: "--write-chain writes one chain: give one target or --chain files, without --watch"),
                spec)
        }
        if CheckWatch.applies(parsed) { return CheckWatch.run(parsed, now: now, environment: environment) }
        if FleetCheck.applies(parsed) { return FleetCheck.run(parsed, now: now, environment: environment) }
        let request: Request
        do {
            request = try validate(parsed, now: now)
        } catch {
            return Trustx.usageError(error, spec)
        }
        if request.format == .junit || request.quiet { return runCollected(request, environment: environment) }
        if request.allAddresses { return runEachAddress(request, environment: environment) }
        return runOne(request, environment: environment)
    }

    /// `--format junit` and `--quiet` for one target, its `--all-addresses`, or `--chain` files:
    /// one testcase or line per address (D410, D411). An error in the run's own input (a file
    /// that cannot be read) is reported as without them, before anything is printed.
    static func runCollected(_ request: Request, environment: Environment) -> ExitStatus {
        let (started, runStart) = (currentTime(), ContinuousClock.now)
        var requests = [request]
        if request.allAddresses, let c = request.connection {
            do {
                requests = try Probe.addresses(of: c.target.host, timeout: c.options.timeout).map { address in
                    var one = request
                    one.connection?.target.connectTo = Endpoint(host: address, port: c.target.port)
                    return one
                }
            } catch {
                return Trustx.fail(error.message, .unavailable)
            }
        }
        var cases: [JUnitReport.Case] = []
        var worst = ExitStatus.success
        let label = request.targetText ?? request.chainFiles.joined(separator: " ")
        for one in requests {
            var outcome = FleetCheck.Outcome.timed {
                one.connection == nil ? evaluate(one) : evaluateServer(one, environment: environment)
            }
            outcome.addTimeline(one)
            if case .failure(let f) = outcome.result, FleetCheck.rank(f.status) > FleetCheck.rank(.unavailable) {
                return f.report()
            }
            if FleetCheck.rank(outcome.exitStatus) > FleetCheck.rank(worst) { worst = outcome.exitStatus }
            cases.append(JUnitReport.Case(label: label, address: JUnitReport.address(one, outcome), outcome: outcome))
        }
        if request.quiet {
            Output.out(
                cases.map { CheckQuiet.line(label: $0.label, address: $0.address, outcome: $0.outcome) }.joined())
        } else {
            Output.out(
                JUnitReport.render(
                    cases, settings: request.settings,
                    context: SettingContext(isServer: request.connection != nil, targetHost: request.targetHost),
                    started: started, seconds: JUnitReport.seconds(since: runStart)))
        }
        return worst
    }

    /// `--all-addresses`: one report per address the name resolves to, separated by a heading in
    /// text and Markdown, a JSON array in JSON. The status is the worst: 69 when any address
    /// could not be reached, else 1 when any chain is not trusted.
    static func runEachAddress(_ request: Request, environment: Environment) -> ExitStatus {
        guard let c = request.connection else { return runOne(request, environment: environment) }
        let addresses: [String]
        do {
            addresses = try Probe.addresses(of: c.target.host, timeout: c.options.timeout)
        } catch {
            return Trustx.fail(error.message, .unavailable)
        }
        var worst = ExitStatus.success
        if request.format == .json { Output.out("[\n") }
        for (i, address) in addresses.enumerated() {
            var one = request
            one.connection?.target.connectTo = Endpoint(host: address, port: c.target.port)
            switch request.format {
            case .json: if i > 0 { Output.out(",\n") }
            case .markdown: Output.out("\(i == 0 ? "" : "\n")## \(c.target.host) at \(address)\n\n")
            case .text, .junit:
                Output.out(
                    "\(i == 0 ? "" : "\n")== \(c.target.host) at \(address) (\(i + 1) of \(addresses.count)) ==\n")
            }
            let status = runOne(one, environment: environment)
            if FleetCheck.rank(status) > FleetCheck.rank(.unavailable) { return status }
            if FleetCheck.rank(status) > FleetCheck.rank(worst) { worst = status }
        }
        if request.format == .json { Output.out("]\n") }
        return worst
    }

    static func runOne(_ request: Request, environment: Environment) -> ExitStatus {
        let evaluation: Evaluation
        // The run's deadline, as the evaluation's own (set a moment later) runs to it: the
        // store comparison ends by it too (D326).
        let deadline = EvaluationDeadline(after: request.timeout)
        let outcome = request.connection == nil ? evaluate(request) : evaluateServer(request, environment: environment)
        switch outcome {
        case .success(let e): evaluation = withStoreComparison(e, deadline: deadline)
        case .failure(let failure):
            switch failure.detail {
            case .evaluation(let partial):
                render(partial, format: request.format, environment: environment, includePEM: request.includePEM)
                return .unavailable
            case .connection(let connection, let settings):
                switch request.format {
                case .json: Output.out(JSONReport.renderConnectionFailure(connection, settings: settings))
                case .markdown: Output.out(MarkdownReport.renderConnectionFailure(connection))
                case .text, .junit:
                    // Nothing was evaluated, so there is no report: the reason on standard error,
                    // as for any other error (the JSON and Markdown reports carry the details),
                    // then what iOS 26's hello met, which can differ: a server that speaks only
                    // X25519MLKEM768 refuses this machine's hello and answers a device's.
                    let status = Trustx.fail(connectionFailureLine(connection), .unavailable)
                    if let hello = connection.appleClientHello, hello.outcome != .notSent {
                        Output.err("apple hello: \(TerminalSanitizer.sanitize(hello.summary))\n")
                    }
                    return status
                }
                return .unavailable
            case .message, .usage: return failure.report()
            }
        }
        let timeline = CheckTimeline.make(evaluation, request)
        // `--write-chain -` puts the chain where the report would go.
        if request.writeChain != "-" {
            CheckTimeline.render(
                evaluation, timeline, show: request.timeline.show, format: request.format, environment: environment,
                includePEM: request.includePEM)
        }
        var status: ExitStatus = evaluation.verdict.trusted ? .success : .notTrusted
        if let soon = CheckTimeline.failure(timeline, evaluation, request), let days = request.timeline.expiresWithin {
            Output.err(CheckTimeline.note(soon, days: days))
            status = .expiresSoon
        }
        guard let path = request.writeChain else { return status }
        return CheckWriteChain.finish(evaluation, to: path, status: status, deadline: deadline)
    }

    /// Why a connection failed and what URLSession would report, in one line.
    static func connectionFailureLine(_ c: ConnectionReport) -> String {
        guard let f = c.failure else { return "no chain was received" }
        let code = f.urlError.map { "; URLSession reports \(URLErrorNames.name($0)) (\($0))" } ?? ""
        return f.message + code
    }

    static func render(
        _ evaluation: Evaluation, format: ReportFormat, environment: Environment, includePEM: Bool = false
    ) {
        switch format {
        case .json: Output.out(JSONReport.render(evaluation, includePEM: includePEM))
        case .markdown: Output.out(MarkdownReport.render(evaluation))
        // JUnit has its own run (runJUnit): a watch refuses it, so only text is left here.
        case .text, .junit: Output.out(TextReport.render(evaluation, options: environment.textOptions))
        }
    }

    /// Reads the --ats-plist file (ATS's defaults for --ats need none) into `ats`: 66 when it
    /// cannot be read, 65 when it is no property list or its NSAppTransportSecurity is not a
    /// dictionary.
    static func loadATS(_ ats: ATSChoice) -> Result<ATSChoice, Trustx.Failure> {
        guard ats.enabled, let path = ats.source else { return .success(ats) }
        var loaded = ats
        do {
            loaded.configuration = try ATSConfiguration.decode(infoPlist: try Trustx.inputAllowance.read(path))
        } catch let e as LoadError {
            if case .unreadable = e { return .failure(Trustx.Failure(message: e.description, status: .noInput)) }
            return .failure(Trustx.Failure(message: "\(path): \(e.description)", status: .dataError))
        } catch let e as ATSConfigurationError {
            return .failure(Trustx.Failure(message: "\(path): \(e.description)", status: .dataError))
        } catch {
            return .failure(Trustx.Failure(message: "\(path): \(error)", status: .dataError))
        }
        return .success(loaded)
    }

    /// `settings` with the files they name read: the --crl files, then the --ats-plist file.
    static func loadFiles(_ settings: CheckSettings) -> Result<CheckSettings, Trustx.Failure> {
        var loaded = settings
        switch loadCRLs(settings.crls.paths) {
        case .success(let crls): loaded.crls.lists = crls
        case .failure(let f): return .failure(f)
        }
        switch loadATS(settings.ats) {
        case .success(let ats): loaded.ats = ats
        case .failure(let f): return .failure(f)
        }
        return .success(loaded)
    }

    /// The engine's settings for `r`: its anchors read from their files (or given), the files its
    /// settings name, the store and the CT evidence. With custom anchors Apple trusts only them
    /// unless SecTrustSetAnchorCertificatesOnly(false); the store is a source of parent
    /// certificates even when its roots are not trusted.
    static func trustSettings(_ r: Request) -> Result<TrustSettings, Trustx.Failure> {
        var anchors: [Certificate] = r.anchorCertificates ?? []
        for path in r.anchorCertificates == nil ? r.anchorFiles : [] {
            switch Trustx.load(path, password: r.password, command: spec) {
            case .success(let certs): anchors += certs
            case .failure(let f): return .failure(f)
            }
        }
        var settings: TrustSettings
        switch loadFiles(r.settings) {
        case .success(let loaded):
            settings = loaded.trustSettings(
                anchors: anchors, systemStore: makeSystemStore(r.settings.store), targetHost: r.targetHost, now: r.now)
        case .failure(let f): return .failure(f)
        }
        if case .failure(let f) = loadCT(r.ct, into: &settings) { return .failure(f) }
        if case .failure(let f) = loadDateConstraints(r.dateConstraintsFile, into: &settings) { return .failure(f) }
        return .success(settings)
    }

    /// Connects, completes the chain through AIA where Apple's SSL policy would, and evaluates.
    static func evaluateServer(_ r: Request, environment: Environment) -> Result<Evaluation, Trustx.Failure> {
        guard let c = r.connection else { return evaluate(r) }
        let deadline = RunDeadline(after: c.options.timeout)
        var settings: TrustSettings
        switch trustSettings(r) {
        case .success(let made): settings = made
        case .failure(let f): return .failure(f)
        }
        if case .failure(let f) = chargeClientIdentity(c.options.clientIdentity) { return .failure(f) }
        // Apple's SSL policy fetches missing intermediates over the network; Basic X.509 does not.
        let (systemStore, anchorList) = (settings.systemStore, settings.anchors)
        // Under ATS the handshake offers what the app would (and observes when refused).
        let atsPolicy = settings.ats.map { $0.policy(forHost: c.target.host) }
        // The connection's own waits (handshake, AIA) end a quarter second after the run's
        // deadline: the run's watch below then always ends a run that outlives --timeout, with
        // -1001, instead of racing a fetch that times out at the same instant.
        let connectionDeadline = EvaluationDeadline(
            at: deadline.evaluation.instant + .milliseconds(250), allowance: c.options.timeout)
        // The run waits a quarter second past the connection's own deadline, so a connection that
        // times out by itself (a server that accepts and never answers) is reported as the probe
        // saw it: `timed-out`, how far it got ("no answer to the ClientHello") and the peer. Only
        // work stuck between two looks at the clock is cut off by this wait (D302).
        guard
            let result = DeadlineRunner.run(
                until: connectionDeadline.instant + .milliseconds(250),
                {
                    ServerConnection.connect(
                        c.target, options: c.options, fetchAIA: c.fetchAIA && r.policy.isSSL, anchors: anchorList,
                        systemStore: systemStore, atsPolicy: atsPolicy, deadline: connectionDeadline)
                })
        else {
            return .failure(runTimedOut(c, settings: settings))
        }
        // A connection that ended past the run's deadline without timing out itself (an AIA fetch
        // cut short at the same instant) still outlived --timeout: -1001, with the peer it reached.
        if deadline.evaluation.hasPassed && result.report.failure?.kind != .timedOut {
            return .failure(runTimedOut(c, settings: settings, peer: result.report.peerAddress))
        }
        let report = result.report
        if let failure = report.failure {
            switch failure.kind {
            case .invalidOption:
                return .failure(Trustx.Failure(message: failure.message, status: .usage, detail: .usage(spec)))
            case .malformedCertificate:
                return .failure(Trustx.Failure(message: failure.message, status: .dataError))
            default: break
            }
            // A server that demands a client certificate has already sent its own chain, and
            // URLSession evaluates it before the handshake fails: report both.
            settings.negotiated = result.negotiated
            if !result.chain.isEmpty,
                var evaluation = Evaluator().evaluate(
                    chain: result.chain, settings: settings, deadline: deadline.evaluation)
            {
                evaluation.connection = report
                evaluation.presentedSource = .presented
                return .failure(
                    Trustx.Failure(
                        message: failure.message, status: .unavailable,
                        detail: .evaluation(result.finalVerdict(evaluation))))
            }
            return .failure(
                Trustx.Failure(
                    message: failure.message, status: .unavailable, detail: .connection(report, settings: settings)))
        }
        settings.fetchedIssuers = result.fetchedIssuers
        settings.negotiated = result.negotiated
        settings.presentedSCTs = result.presentedSCTs
        settings.stapledOCSPResponse = result.ocspResponse
        settings.negotiated = result.negotiated
        guard
            var evaluation = Evaluator().evaluate(
                chain: result.chain, settings: settings, deadline: deadline.evaluation)
        else {
            return .failure(
                Trustx.Failure(
                    message: "the server sent no certificate", status: .unavailable,
                    detail: .connection(report, settings: settings)))
        }
        evaluation.connection = report
        evaluation.presentedSource = .presented
        if r.settings.fetchRevocation { evaluation = withFetchedRevocation(evaluation, deadline: deadline) }
        return .success(result.finalVerdict(evaluation))
    }

    /// Fetches revocation information for the built path and evaluates again with it, as
    /// SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod) adds to an evaluation.
    /// Fetching and the second evaluation get what is left of the run's `deadline`, not time of
    /// their own. Each fetch that failed is noted on standard error in one line: the report
    /// shows only what the evaluator made of what arrived.
    static func withFetchedRevocation(_ evaluation: Evaluation, deadline: RunDeadline) -> Evaluation {
        let path = evaluation.path.certificates
        // Fetching stops a tenth of the allowance (at most 0.5 s) before the run's deadline, so
        // that a responder that never answers fails soft, as Apple's revocation checking does,
        // and the evaluation with what did arrive still ends within --timeout. Every wait of the
        // fetcher (name lookup, connect, each read) is bounded by that instant itself, so it needs
        // no watching thread, and its per-URL reasons always arrive.
        let run = deadline.evaluation
        let reserve = min(run.allowance / 10, .milliseconds(500))
        let fetched = RevocationFetcher().fetch(
            path: path, deadline: EvaluationDeadline(at: run.instant - reserve, allowance: run.allowance))
        for attempt in fetched.attempts where attempt.outcome.hasPrefix("failed") || attempt.outcome.hasPrefix("not ") {
            Output.err("Note: --revocation: \(TerminalSanitizer.sanitize("\(attempt.url): \(attempt.outcome)"))\n")
        }
        var settings = evaluation.settings
        settings.fetchedOCSPResponses = fetched.ocspResponses
        settings.revocationLists += fetched.revocationLists
        settings.revocationFetched = true
        guard
            var again = Evaluator().evaluate(
                chain: evaluation.presented, settings: settings, deadline: deadline.evaluation)
        else {
            return evaluation
        }
        again.connection = evaluation.connection
        again.presentedSource = evaluation.presentedSource
        again.unreadable = evaluation.unreadable
        return again
    }

    /// Reads the --crl files (PEM `X509 CRL` blocks or DER), charged to the run's input allowance.
    static func loadCRLs(_ paths: [String]) -> Result<[RevocationList], Trustx.Failure> {
        var out: [RevocationList] = []
        for path in paths {
            do {
                out += try RevocationList.decodeAll(try Trustx.inputAllowance.read(path))
            } catch let e as LoadError {
                return .failure(Trustx.Failure(message: e.description, status: .noInput))
            } catch let e as DecodingError {
                return .failure(Trustx.Failure(message: e.inFile(path).description, status: .dataError))
            } catch {
                return .failure(Trustx.Failure(message: "\(path): \(error)", status: .dataError))
            }
        }
        return .success(out)
    }

    /// The failure reported when connecting and fetching did not end within `--timeout`: what
    /// URLSession reports when a request outlives its timeout (-1001).
    static func runTimedOut(_ c: Connection, settings: TrustSettings, peer: String? = nil) -> Trustx.Failure {
        var proxy: String?
        if case .http(let address) = c.options.proxy { proxy = address.description }
        var report = ConnectionReport(
            target: ConnectionReport.Target(
                host: c.target.host, port: Int(c.target.port), sni: c.target.serverName,
                connectTo: c.target.connectTo?.description, startTLS: c.options.startTLS?.rawValue, proxy: proxy))
        report.peerAddress = peer
        let seconds =
            Double(c.options.timeout.components.seconds) + Double(c.options.timeout.components.attoseconds) / 1e18
        // A server of another protocol sits silent through a STARTTLS preamble: say what was awaited.
        let awaited = c.options.startTLS.map { "; trustx waits for \($0.awaitedExchange) before TLS" } ?? ""
        report.failure = ConnectionReport.Failure(
            kind: .timedOut,
            message:
                "the connection and its AIA fetches did not end within --timeout \(seconds) s, which bounds the whole run"
                + awaited,
            urlError: -1001)
        return Trustx.Failure(
            message: report.failure!.message, status: .unavailable, detail: .connection(report, settings: settings))
    }

    /// Loads the files and evaluates, all within `--timeout` (evaluation and --revocation's
    /// fetches share one deadline, as a server's run does).
    static func evaluate(_ r: Request) -> Result<Evaluation, Trustx.Failure> {
        let deadline = RunDeadline(after: r.timeout)
        var chain: [Certificate] = []
        // As Apple reads a list of certificates: one that cannot be read is reported and left
        // out of path building; the run fails only when none can be read.
        var unreadable: [String] = []
        var firstMalformed: Trustx.Failure?
        for path in r.chainFiles {
            switch Trustx.loadChain(path, password: r.password, command: spec) {
            case .success(let (certs, bad)):
                chain += certs
                unreadable += bad.map(\.description)
            case .failure(let f) where f.status == .dataError:
                firstMalformed = firstMalformed ?? f
                unreadable.append(f.message)
            case .failure(let f): return .failure(f)
            }
        }
        if chain.isEmpty, let firstMalformed { return .failure(firstMalformed) }
        var settings: TrustSettings
        switch trustSettings(r) {
        case .success(let made): settings = made
        case .failure(let f): return .failure(f)
        }
        guard var evaluation = Evaluator().evaluate(chain: chain, settings: settings, deadline: deadline.evaluation)
        else {
            // The loader rejects files without certificates, so this needs an empty --chain list.
            return .failure(Trustx.Failure(message: "no certificate in the --chain files", status: .dataError))
        }
        evaluation.presentedSource = .file
        evaluation.unreadable = unreadable
        if r.settings.fetchRevocation { evaluation = withFetchedRevocation(evaluation, deadline: deadline) }
        return .success(evaluation)
    }
}
