import CommandLineSpec
import Explorer
import ExplorerState
import Synchronization
import TrustCore
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process exit statuses (sysexits.h values for the errors).
enum ExitStatus: Int32 {
    /// The chain is trusted; also help and version output.
    case success = 0
    /// The chain is not trusted.
    case notTrusted = 1
    /// `--expires-within DAYS`: the chain is trusted now and not trusted at some instant within
    /// DAYS days (D463).
    case expiresSoon = 2
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_DATAERR: an input file is not a certificate in any supported format.
    case dataError = 65
    /// EX_NOINPUT: an input file cannot be read.
    case noInput = 66
    /// EX_UNAVAILABLE: the server could not be reached or the handshake failed.
    case unavailable = 69
    /// EX_CANTCREAT: an output file cannot be written.
    case cannotCreate = 73
}

/// The top-level command: dispatches to subcommands; `run(arguments:…)` is the entry.
public enum Trustx {
    static let version = "0.1.0"

    /// Said after any reason the explorer cannot start.
    static let nonInteractiveHint = "For non-interactive use, run 'trustx check'."

    /// Every subcommand's spec, in the order help lists them: the help, the completion scripts
    /// and the man page are all generated from these.
    static let commands: [CommandSpec] = [
        CheckCommand.spec, ExploreCommand.spec, PinCommand.spec, LabCommand.spec, ATSCommand.spec,
        ExportCommand.spec, LintCommand.spec, CompletionsCommand.spec, StoreCommand.spec, DiffCommand.spec,
        ExplainCommand.spec,
    ]

    static let spec = CommandSpec(
        commandPath: "trustx",
        abstract: "Explore TLS server trust the way Apple's SecTrust evaluates it, step by step.",
        discussion:
            "With no subcommand, trustx opens the interactive explorer on the built-in lab of broken TLS servers on 127.0.0.1 when run on a terminal, and prints a tour of the lab otherwise. It takes the options trustx explore takes for the lab, such as --theme high-contrast for a projector (see 'trustx explore --help').",
        subcommands: commands.map { ($0.name, $0.abstract) },
        customUsage: ["trustx [<explore's options for the lab>]", "trustx <subcommand>"]
    )

    /// Runs the command line `args` (without the program name) and returns the exit status.
    static func main(_ args: [String], now: Timestamp, environment: Environment) -> ExitStatus {
        guard let first = args.first else { return runDefault(now: now, environment: environment) }
        let rest = Array(args.dropFirst())
        // `trustx --theme high-contrast`: the lab with explore's options. Help and version stay
        // the root command's.
        let beforeDashes = args.prefix { $0 != "--" }
        if first.hasPrefix("-") && !beforeDashes.contains(where: { ["--help", "-h", "--version"].contains($0) }) {
            return ExploreCommand.run(args, now: now, environment: environment, as: ExploreCommand.labSpec)
        }
        switch first {
        case CheckCommand.name: return CheckCommand.run(rest, now: now, environment: environment)
        case ExploreCommand.name: return ExploreCommand.run(rest, now: now, environment: environment)
        case PinCommand.name: return PinCommand.run(rest)
        case LabCommand.name: return LabCommand.run(rest, now: now)
        case ATSCommand.name: return ATSCommand.run(rest, now: now, environment: environment)
        case ExportCommand.name: return ExportCommand.run(rest, now: now, environment: environment)
        case LintCommand.name: return LintCommand.run(rest, environment: environment)
        case CompletionsCommand.name: return CompletionsCommand.run(rest)
        case StoreCommand.name: return StoreCommand.run(rest)
        case DiffCommand.name: return DiffCommand.run(rest, now: now, environment: environment)
        case ExplainCommand.name: return ExplainCommand.run(rest, environment: environment)
        case "help": return help(for: rest)
        default: break
        }
        // A word that names no subcommand: the same error as `trustx help WORD`.
        if !first.hasPrefix("-") { return usageError(UsageError(message: unknownSubcommand(first)), spec) }
        do {
            switch try spec.parse(args) {
            case .help:
                Output.out(spec.help + "\n")
                return .success
            case .version:
                Output.out(version + "\n")
                return .success
            case .run:
                // Unreachable: the root command takes no arguments, so parse throws instead.
                return usageError(UsageError(message: "Missing required subcommand."), spec)
            }
        } catch {
            return usageError(error, spec)
        }
    }

    /// `trustx help [subcommand]`, and `trustx help --man`: the manual page, docs/trustx.1.
    static func help(for args: [String]) -> ExitStatus {
        switch args.first {
        case nil:
            Output.out(spec.help + "\n")
        case "--man"?:
            Output.out(ManPage.render())
        case let name?:
            guard let command = commands.first(where: { $0.name == name }) else {
                return usageError(UsageError(message: unknownSubcommand(name)), spec)
            }
            Output.out(command.help + "\n")
        }
        return .success
    }

    /// The one wording of a subcommand that does not exist, for `trustx WORD` and `trustx help WORD`.
    static func unknownSubcommand(_ name: String) -> String {
        "Unknown subcommand '\(InputExcerpt.quote(name))'; the subcommands are "
            + commands.map(\.name).joined(separator: ", ")
    }

