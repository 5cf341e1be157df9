import CommandLineSpec
import TrustReport
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trustx store list|show|diff`: Apple's compiled-in root store, one root of it, and how it
/// differs from this machine's OpenSSL store.
enum StoreCommand {
    static let name = "store"
    static let actions = ["list", "show", "diff"]

    static let spec = CommandSpec(
        commandPath: "trustx store",
        abstract: "List Apple's root store, show one of its roots, or compare it with this machine's store.",
        discussion:
            "list: every root Apple ships (name, SHA-256, key, validity, constraints, EV policies, whether this machine's OpenSSL store has it). show ROOT: one root, by a prefix of its SHA-256 (at least 4 hex digits) or a part of its name. diff: the roots only Apple ships, the roots only this machine trusts, and those of them Apple removed. This machine's store is OpenSSL's (SSL_CERT_FILE, SSL_CERT_DIR, else /etc/ssl/certs). Exit status: 0 done, 1 no root matches, 64 usage error.",
        arguments: [
            ArgumentSpec(
                valueName: "action", help: "list, show or diff.", allowedValues: actions),
            ArgumentSpec(
                valueName: "root", help: "For show: a SHA-256 prefix or a part of the root's name.",
                isRequired: false),
        ],
        options: [
            ReportFormat.option(ReportFormat.textOrJSON, help: "The output format.")
        ]
    )

    /// One root of Apple's store with what the listing says of it.
    struct Entry {
        var index: Int
        var certificate: Certificate
        var sha256: String
        var onMachine: Bool
    }

    static func run(_ args: [String]) -> ExitStatus {
        let options = args.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            Output.out(spec.help + "\n")
            return .success
        }
        guard let action = args.first, actions.contains(action) else {
            let message =
                args.first.map {
                    "The value '\(InputExcerpt.quote($0))' is invalid for '<action>'. Please provide one of 'list', 'show' or 'diff'."
                } ?? "Missing expected argument '<action>'"
            return Trustx.usageError(UsageError(message: message), spec)
        }
        // The action is taken here; the parser sees the rest, with ROOT as its one argument.
        var rest = spec
        rest.arguments = Array(spec.arguments.dropFirst())
        let p: ParsedArguments
        do {
            guard case .run(let parsed) = try rest.parse(Array(args.dropFirst())) else {
                Output.out(Trustx.version + "\n")
                return .success
            }
            p = parsed
        } catch {
            return Trustx.usageError(error, spec)
        }
        let query = p.positionals.first
        if (action == "show") != (query != nil) {
            let message =
                action == "show"
                ? "show needs one ROOT: a SHA-256 prefix or a part of a name" : "\(action) takes no ROOT"
            return Trustx.usageError(UsageError(message: message), spec)
        }
        let json = ReportFormat(p) == .json
        let apple = AppleRootStore.shared
        let machine = SystemTrustStore.fromEnvironment()
        let machineRoots = machine.allCertificates()
        let machineDigests = Set(machineRoots.map { hexString($0.sha256).uppercased() })
        let entries = (0..<apple.count).compactMap { i -> Entry? in
            guard let cert = apple.certificate(at: i) else { return nil }
            let sha = hexString(cert.sha256).uppercased()
            return Entry(index: i, certificate: cert, sha256: sha, onMachine: machineDigests.contains(sha))
        }
        switch action {
        case "list":
            Output.out(
                json ? StoreListing.json(entries, machine: machine) : StoreListing.table(entries, machine: machine))
        case "show":
            let matches = StoreListing.find(query ?? "", in: entries)
            guard !matches.isEmpty else {
                let shown = InputExcerpt.quote(asTyped(query ?? ""))
                return Trustx.fail("no root of Apple's store matches '\(shown)'", .notTrusted)
            }
            Output.out(
                json
                    ? StoreListing.json(matches, machine: machine)
                    : matches.map { StoreListing.detail($0) }.joined(separator: "\n"))
        default:
            let diff = StoreDiff(apple: entries, machineRoots: machineRoots)
            Output.out(json ? diff.json(machine: machine) : diff.text(machine: machine))
        }
        return .success
    }

    /// `argument` as it was typed: CommandLine.arguments replaces bytes that are not UTF-8 with
    /// U+FFFD, so the raw argv entry it came from is found again and its bytes shown as `\xNN`,
    /// as every message does (docs/cli.md).
    static func asTyped(_ argument: String) -> String {
        guard argument.unicodeScalars.contains("\u{FFFD}") else { return argument }
        for i in 1..<Int(CommandLine.argc) {
            guard let p = CommandLine.unsafeArgv[i] else { continue }
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p))
            if String(decoding: bytes, as: UTF8.self) == argument { return TerminalSanitizer.sanitize(bytes: bytes) }
        }
        return argument
    }
}
