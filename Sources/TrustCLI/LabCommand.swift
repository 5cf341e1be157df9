import CommandLineSpec
import TrustCore
import TrustLab
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trustx lab`: serves the built-in scenarios of broken servers until Ctrl-C or SIGTERM.
enum LabCommand {
    static let name = "lab"

    static let spec = CommandSpec(
        commandPath: "trustx lab",
        abstract: "Serve a lab of deliberately broken TLS servers on loopback for training sessions.",
        discussion:
            "Prints each scenario's URL and lesson, then serves until Ctrl-C or SIGTERM, when every server stops and the lab's files are removed (those --out wrote are kept). Check a scenario with: trustx check URL --anchor FILE. To explore the lab interactively instead, run trustx with no subcommand (or trustx explore), which starts the same servers itself.",
        options: [
            OptionSpec(
                name: "scenario", valueName: "name", arity: .repeated,
                help: "Serve only this scenario (repeatable).", allowedValues: LabScenario.all.map(\.name),
                defaultText: "all"),
            OptionSpec(
                name: "port-base", valueName: "port", arity: .one,
                help: "Serve scenario n on port base+n (the AIA server on base+99), for handouts.",
                defaultText: "ports chosen by the system"),
            OptionSpec(
                name: "listen", valueName: "address", arity: .one,
                help: "Listen on this address instead of 127.0.0.1; anyone on that network can then connect.",
                defaultText: "127.0.0.1"),
            OptionSpec(
                name: "out", valueName: "directory", arity: .one,
                help: "Write the lab's PKI into this directory and keep it after the lab stops."),
            ReportFormat.option(ReportFormat.textOrJSON, help: "How to describe the running lab."),
            storeOption,
            OptionSpec(
                name: "group", valueName: "name", arity: .repeated,
                help: "Serve only this group of scenarios (repeatable; with --scenario, both).",
                allowedValues: groupNames, defaultText: "all"),
            rotateSecondsOption,
        ]
    )

    static func run(_ args: [String], now: Timestamp) -> ExitStatus {
        let p: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let parsed): p = parsed
        case .failure(let exit): return exit.status
        }
        var options = LabOptions(scenarios: p.all("scenario"), outputDirectory: p.value("out"), now: now)
        let store: TrustStoreChoice
        do {
            store = try storeChoice(p)
        } catch {
            return Trustx.usageError(error, spec)
        }
        options.groups = p.all("group")
        switch rotateSeconds(p) {
        case .success(let seconds): options.rotateSeconds = seconds
        case .failure(let error): return Trustx.usageError(error, spec)
        }
        if let base = p.value("port-base") {
            let top = 65535 - LabScenario.highestPortOffset
            guard let n = Int(base), n >= 1, n <= top else {
                return Trustx.usageError(
                    UsageError(
                        message: "The value '\(base)' is invalid for '--port-base <port>': expected 1 to \(top)"),
                    spec)
            }
            options.portBase = n
        }
        if let listen = p.value("listen") {
            guard parseIPAddress(listen) != nil else {
                return Trustx.usageError(
                    UsageError(
                        message: "The value '\(listen)' is invalid for '--listen <address>': expected an IP address"),
                    spec)
            }
            options.listenAddress = listen
        }
        // Block the stop signals before any server thread exists, so every thread inherits the
        // mask and sigwait below is the only place they are delivered.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

        let lab: Lab
        do {
            lab = try Lab.start(options)
        } catch {
            return Trustx.fail("the lab did not start: \(error)", .unavailable)
        }
        if options.listensBeyondLoopback {
            Output.err(
                "Warning: listening on \(TerminalSanitizer.sanitize(options.listenAddress)): anyone on that network can connect to these deliberately broken servers.\n"
            )
        }
        if ReportFormat(p) == .json {
            Output.out(lab.json())
        } else {
            Output.out(lab.table())
            // The checks the table suggests take the same store.
            if store != .apple {
                let name = TerminalSanitizer.sanitize(store.argument)
                Output.out("\nSystem roots: add --store \(name) to those checks.\n")
            }
            Output.out("\nServing until Ctrl-C.\n")
        }
        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        lab.stop()
        if ReportFormat(p) != .json {
            // --out's files are kept (its help says so): the message must not say they went.
            if let out = p.value("out") {
                Output.err(
                    "Stopped; the lab's servers are down and its files kept in \(TerminalSanitizer.sanitize(out)).\n")
            } else {
                Output.err("Stopped; the lab's servers are down and its files removed.\n")
            }
        }
        return .success
    }

    /// `--rotate-seconds`, which `trustx lab` and `trustx explore` share.
    /// The groups `--group` takes, as `trustx lab --help` lists them.
    static let groupNames = LabScenario.groups.map(\.id)

    static let rotateSecondsOption = OptionSpec(
        name: "rotate-seconds", valueName: "seconds", arity: .one,
        help: "Seconds the rotating scenario serves each of its two leaves before switching.",
        defaultText: "\(LabScenario.defaultRotateSeconds)")

    /// The value of `--rotate-seconds`: a whole number of seconds from 1 to a day.
    static func rotateSeconds(_ p: ParsedArguments) -> Result<Int, UsageError> {
        guard let text = p.value("rotate-seconds") else { return .success(LabScenario.defaultRotateSeconds) }
        guard let n = Int(text), n >= 1, n <= 86_400 else {
            return .failure(
                UsageError(
                    message:
                        "The value '\(InputExcerpt.quote(text))' is invalid for '--rotate-seconds <seconds>': expected a whole number from 1 to 86400"
                ))
        }
        return .success(n)
    }
}
