import CommandLineSpec
import Explorer
import ExplorerState
import TLSProbe
import TermUI
import TrustCore
import TrustLab
import TrustOptions
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trustx explore`: the interactive explorer on the built-in lab, a server, or files.
enum ExploreCommand {
    static let name = "explore"

    /// Every option of `check` but `--format` (the explorer is the format), and `--theme`.
    static let spec = CommandSpec(
        commandPath: "trustx explore",
        abstract: "Explore a chain interactively: change anchors, policy, host, pins and time and watch each step.",
        discussion:
            "Takes every option of trustx check but --format, and opens on the evaluation check would print. Without a target or --chain, explores the built-in lab's scenarios on 127.0.0.1, as trustx with no subcommand does. Needs a terminal (exit 64 without one); press ? for the keys.",
        arguments: [
            CheckCommand.targetArgument
        ],
        options: CheckCommand.spec.options.filter {
            !["format", "sct", "ocsp-response", "date-constraints"].contains($0.name) && !FleetCheck.owns($0)
        }.filter { !watchOptionNames.contains($0.name) } + [
            OptionSpec(
                name: "theme", valueName: "name", arity: .one,
                help:
                    "The colours: a built-in theme ("
                    + Theme.builtInNames.joined(separator: ", ")
                    + ") or a theme file's path; themes/ in the source holds them as examples.",
                defaultText: "default, or mono with NO_COLOR", suggestedValues: Theme.builtInNames),
            LabCommand.rotateSecondsOption,
            OptionSpec(
                name: "group", valueName: "name", arity: .repeated,
                help: "Without a target: open the lab with only this group of scenarios (repeatable).",
                allowedValues: LabCommand.groupNames, defaultText: "all"),
            watchOption,
            targetsOption,
        ]
    )

    /// `explore --targets FILE`: the servers of a `check --targets` file as the explorer's targets.
    static let targetsOption = OptionSpec(
        name: "targets", valueName: "file", arity: .one,
        help:
            "Explore the servers listed in this file, read as check --targets reads it: one target per line (NAME=TARGET names it), each optionally followed by its own \(lineOptions.map { "--" + $0 }.joined(separator: ", ")); '#' starts a comment."
    )

    /// What a line of an explored `--targets` file may carry: how to reach that server. What it
    /// is held to (host, policy, pins, TLS versions, AIA) is one setting for every target of the
    /// session, given on the command line.
    static let lineOptions = ["connect-to", "sni", "no-sni", "starttls", "proxy", "timeout"]

    /// What plain `trustx` takes (`trustx --theme high-contrast`): explore's options that apply
    /// to the lab, that is all but a target, `--chain` and the connection options.
    static let labSpec = CommandSpec(
        commandPath: "trustx",
        abstract: spec.abstract,
        options: spec.options.filter {
            !["chain", "targets"].contains($0.name) && !CheckCommand.connectionOptions.contains($0.name)
        }
    )

    /// Runs the explorer for `args` as `command` (explore's own spec, or `labSpec` for plain `trustx`).
    static func run(_ args: [String], now: Timestamp, environment: Environment, as command: CommandSpec = spec)
        -> ExitStatus
    {
        let spec = command
        let p: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let parsed): p = parsed
        case .failure(let exit): return exit.status
        }
        // A --targets file's first server stands for the session's options (with the command
        // line's connection options, which need a server to apply to).
        let listed: [(label: String, request: CheckCommand.Request)]
        let plain: CheckCommand.Request?
        do {
            (plain, listed) = try fileTargets(p, now: now)
        } catch let e as Trustx.Failure {
            return e.report()
        } catch let e as UsageError {
            return Trustx.usageError(e, spec)
        } catch {
            return Trustx.fail("\(error)", .usage)
        }
        let request: CheckCommand.Request
        if let plain {
            request = plain
        } else {
            do {
                request = try CheckCommand.validate(p, now: now, targetRequired: false)
            } catch {
                return Trustx.usageError(error, spec)
            }
        }
        // The Info.plist is read before the screen opens, so a bad file fails as in check (65/66).
        if case .failure(let f) = CheckCommand.loadATS(request.settings.ats) { return f.report() }
        let theme: Theme?
        switch loadTheme(p.value("theme")) {
        case .success(let t): theme = t
        case .failure(let f): return f.report()
        }
        let rotate: Int
        switch LabCommand.rotateSeconds(p) {
        case .success(let seconds): rotate = seconds
        case .failure(let error): return Trustx.usageError(error, spec)
        }
        let watchEvery: Duration
        do {
            watchEvery = try watchInterval(p)
        } catch {
            return Trustx.usageError(error, spec)
        }
        var initial: (AppState, [Effect])
        let groups = p.all("group")
        if request.chainFiles.contains("-") || p.value("targets") == "-" {
            return Trustx.usageError(
                UsageError(
                    message:
                        "the explorer reads its keys from the terminal; --chain - and --targets - are for trustx check"),
                spec)
        }
        if !groups.isEmpty && (request.connection != nil || !request.chainFiles.isEmpty || p.has("targets")) {
            return Trustx.usageError(
                UsageError(
                    message: "--group chooses the lab's scenarios; it takes no target and no --chain (nor --targets)"),
                spec)
        }
        switch initialState(
            request, now: now, policyGiven: p.has("policy"), rotateSeconds: rotate,
            groups: groups, listed: listed)
        {
        case .success(let state): initial = state
        case .failure(let f): return f.report()
        }
        initial.0.watchInterval = watchEvery
        do throws(TerminalError) {
            // Run in process on other streams (the tests), there is no terminal to take.
            guard RunStreams.current.isProcess else { throw TerminalError.notATerminal }
            try ExplorerApp.run(initial, theme: theme, monochrome: !(environment.noColor ?? "").isEmpty)
        } catch {
            // Running it without a terminal is a mistake in how it was called, not a failed
            // connection: the usage status, one line, and the command that works without one.
            return Trustx.fail(error.description + " " + Trustx.nonInteractiveHint, .usage)
        }
        return .success
    }

    /// The servers of `explore --targets FILE`, each with its label (the line's `NAME=`, else the
    /// target as written) and its request: the command line's options and the line's own; and
    /// the first target under the command line's options alone, whose settings (and connection
    /// options, which `c` reuses) are the session's.
    static func fileTargets(_ p: ParsedArguments, now: Timestamp) throws -> (
        plain: CheckCommand.Request?, listed: [(label: String, request: CheckCommand.Request)]
    ) {
        guard let path = p.value("targets") else { return (nil, []) }
        if !p.positionals.isEmpty || p.has("chain") {
            throw UsageError(message: "--targets names the servers to explore; give no other target and no --chain")
        }
        if p.has("all-addresses") {
            throw UsageError(
                message:
                    "--all-addresses explores one name; in a --targets file, give a pool's addresses with --connect-to A,B"
            )
        }
        var base = p
        base.positionals = []
        base.occurrences.removeAll { $0.name == "targets" }
        let bytes: [UInt8]
        do {
            bytes = try Trustx.inputAllowance.read(path)
        } catch {
            throw Trustx.Failure(message: error.description, status: .noInput)
        }
        let items = try FleetCheck.expandAddresses(
            TargetsFile.parse(bytes, path: path, base: base, limit: FleetCheck.maximumTargets))
        if items.isEmpty { throw UsageError(message: "The --targets file names no target") }
        var out: [(label: String, request: CheckCommand.Request)] = []
        for item in items {
            let own = item.arguments.occurrences.dropFirst(base.occurrences.count)
            if let other = own.first(where: { !lineOptions.contains($0.name) }) {
                throw UsageError(
                    message: item.origin
                        + "--\(other.name) is one setting for every target of the explorer; give it on the command line"
                )
            }
            out.append((item.label, try FleetCheck.validate(item, now: now)))
        }
        var first = items[0]
        first.arguments.occurrences = Array(first.arguments.occurrences.prefix(base.occurrences.count))
        return (try FleetCheck.validate(first, now: now), out)
    }

    /// The explorer's first state for what `check` would evaluate: the same targets, anchors,
    /// policy, host, pins, time, profile and connection options.
    /// `policyGiven` says whether `--policy` was typed: without it the lab checks each scenario's
    /// own host, as plain `trustx` does. `listed` holds the servers of a `--targets` file, each
    /// with its label; `r` is then the first of them under the command line's options alone.
    static func initialState(
        _ r: CheckCommand.Request, now: Timestamp, policyGiven: Bool = true,
        rotateSeconds: Int = LabScenario.defaultRotateSeconds, groups: [String] = [],
        listed: [(label: String, request: CheckCommand.Request)] = []
    ) -> Result<
        (AppState, [Effect]), Trustx.Failure
    > {
        var anchors: [AnchorEntry] = []
        for path in r.anchorFiles {
            switch Trustx.load(path, password: r.password, command: spec) {
            case .success(let certs): anchors += certs.map { AnchorEntry($0, file: path) }
            case .failure(let f): return .failure(f)
            }
        }
        // The explorer holds the settings check parsed, with their files read.
        var toggles = Toggles()
        switch CheckCommand.loadFiles(r.settings) {
        case .success(let settings): toggles.check = settings
        case .failure(let f): return .failure(f)
        }
        let store = makeSystemStore(r.settings.store)
        var targets: [ExplorerTarget] = []
        var startOptions: ProbeOptions?
        if let c = r.connection {
            startOptions = c.options
            // A label names a target (a --targets file's NAME=); a label several addresses of a
            // --connect-to list share gets each one's address after it.
            let labels = listed.map(\.label)
            for one in listed.isEmpty ? [(label: "", request: r)] : listed {
                guard let c = one.request.connection else { continue }
                let text = one.request.targetText ?? c.target.host
                var addresses: [String?] = [nil]
                if one.request.allAddresses {
                    do {
                        addresses = try Probe.addresses(of: c.target.host, timeout: c.options.timeout)
                    } catch {
                        return .failure(Trustx.Failure(message: error.message, status: .unavailable))
                    }
                }
                let shared = labels.filter { $0 == one.label }.count > 1
                for address in addresses {
                    var t = c.target
                    if let address { t.connectTo = Endpoint(host: address, port: t.port) }
                    var name = ExplorerTarget.serverName(t)
                    if !listed.isEmpty && one.label != text {
                        name = one.label + (shared ? t.connectTo.map { " @ " + $0.description } ?? "" : "")
                    }
                    targets.append(
                        ExplorerTarget(
                            name: name, location: text, host: t.host, source: .server(t, c.options),
                            anchors: anchors, password: one.request.password))
                }
            }
        } else if !r.chainFiles.isEmpty {
            var chain: [Certificate] = []
            for path in r.chainFiles {
                switch Trustx.load(path, password: r.password, command: spec) {
                case .success(let certs): chain += certs
                case .failure(let f): return .failure(f)
                }
            }
            targets.append(
                ExplorerTarget(
                    name: chain.first?.displayName ?? "chain", location: r.chainFiles.joined(separator: ", "),
                    host: "", source: .files(chain, paths: r.chainFiles), anchors: anchors, password: r.password))
        } else {
            // The lab: the scenarios bring their own anchors; --anchor files are added to them.
            toggles.addedAnchors = anchors
            if !policyGiven && r.settings.policy == .sslWithoutHost {
                toggles.policy = .sslWithHost
                toggles.host = .target
            }
            var options = LabOptions(now: now)
            options.rotateSeconds = rotateSeconds
            options.groups = groups
            var lab = AppState.lab(now: now, systemStore: store, options: options, toggles: toggles)
            lab.0.ctLogsFile = r.ct.logsFile
            return withCTLogs(lab, r)
        }
        var start = AppState.explore(targets, now: now, systemStore: store, toggles: toggles)
        start.0.startAnchors = anchors
        start.0.startOptions = startOptions
        start.0.ctLogsFile = r.ct.logsFile
        return withCTLogs(start, r)
    }

    /// A built-in theme (compiled in, so the name works from any directory), a theme file's
    /// path (with a `/` or ending in `.theme`), or `themes/NAME.theme` under the current
    /// directory for another name; nil for the default.
    static func loadTheme(_ name: String?) -> Result<Theme?, Trustx.Failure> {
        guard let name else { return .success(nil) }
        if let builtIn = Theme.builtIn(name) { return .success(builtIn) }
        let isPath = name.hasSuffix(".theme") || name.contains("/")
        let path = isPath ? name : "themes/\(name).theme"
        guard let text = readText(path) else {
            let message =
                isPath
                ? "cannot read the theme file \(path)"
                : "no theme named '\(name)': the built-in themes are "
                    + Theme.builtInNames.joined(separator: ", ") + ", and a theme file's path ends in .theme"
            return .failure(Trustx.Failure(message: message, status: .noInput))
        }
        do {
            return .success(try Theme.parse(text))
        } catch {
            return .failure(Trustx.Failure(message: "\(path): \(error)", status: .dataError))
        }
    }

    /// A small text file's contents, nil when unreadable.
    static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > 1 << 20 { return nil }  // a theme is a few lines
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
