import CommandLineSpec
import TLSProbe
import TrustCore
import TrustExport
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trustx export`: the settings as a URLSession delegate, an NSPinnedDomains plist, a curl
/// command or openssl commands (docs/export.md).
enum ExportCommand {
    static let name = "export"

    static let formatArgument = ArgumentSpec(
        valueName: "format",
        help:
            "What to write: swift (a URLSessionDelegate), plist (NSPinnedDomains), curl (a curl command) or openssl (commands that recompute each pin and verify the chain).",
        allowedValues: ExportFormat.spellings
    )

    /// Every option of `check` that shapes the settings, and the export's own.
    static let spec = CommandSpec(
        commandPath: "trustx export",
        abstract:
            "Write the settings as a URLSession delegate, an NSPinnedDomains plist, a curl command or openssl commands.",
        discussion:
            "Give the format, then what trustx check takes. plist, curl (with pins) and openssl connect to the server, or read the --chain files, and evaluate as check does, to find which certificate of the built path each pin belongs to. Exit status: 0 written, 64 usage error, 65 malformed input, 66 unreadable file, 69 connection failed, 73 the output file cannot be written. See docs/export.md.",
        arguments: [formatArgument, CheckCommand.targetArgument],
        options: CheckCommand.spec.options.filter {
            !["format", "crl", "revocation", "all-addresses", "sct", "ocsp-response", "date-constraints"].contains(
                $0.name)
                && !FleetCheck.owns($0)
        }
            + [
                OptionSpec(
                    name: "include-subdomains", arity: .flag,
                    help: "Set NSIncludesSubdomains in the exported NSPinnedDomains entry."),
                OptionSpec(
                    name: "info-plist", arity: .flag,
                    help: "Write a whole Info.plist, which --ats-plist reads, rather than the fragment to merge."),
                OptionSpec(
                    name: "output", valueName: "file", arity: .one,
                    help: "Write to this file instead of standard output; an existing file is kept unless --force.",
                    defaultText: "standard output"),
                OptionSpec(name: "force", arity: .flag, help: "Replace the --output file when it exists."),
            ]
    )

    static func run(_ args: [String], now: Timestamp, environment: Environment) -> ExitStatus {
        let options = args.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            Output.out(spec.help + "\n")
            return .success
        }
        if options.contains("--version") {
            Output.out(Trustx.version + "\n")
            return .success
        }
        guard let format = args.first.flatMap(ExportFormat.init(rawValue:)) else {
            let message =
                args.first.map {
                    "The value '\($0)' is invalid for '<format>'. Please provide one of \(ExportFormat.spellingsInWords)."
                }
                ?? "Missing expected argument '<format>'"
            return Trustx.usageError(UsageError(message: message), spec)
        }
        var rest = spec
        rest.arguments = [CheckCommand.targetArgument]
        let p: ParsedArguments
        do {
            guard case .run(let parsed) = try rest.parse(Array(args.dropFirst())) else { return .success }
            p = parsed
        } catch {
            return Trustx.usageError(error, spec)
        }
        let request: CheckCommand.Request
        do {
            request = try CheckCommand.validate(p, now: now)
        } catch {
            return Trustx.usageError(error, spec)
        }
        if p.has("force") && !p.has("output") {
            return Trustx.usageError(UsageError(message: "--force applies to --output FILE"), spec)
        }
        if format == .curl && request.connection == nil {
            return Trustx.usageError(UsageError(message: "curl needs a server to connect to, not --chain files"), spec)
        }
        if format == .plist && request.policy.host == nil && request.connection == nil {
            return Trustx.usageError(
                UsageError(message: "plist needs a host name for the NSPinnedDomains key: give a server or --host"),
                spec)
        }
        var settings: ExportSettings
        switch exportSettings(request, parsed: p) {
        case .success(let s): settings = s
        case .failure(let f): return f.report()
        }
        if format == .plist || format == .openssl || (format == .curl && !request.pins.isEmpty) {
            let outcome =
                request.connection == nil
                ? CheckCommand.evaluate(request) : CheckCommand.evaluateServer(request, environment: environment)
            switch outcome {
            case .success(let evaluation):
                settings.path = evaluation.path.certificates
                settings.presented = evaluation.presented
                settings.rootInOneStoreOnly = evaluation.storeComparison?.differingRoot
                if !evaluation.verdict.trusted {
                    Output.err(
                        "trustx: note: these settings do not trust the chain (run trustx check to see why); the export does what they do.\n"
                    )
                }
            case .failure(let f): return f.report()
            }
        }
        let text: String
        let generator = "trustx \(Trustx.version)"
        switch format {
        case .swift: text = SwiftDelegateExport.render(settings, generator: generator)
        case .plist:
            text =
                p.has("info-plist")
                ? PinnedDomainsExport.infoPlist(settings, generator: generator)
                : PinnedDomainsExport.fragment(settings, generator: generator)
            let unmatched = settings.classifiedPins.filter { $0.role == .unmatched }.count
            if unmatched > 0 {
                Output.err(
                    "trustx: note: \(unmatched) pin(s) match no certificate of the built path and are left in comments.\n"
                )
            }
        case .curl: text = CurlExport.render(settings)
        case .openssl: text = OpenSSLExport.render(settings)
        }
        // Said on standard error too: a script piping the export to sh never reads its comments.
        let missing = settings.unexpressed(in: format)
        if !missing.isEmpty {
            let options = missing.map { String($0.prefix { $0 != " " && $0 != ":" }) }
            Output.err(
                "trustx: note: the \(format.rawValue) export cannot express \(options.joined(separator: ", ")); a comment in it says how it differs.\n"
            )
        }
        guard let path = p.value("output") else {
            Output.out(text)
            return .success
        }
        return write(text, to: path, replacing: p.has("force"))
    }

    /// The export's view of a validated request: targets, anchors with their files, policy, pins,
    /// versions and time. Files are read here; the chain is evaluated by the caller when needed.
    static func exportSettings(_ r: CheckCommand.Request, parsed p: ParsedArguments) -> Result<
        ExportSettings, Trustx.Failure
    > {
        func files(_ paths: [String]) -> Result<[ExportFile], Trustx.Failure> {
            var out: [ExportFile] = []
            for path in paths {
                switch Trustx.load(path, password: r.password, command: spec) {
                case .success(let certs):
                    let head = (try? CertificateLoader.readHead(path)) ?? []
                    out.append(ExportFile(path: path, certificates: certs, isPEM: PEM.looksLikePEM(head)))
                case .failure(let f): return .failure(f)
                }
            }
            return .success(out)
        }
        var s = ExportSettings(r.settings, targetHost: r.targetHost)
        s.keepsSystemAnchors = !r.settings.anchorsOnly || r.anchorFiles.isEmpty
        s.includesSubdomains = p.has("include-subdomains")
        switch files(r.anchorFiles) {
        case .success(let f): s.anchorFiles = f
        case .failure(let f): return .failure(f)
        }
        switch files(r.chainFiles) {
        case .success(let f): s.chainFiles = f
        case .failure(let f): return .failure(f)
        }
        if let c = r.connection {
            switch c.target.sni {
            case .none: s.sendsNoServerName = true
            case .name(let name) where name != c.target.host: s.serverName = name
            default: break
            }
            s.startTLS = c.options.startTLS?.rawValue
            if case .http(let address) = c.options.proxy { s.proxy = p.value("proxy") ?? address.description }
            s.clientCertificate = p.value("client-cert")
            s.host = c.target.host
            s.port = Int(c.target.port)
            s.connectTo = c.target.connectTo.map { ExportEndpoint(host: $0.host, port: Int($0.port)) }
            // An explicit --tls-max 1.3 is named too.
            s.maximumTLSVersion = p.has("tls-max") ? c.options.maximumVersion : nil
        }
        return .success(s)
    }

    /// Writes `text` to `path`. An existing file is refused (73) unless `replacing`: an export
    /// re-run with other settings must not silently replace an Info.plist or a delegate someone
    /// edited since. Written as every file trustx writes (FileWriter, D322): through a new file
    /// renamed into place, never through a link planted at `path`.
    static func write(_ text: String, to path: String, replacing: Bool) -> ExitStatus {
        do {
            try FileWriter.write(text, to: path, existing: replacing ? .replace : .keep)
        } catch .exists {
            return Trustx.fail(
                "\(InputExcerpt.quote(path)) exists; give --force to replace it, or another --output", .cannotCreate)
        } catch {
            return Trustx.fail("cannot write \(InputExcerpt.quote(path)): \(error.reason)", .cannotCreate)
        }
        return .success
    }
}
