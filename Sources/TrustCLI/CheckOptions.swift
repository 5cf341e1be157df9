import ATSModel
import CommandLineSpec
import TLSProbe
import TrustCore
import TrustOptions
import TrustSupport
import TrustX509

/// `trustx check`'s options and their validation, shared with `explore` and `export`.
extension CheckCommand {

    /// The server argument, shared with `explore`.
    static let targetArgument = ArgumentSpec(
        valueName: "target",
        help:
            "A server to connect to: host, host:port, https://host:port/path or [IPv6]:port (port 443 by default); smtp://, imap://, pop3://, ftp:// and postgres:// mean that protocol with STARTTLS on its usual port (ftp:// is FTP with AUTH TLS on 21, not implicit FTPS).",
        isRequired: false)

    /// `--chain`, shared with `explore`.
    static let chainOption = OptionSpec(
        name: "chain", valueName: "file", arity: .upToNextOption,
        help:
            "The certificates as a server presents them, leaf first, from PEM, DER, PKCS#7 or PKCS#12 files; - reads standard input."
    )

    static let spec = CommandSpec(
        commandPath: "trustx check",
        abstract: "Evaluate a certificate chain the way Apple's SecTrust does and report every step.",
        discussion:
            "Give a server to connect to, or --chain files. Exit status: 0 trusted, 1 not trusted, 2 trusted now but failing within --expires-within DAYS, 64 usage error, 65 malformed input, 66 unreadable file, 69 connection failed, 73 the --write-chain file not written.",
        arguments: [
            FleetCheck.targetsArgument
        ],
        // The settings' options come from their declarations (D380), in their order; the
        // command's own follow the setting they are listed after.
        options: [
            chainOption,
            OptionSpec(
                name: "password", valueName: "password", arity: .one,
                help: "The password of the PKCS#12 files given (chain, anchors or client certificate)."),
            OptionSpec(
                name: "anchor", valueName: "file", arity: .repeated,
                help:
                    "Trust the certificates in this file as anchors, and no system roots, like SecTrustSetAnchorCertificates."
            ),
        ]
            + CheckSetting.all.flatMap(\.options).flatMap { [OptionSpec($0)] + (ownOptions[$0.name] ?? []) }
    )

    /// `check`'s options that are no setting of `CheckSettings`, by the setting option they follow.
    static let ownOptions: [String: [OptionSpec]] = [
        "profile": [
            ReportFormat.option(ReportFormat.allCases, help: "The report format."),
            CheckQuiet.option,
            OptionSpec(
                name: "include-pem", arity: .flag,
                help:
                    "With --format json: add each certificate's PEM to the report, in presented (the chain as sent) and path."
            ),
            CheckWriteChain.option,
            CheckTimeline.timelineOption,
            CheckTimeline.expiresWithinOption,
            OptionSpec(
                name: "connect-to", valueName: "address", arity: .one,
                help:
                    "Connect to this host[:port] instead, keeping the target's name for SNI and the host check; several addresses separated by commas (127.0.0.1,127.0.0.2:8443) are checked one report each, a pool named without DNS."
            ),
            OptionSpec(
                name: "sni", valueName: "name", arity: .one,
                help: "Send this server name instead of the target's.", defaultText: "the target's host name"),
            OptionSpec(name: "no-sni", arity: .flag, help: "Send no server name at all."),
            OptionSpec(
                name: "timeout", valueName: "seconds", arity: .one,
                help: "The deadline for the whole run: connecting, the handshake, AIA fetches and evaluation.",
                defaultText: "10"),
        ],
        "tls-max": [
            OptionSpec(
                name: "client-cert", valueName: "file", arity: .one,
                help: "A client certificate: a PKCS#12 file (with --password), or PEM with --client-key."),
            OptionSpec(
                name: "client-key", valueName: "file", arity: .one,
                help: "The PEM private key of a PEM --client-cert."),
            OptionSpec(
                name: "starttls", valueName: "protocol", arity: .one,
                help: "Speak this protocol's plaintext preamble before TLS.",
                allowedValues: StartTLSProtocol.allCases.map(\.rawValue)),
            OptionSpec(
                name: "proxy", valueName: "url", arity: .one,
                help: "Tunnel through this HTTP CONNECT proxy (http://host:port).",
                defaultText: "https_proxy or HTTPS_PROXY, honouring no_proxy"),
        ],
        "no-aia": [allAddressesOption, noAppleHelloOption],
        "store": [
            ctLogsOption,
            dateConstraintsOption,
            OptionSpec(
                name: "sct", valueName: "file", arity: .repeated,
                help:
                    "With --chain: SCTs a server would send in its TLS extension, as a SignedCertificateTimestampList or one SCT (binary, as sent)."
            ),
            OptionSpec(
                name: "ocsp-response", valueName: "file", arity: .one,
                help: "With --chain: the OCSP response (DER) a server would staple, for its status and its SCTs."),
            FleetCheck.targetsOption,
            FleetCheck.jobsOption,
            CheckWatch.watchOption,
            CheckWatch.countOption,
            CheckWatch.untilChangeOption,
        ],
    ]

