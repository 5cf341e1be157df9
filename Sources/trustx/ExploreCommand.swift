import Explorer
import TLSProbe
import TrustCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trustx explore`: the interactive explorer on the built-in lab, a server, or files.
enum ExploreCommand {
    static let name = "explore"

    static let spec = CommandSpec(
        commandPath: "trustx explore",
        abstract: "Explore a chain interactively: toggle anchors, policy, host, pins and time and watch each step.",
        discussion:
            "Without a target, explores the built-in lab's scenarios on 127.0.0.1. Needs a terminal; press ? for the keys.",
        arguments: [
            CheckCommand.targetArgument
        ],
        options: [
            CheckCommand.chainOption,
            OptionSpec(
                name: "anchor", valueName: "file", arity: .repeated,
                help: "Trust the certificates in this file as anchors, like SecTrustSetAnchorCertificates."),
            OptionSpec(
                name: "password", valueName: "password", arity: .one,
                help: "The password of the PKCS#12 files given."),
            OptionSpec(
                name: "theme", valueName: "name", arity: .one,
                help: "The colours: default, mono, or themes/NAME.theme (a path to a .theme file also works).",
                defaultText: "default, or mono with NO_COLOR"),
        ]
    )

    static func run(_ args: [String], now: Timestamp, environment: Environment) -> ExitStatus {
        let p: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let parsed): p = parsed
        case .failure(let exit): return exit.status
        }
        if p.positionals.first != nil && p.has("chain") {
            return Trustx.usageError(
                UsageError(message: "Give either a server to connect to or --chain files, not both"), spec)
        }
        var anchors: [Certificate] = []
        for path in p.all("anchor") {
            switch Trustx.load(path, password: p.value("password"), command: spec) {
            case .success(let certs): anchors += certs
            case .failure(let f): return f.report()
            }
        }
        let theme: Theme?
        switch loadTheme(p.value("theme")) {
        case .success(let t): theme = t
        case .failure(let f): return f.report()
        }
        let initial: (AppState, [Effect])
        let store = makeSystemStore()
        if let text = p.positionals.first {
            let parsed: (ProbeTarget, StartTLSProtocol?)
            do {
                parsed = try ExplorerTarget.parseURL(text)
            } catch {
                return Trustx.usageError(UsageError(message: error.message), spec)
            }
            var options = ProbeOptions()
            options.startTLS = parsed.1
            options.proxy = .environment
            let target = ExplorerTarget(
                name: parsed.0.host, location: text, host: parsed.0.host, source: .server(parsed.0, options),
                anchors: anchors, anchorLocation: p.all("anchor").first)
            initial = AppState.explore([target], now: now, systemStore: store)
        } else if p.has("chain") {
            var chain: [Certificate] = []
            for path in p.all("chain") {
                switch Trustx.load(path, password: p.value("password"), command: spec) {
                case .success(let certs): chain += certs
                case .failure(let f): return f.report()
                }
            }
            let files = p.all("chain").joined(separator: ", ")
            let target = ExplorerTarget(
                name: chain.first?.displayName ?? "chain", location: files, host: "", source: .files(chain),
                anchors: anchors, anchorLocation: p.all("anchor").first)
            // Files name no host: start with SSL(nil) rather than a host check against nothing.
            var toggles = Toggles()
            toggles.policy = .sslWithoutHost
            initial = AppState.explore([target], now: now, systemStore: store, toggles: toggles)
        } else {
            initial = AppState.lab(now: now, systemStore: store)
        }
        do {
            try ExplorerApp.run(initial, theme: theme, monochrome: !(environment.noColor ?? "").isEmpty)
        } catch {
            return Trustx.fail(error.description, .unavailable)
        }
        return .success
    }

    /// A built-in theme, `themes/NAME.theme`, or a path to a theme file; nil for the default.
    static func loadTheme(_ name: String?) -> Result<Theme?, Trustx.Failure> {
        guard let name else { return .success(nil) }
        if let builtIn = Theme.builtIn(name) { return .success(builtIn) }
        let path = name.hasSuffix(".theme") ? name : "themes/\(name).theme"
        guard let text = readText(path) else {
            return .failure(Trustx.Failure(message: "cannot read the theme file \(path)", status: .noInput))
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