    /// What `trustx` with no arguments does: the interactive explorer on the built-in lab when
    /// standard input and output are terminals; otherwise (a pipe, CI, or a terminal the backend
    /// cannot drive, whose reason goes to stderr) a tour of the lab over real loopback TLS, or the
    /// top-level help should the lab not start.
    static func runDefault(now: Timestamp, environment: Environment) -> ExitStatus {
        if RunStreams.current.isProcess && isatty(0) == 1 && environment.stdoutIsTerminal {
            do {
                try ExplorerApp.run(
                    AppState.lab(now: now, systemStore: makeSystemStore()),
                    monochrome: !(environment.noColor ?? "").isEmpty)
                return .success
            } catch {
                Output.err("trustx: \(TerminalSanitizer.sanitize(error.description + " " + nonInteractiveHint))\n")
            }
        }
        if let tour = LabTour.render(now: now, environment: environment) {
            Output.out(tour)
        } else {
            Output.out(spec.help + "\n")
        }
        return .success
    }

    /// Parses a subcommand's arguments, answering `--help` and `--version` and reporting usage
    /// errors itself: `.success` means run with the arguments, `.failure` exit with the status.
    static func parse(_ args: [String], _ command: CommandSpec) -> Result<ParsedArguments, ExitStatusError> {
        do {
            switch try command.parse(args) {
            case .help:
                Output.out(command.help + "\n")
                return .failure(ExitStatusError(status: .success))
            case .version:
                Output.out(version + "\n")
                return .failure(ExitStatusError(status: .success))
            case .run(let p): return .success(p)
            }
        } catch {
            return .failure(ExitStatusError(status: usageError(error, command)))
        }
    }

    /// An exit status carried through `Result`.
    struct ExitStatusError: Error {
        var status: ExitStatus
    }

    /// Prints a usage error for `command` and returns EX_USAGE.
    static func usageError(_ error: UsageError, _ command: CommandSpec) -> ExitStatus {
        Output.err(command.usageError(TerminalSanitizer.sanitize(error.message)))
        return .usage
    }

    /// Prints `Error: message` (sanitised: file names and decoder messages can carry anything).
    static func fail(_ message: String, _ status: ExitStatus) -> ExitStatus {
        Output.err("Error: \(TerminalSanitizer.sanitize(message))\n")
        return status
    }

    /// The input cap of this run, shared by every file it loads; each round of `check --watch`
    /// is a run of its own and starts a new one, so a watch that re-reads its files is not cut
    /// off after hours (D241).
    static var inputAllowance: InputAllowance { RunStreams.current.inputAllowance.withLock { $0 } }

    /// Loads every certificate of `path`, mapping load errors to exit statuses.
    static func load(_ path: String, password: String?, command: CommandSpec) -> Result<[Certificate], Failure> {
        do {
            return .success(try CertificateLoader.load(path: path, password: password, allowance: inputAllowance))
        } catch {
            switch error {
            case .unreadable: return .failure(Failure(message: error.description, status: .noInput))
            case .malformed: return .failure(Failure(message: error.description, status: .dataError))
            case .password:
                return .failure(Failure(message: error.description, status: .usage, detail: .usage(command)))
            }
        }
    }

    /// How messages name `-` where a file is expected.
    static let standardInputName = "standard input"

    /// The bytes of an input file through the run's allowance; `-` reads standard input (to
    /// its end, within the same cap), for `--chain -`, `--targets -` and `lint -`.
    static func readInput(_ path: String) throws(LoadError) -> [UInt8] {
        guard path == "-" else { return try inputAllowance.read(path) }
        let run = RunStreams.current
        if run.standardInputIsTerminal { Output.err("Reading standard input until Ctrl-D.\n") }
        return try inputAllowance.readStandardInput(name: standardInputName, descriptor: run.standardInput)
    }

    /// Loads a --chain file (`-` for standard input), leaving out certificates that cannot be
    /// read among readable ones.
    static func loadChain(_ path: String, password: String?, command: CommandSpec) -> Result<
        ([Certificate], [DecodingError]), Failure
    > {
        do {
            let loaded =
                path == "-"
                ? try CertificateLoader.loadChain(
                    bytes: try readInput(path), name: standardInputName, password: password)
                : try CertificateLoader.loadChain(path: path, password: password, allowance: inputAllowance)
            return .success((loaded.certificates, loaded.unreadable))
        } catch {
            switch error {
            case .unreadable: return .failure(Failure(message: error.description, status: .noInput))
            case .malformed: return .failure(Failure(message: error.description, status: .dataError))
            case .password:
                return .failure(Failure(message: error.description, status: .usage, detail: .usage(command)))
            }
        }
    }

    /// Why a command stops before doing its work.
    struct Failure: Error {
        var message: String
        var status: ExitStatus
        /// What is reported besides (or instead of) the message.
        var detail: Detail = .message

        /// What a failure carries: one case each, so a failure cannot be both a usage error and
        /// a connection failure.
        enum Detail {
            /// The message alone.
            case message
            /// The command line's fault: its usage is printed.
            case usage(CommandSpec)
            /// A connection failed: what it showed, with the settings that would have been evaluated,
            /// reported instead of the message.
            case connection(ConnectionReport, settings: TrustSettings)
            /// An evaluation made before the connection failed (a client certificate was required).
            case evaluation(Evaluation)
        }

        /// Prints the failure and returns its status.
        func report() -> ExitStatus {
            if case .usage(let spec) = detail { return Trustx.usageError(UsageError(message: message), spec) }
            return Trustx.fail(message, status)
        }
    }
}
