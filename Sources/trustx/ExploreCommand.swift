import Explorer
import ExplorerState
import TLSProbe
import TrustCore
import TrustLab
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
            !["format", "sct", "ocsp-response"].contains($0.name) && !FleetCheck.owns($0)
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
        ]
    )

    /// What plain `trustx` takes (`trustx --theme high-contrast`): explore's options that apply
    /// to the lab, that is all but a target, `--chain` and the connection options.
    static let labSpec = CommandSpec(
        commandPath: "trustx",
        abstract: spec.abstract,
        options: spec.options.filter { $0.name != "chain" && !CheckCommand.connectionOptions.contains($0.name) }
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
        let request: CheckCommand.Request
        do {
            request = try CheckCommand.validate(p, now: now, targetRequired: false)
        } catch {
            return Trustx.usageError(error, spec)
        }
        // The Info.plist is read before the screen opens, so a bad file fails as in check (65/66).
        if case .failure(let f) = CheckCommand.loadATS(request.ats) { return f.report() }
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
        if request.chainFiles.contains("-") {
            return Trustx.usageError(
                UsageError(message: "the explorer reads its keys from the terminal; --chain - is for trustx check"),
                spec)
        }
        if !groups.isEmpty && (request.connection != nil || !request.chainFiles.isEmpty) {
            return Trustx.usageError(
                UsageError(message: "--group chooses the lab's scenarios; it takes no target and no --chain"), spec)
        }
        switch initialState(request, now: now, policyGiven: p.has("policy"), rotateSeconds: rotate, groups: groups) {
        case .success(let state): initial = state
        case .failure(let f): return f.report()
        }
        initial.0.watchInterval = watchEvery
        do {
            try ExplorerApp.run(initial, theme: theme, monochrome: !(environment.noColor ?? "").isEmpty)
        } catch {
            // Running it without a terminal is a mistake in how it was called, not a failed
            // connection: the usage status, one line, and the command that works without one.
            return Trustx.fail(error.description + " " + Trustx.nonInteractiveHint, .usage)
        }
        return .success
    }

    /// The explorer's first state for what `check` would evaluate: the same targets, anchors,
    /// policy, host, pins, time, profile and connection options.
    /// `policyGiven` says whether `--policy` was typed: without it the lab checks each scenario's
    /// own host, as plain `trustx` does.
    static func initialState(
        _ r: CheckCommand.Request, now: Timestamp, policyGiven: Bool = true,
        rotateSeconds: Int = LabScenario.defaultRotateSeconds, groups: [String] = []
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
        var toggles = Toggles()
        toggles.anchorsOnly = !r.withSystemAnchors
        toggles.anchorClass = r.anchorClass
        toggles.pins = r.pins.digests
        toggles.time = r.timeFixed ? r.time : nil
        toggles.profile = r.profile
        toggles.store = r.store
        toggles.fetchRevocation = r.fetchRevocation
        toggles.requireRevocation = r.requireRevocation
        switch CheckCommand.loadCRLs(r.crlFiles) {
        case .success(let lists): toggles.crls = CRLFiles(paths: r.crlFiles, lists: lists)
        case .failure(let f): return .failure(f)
        }
        switch CheckCommand.loadATS(r.ats) {
        case .success(let ats?):
            toggles.ats.enabled = true
            toggles.ats.configuration = ats.configuration
            toggles.ats.source = ats.source
            toggles.ats.platform = ats.platform
            toggles.ats.scheme = ats.scheme
        case .success(nil): break
        case .failure(let f): return .failure(f)
        }
        let targetHost = r.connection?.target.host ?? ""
        switch r.policy {
        case .ssl(let host?):
            toggles.policy = .sslWithHost
            toggles.host = host == targetHost ? .target : .typed(host)
        case .ssl(nil): toggles.policy = .sslWithoutHost
        case .basicX509:
            toggles.policy = .basicX509
            if let held = r.ignoredHost, held != targetHost { toggles.host = .typed(held) }
        }
        let store = makeSystemStore(r.store)
        var targets: [ExplorerTarget] = []
        if let c = r.connection {
            toggles.tlsMinimum = c.options.minimumVersion
            toggles.tlsMaximum = c.options.maximumVersion
            toggles.fetchAIA = c.fetchAIA
            let text = r.targetText ?? c.target.host
            var addresses: [String?] = [nil]
            if r.allAddresses {
                do {
                    addresses = try Probe.addresses(of: c.target.host, timeout: c.options.timeout)
                } catch {
                    return .failure(Trustx.Failure(message: error.message, status: .unavailable))
                }
            }
            for address in addresses {
                var t = c.target
                if let address { t.connectTo = Endpoint(host: address, port: t.port) }
                let name = t.connectTo.map { "\(c.target.host) @ \($0.host)" } ?? c.target.host
                targets.append(
                    ExplorerTarget(
                        name: name, location: text, host: t.host, source: .server(t, c.options), anchors: anchors,
                        password: r.password))
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
            if !policyGiven && r.policy == .ssl(host: nil) {
                toggles.policy = .sslWithHost
                toggles.host = .target
            }
            var options = LabOptions(now: now)
            options.rotateSeconds = rotateSeconds
            options.groups = groups
            return withCTLogs(AppState.lab(now: now, systemStore: store, options: options, toggles: toggles), r)
        }
        return withCTLogs(AppState.explore(targets, now: now, systemStore: store, toggles: toggles), r)
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