    /// `--all-addresses`, shared with `explore`.
    static let allAddressesOption = OptionSpec(
        name: "all-addresses", arity: .flag,
        help: "Check every address the server's name resolves to, one report each, to find the odd node of a pool.")

    /// `--no-apple-hello`: a connection option, not a setting; it changes no evaluation (D432).
    static let noAppleHelloOption = OptionSpec(
        name: "no-apple-hello", arity: .flag,
        help:
            "Do not send iOS 26's ClientHello (X25519MLKEM768 offered, over 1,200 bytes) on a second connection to report what the server answers."
    )

    // --timeout is not among them: it bounds a run of --chain files too (evaluation, --revocation).
    static let connectionOptions = [
        "connect-to", "sni", "no-sni", "tls-min", "tls-max", "client-cert", "client-key", "starttls",
        "proxy", "no-aia", "all-addresses", "no-apple-hello",
    ]

    /// What to connect to and how, when checking a server.
    struct Connection {
        var target: ProbeTarget
        var options: ProbeOptions
        var fetchAIA: Bool
        var explicitHost: Bool
    }

    /// What the command line asks for, validated but with no file read yet.
    struct Request {
        var chainFiles: [String]
        var anchorFiles: [String]
        var password: String?
        /// The settings, one value from here to the engine, the explorer and the exports (D380).
        var settings: CheckSettings
        /// The moment "now" stands for without `--at`: each round of a watch reads the clock again.
        var now: Timestamp
        var format: ReportFormat
        var connection: Connection?
        var allAddresses = false
        /// --quiet: one line per target and address (D411).
        var quiet = false
        /// --include-pem: each certificate's PEM in the JSON report (D413).
        var includePEM = false
        /// --write-chain: where the chain to serve goes, `-` for standard output (D442).
        var writeChain: String?
        /// --timeline and --expires-within (D462, D463).
        var timeline = CheckTimeline.Request()
        /// The target as typed (the explorer shows it and its copied command repeats it).
        var targetText: String?
        /// --timeout: the deadline of the whole run, files included (a server's is also in
        /// `connection.options.timeout`).
        var timeout: Duration = .seconds(10)
        /// --ct-logs, --sct and --ocsp-response.
        var ct = CTRequest()
        /// --date-constraints.
        var dateConstraintsFile: String?
        /// The --anchor certificates when already read, once for several targets.
        var anchorCertificates: [Certificate]? = nil

        /// The server target's host; empty for files.
        var targetHost: String { connection?.target.host ?? "" }
        /// The engine's policy.
        var policy: TrustPolicy { settings.trustPolicy(targetHost: targetHost) }
        /// The evaluation time.
        var time: Timestamp { settings.time ?? now }
        /// The pins.
        var pins: PinSet { PinSet(digests: settings.pins) }
    }

    /// Turns parsed options into a request; every usage error is found here, before any file
    /// is opened. `explore` accepts neither a target nor files (the lab), `check` does not.
    static func validate(_ p: ParsedArguments, now: Timestamp, targetRequired: Bool = true) throws(UsageError)
        -> Request
    {
        let targetText = p.positionals.first
        if targetRequired && targetText == nil && !p.has("chain") {
            throw UsageError(message: "Give a server to connect to, or --chain FILE...")
        }
        if targetText != nil && p.has("chain") {
            throw UsageError(message: "Give either a server to connect to or --chain files, not both")
        }
        if p.all("chain").filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "--chain - reads standard input, which can be read once; give - once")
        }
        // The connection's settings first, as the connection is made of them; the others once
        // the target's host, the policy's default, is known.
        var settings = CheckSettings()
        try read(CheckSetting.connection, into: &settings, p, target: SettingTarget())
        var connection: Connection?
        if let targetText {
            connection = try validateConnection(targetText, p, settings: settings)
        } else if let used = connectionOptions.first(where: { p.has($0) }) {
            throw UsageError(message: "--\(used) applies to a server target, not to --chain files")
        }
        // Usage errors are reported in the order check has always found them: the policy, the
        // pins and the time, then the addresses and the anchor class, then ATS, the timeout and
        // the store.
        let target = SettingTarget(host: connection?.target.host, text: targetText)
        let late = CheckSetting.evaluation.filter { ["ats", "store"].contains($0.option.name) }
        try read(
            CheckSetting.evaluation.filter { s in !late.contains { $0.option == s.option } }, into: &settings, p,
            target: target)
        if p.has("all-addresses"), let connection, parseIPAddress(connection.target.host) != nil {
            throw UsageError(message: "--all-addresses needs a host name; \(connection.target.host) is one address")
        }
        if p.has("all-addresses") && p.has("connect-to") {
            throw UsageError(message: "--all-addresses and --connect-to cannot be combined")
        }
        // The explorer's lab brings its own anchors, which the class then applies to.
        if targetRequired && p.has("anchor-class") && !p.has("anchor") {
            throw UsageError(message: "--anchor-class applies to --anchor certificates; give --anchor FILE")
        }
        try read(late.filter { $0.option.name == "ats" }, into: &settings, p, target: target)
        let timeout = try runTimeout(p) ?? .seconds(10)
        try read(late.filter { $0.option.name == "store" }, into: &settings, p, target: target)
        var request = Request(
            chainFiles: p.all("chain"), anchorFiles: p.all("anchor"), password: p.value("password"),
            settings: settings, now: now, format: ReportFormat(p), connection: connection,
            allAddresses: p.has("all-addresses"), targetText: targetText, timeout: timeout)
        request.ct = try validateCT(p)
        request.dateConstraintsFile = p.value("date-constraints")
        request.quiet = p.has("quiet")
        request.includePEM = p.has("include-pem")
        try CheckWriteChain.validate(p)
        request.writeChain = p.value(CheckWriteChain.option.name)
        if request.includePEM && request.format != .json {
            throw UsageError(message: "--include-pem adds the certificates' PEM to the JSON report; give --format json")
        }
        if request.quiet && request.format != .text {
            throw UsageError(
                message: "--quiet prints its own lines; it does not combine with --format \(request.format)")
        }
        request.timeline = try CheckTimeline.validate(p, format: request.format, quiet: request.quiet)
        return request
    }

    /// Reads `settings` from the command line, each as its declaration says.
    static func read(
        _ declarations: [CheckSetting], into settings: inout CheckSettings, _ p: ParsedArguments,
        target: SettingTarget
    ) throws(UsageError) {
        for declaration in declarations {
            do {
                try declaration.read(into: &settings, from: p, target: target)
            } catch {
                throw UsageError(message: error.message)
            }
        }
    }

    /// `--timeout`, the deadline of the whole run; nil when not given.
    static func runTimeout(_ p: ParsedArguments) throws(UsageError) -> Duration? {
        guard let t = p.value("timeout") else { return nil }
        guard let seconds = Double(t), seconds > 0, seconds <= 3600 else {
            throw UsageError(
                message:
                    "The value '\(t)' is invalid for '--timeout <seconds>': expected a number of seconds up to 3600")
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// The connection options of a command that takes no other setting (`ats`).
    static func validateConnection(_ text: String, _ p: ParsedArguments) throws(UsageError) -> Connection {
        var settings = CheckSettings()
        try read(CheckSetting.connection, into: &settings, p, target: SettingTarget())
        return try validateConnection(text, p, settings: settings)
    }

    /// The connection options, checked before anything touches the network.
    static func validateConnection(_ text: String, _ p: ParsedArguments, settings: CheckSettings) throws(UsageError)
        -> Connection
    {
        var target: ProbeTarget
        // smtp://, imap://, pop3://, ftp:// and postgres:// name a STARTTLS service: the scheme
        // picks the preamble (unless --starttls says otherwise) and the default port.
        var text = text
        var schemeStartTLS: StartTLSProtocol?
        if let range = text.firstRange(of: "://"),
            let proto = StartTLSProtocol(rawValue: text[..<range.lowerBound].lowercased())
                ?? (text[..<range.lowerBound].lowercased() == "postgresql" ? .postgres : nil)
        {
            schemeStartTLS = proto
            var rest = text[range.upperBound...]
            if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
            text = String(rest)
        }
        do {
            target = try ProbeTarget.parse(text, defaultPort: schemeStartTLS?.defaultPort ?? 443)
            if let c = p.value("connect-to") { target.connectTo = try Endpoint.parse(c, defaultPort: target.port) }
        } catch {
            throw UsageError(message: error.message)
        }
        if p.has("no-sni") && p.has("sni") { throw UsageError(message: "--sni and --no-sni cannot be combined") }
        if p.has("no-sni") { target.sni = .none }
        if let name = p.value("sni") {
            guard !name.isEmpty, parseIPAddress(name) == nil else {
                throw UsageError(message: "--sni needs a host name; RFC 6066 forbids IP addresses in SNI")
            }
            target.sni = .name(name)
        }
        var options = ProbeOptions()
        if let timeout = try runTimeout(p) { options.timeout = timeout }
        options.minimumVersion = settings.tlsMinimum
        options.maximumVersion = settings.tlsMaximum
        if options.minimumVersion > options.maximumVersion {
            throw UsageError(
                message: "--tls-min \(options.minimumVersion) is above --tls-max \(options.maximumVersion)")
        }
        if let cert = p.value("client-cert") {
            if let key = p.value("client-key") {
                options.clientIdentity = .pem(certificatePath: cert, keyPath: key, password: p.value("password"))
            } else {
                guard let password = p.value("password") else {
                    throw UsageError(
                        message: "--client-cert needs --password for a PKCS#12 file, or --client-key for PEM")
                }
                options.clientIdentity = .pkcs12(path: cert, password: password)
            }
        } else if p.has("client-key") {
            throw UsageError(message: "--client-key needs --client-cert")
        }
        options.startTLS = p.value("starttls").flatMap(StartTLSProtocol.init(rawValue:)) ?? schemeStartTLS
        options.sendsAppleClientHello = !p.has("no-apple-hello")
        if let proxy = p.value("proxy") {
            do {
                options.proxy = .http(try ProxyAddress.parse(proxy))
            } catch {
                throw UsageError(message: error.message)
            }
        } else {
            options.proxy = .environment
        }
        return Connection(target: target, options: options, fetchAIA: settings.fetchAIA, explicitHost: p.has("host"))
    }
}

extension CheckCommand {
    /// Charges the client identity's files to the run's input allowance (the probe reads them
    /// when it connects): 66 when they would take the run's files past the cap.
    static func chargeClientIdentity(_ identity: ClientIdentity?) -> Result<Void, Trustx.Failure> {
        let paths: [String]
        switch identity {
        case .pem(let certificate, let key, _)?: paths = [certificate, key]
        case .pkcs12(let path, _)?: paths = [path]
        case nil: paths = []
        }
        for path in paths {
            do {
                _ = try Trustx.inputAllowance.read(path)
            } catch {
                return .failure(Trustx.Failure(message: error.description, status: .noInput))
            }
        }
        return .success(())
    }
}

/// `check`'s parsed command line, as the settings' declarations read it.
extension ParsedArguments: SettingArguments {}

extension OptionSpec {
    /// The option a setting declares (D380).
    init(_ option: SettingOption) {
        let arity: Arity =
            switch option.arity {
            case .flag: .flag
            case .one: .one
            case .repeated: .repeated
            }
        self.init(
            name: option.name, valueName: option.valueName, arity: arity, help: option.help,
            allowedValues: option.allowedValues, defaultText: option.defaultText,
            suggestedValues: option.suggestedValues)
    }
}
