import TLSProbe
import TrustCore

/// `trustx check`: evaluates a chain from a server or from files and prints a report.
enum CheckCommand {
    static let name = "check"

    static let policies = ["ssl", "ssl-no-host", "basic"]

    /// The server argument, shared with `explore`.
    static let targetArgument = ArgumentSpec(
        valueName: "target",
        help: "A server to connect to: host, host:port, https://host:port/path or [IPv6]:port (port 443 by default).",
        isRequired: false)

    /// `--chain`, shared with `explore`.
    static let chainOption = OptionSpec(
        name: "chain", valueName: "file", arity: .upToNextOption,
        help: "The certificates as a server presents them, leaf first, from PEM, DER, PKCS#7 or PKCS#12 files.")
    static let formats = ["text", "json", "markdown"]

    static let spec = CommandSpec(
        commandPath: "trustx check",
        abstract: "Evaluate a certificate chain the way Apple's SecTrust does and report every step.",
        discussion:
            "Give a server to connect to, or --chain files. Exit status: 0 trusted, 1 not trusted, 64 usage error, 65 malformed input, 66 unreadable file, 69 connection failed.",
        arguments: [
            targetArgument
        ],
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
            OptionSpec(
                name: "with-system-anchors", arity: .flag,
                help:
                    "Trust the system roots as well as the --anchor certificates, like SecTrustSetAnchorCertificatesOnly(false)."
            ),
            OptionSpec(
                name: "anchor-class", valueName: "class", arity: .one,
                help:
                    "How the --anchor certificates are trusted: set by the app, or installed by a configuration profile and trusted on the device, which Apple holds to fewer rules.",
                allowedValues: CustomAnchorClass.allCases.map(\.rawValue), defaultText: CustomAnchorClass.app.rawValue),
            OptionSpec(
                name: "policy", valueName: "policy", arity: .one,
                help: "The policy: SecPolicyCreateSSL with or without a host, or SecPolicyCreateBasicX509.",
                allowedValues: policies, defaultText: "ssl with --host or a server target, else ssl-no-host"),
            OptionSpec(
                name: "host", valueName: "host", arity: .one,
                help:
                    "The server name or IP address the leaf must match, which implies --policy ssl; with --policy basic it is reported but not checked, as SecPolicyCreateBasicX509 ignores it.",
                defaultText: "the server target's host"),
            OptionSpec(
                name: "pin", valueName: "pin", arity: .repeated,
                help: "An SPKI SHA-256 pin (sha256//BASE64 or bare base64) the app checks after evaluation passes."),
            OptionSpec(
                name: "ats", arity: .flag,
                help:
                    "Apply App Transport Security with its defaults, as for an app whose Info.plist has no NSAppTransportSecurity."
            ),
            OptionSpec(
                name: "ats-plist", valueName: "file", arity: .one,
                help:
                    "Apply App Transport Security and NSPinnedDomains as this Info.plist (XML or binary) configures them."
            ),
            OptionSpec(
                name: "platform", valueName: "platform", arity: .one,
                help: "The Apple platform generation whose ATS rules apply: iOS 17 and later also cover IP addresses.",
                allowedValues: ATSPlatform.allCases.map(\.rawValue), defaultText: ATSPlatform.ios17.rawValue),
            OptionSpec(
                name: "crl", valueName: "file", arity: .repeated,
                help:
                    "Check the path against the CRLs in this file (PEM or DER): a revoked certificate fails with errSecCertificateRevoked."
            ),
            OptionSpec(
                name: "revocation", arity: .flag,
                help:
                    "Fetch OCSP responses, else CRLs, over the network for every certificate of the path, as SecPolicyCreateRevocation with kSecRevocationUseAnyAvailableMethod does (plain HTTP, at most 8 fetches)."
            ),
            OptionSpec(
                name: "at", valueName: "time", arity: .one,
                help: "The evaluation time in RFC 3339, e.g. 2027-01-01T00:00:00Z.", defaultText: "now"),
            OptionSpec(
                name: "profile", valueName: "profile", arity: .one,
                help: "The rule set: Apple's SecTrust or RFC 5280 with the CA/Browser Forum rules.",
                allowedValues: RuleProfile.allCases.map(\.rawValue), defaultText: RuleProfile.apple.rawValue),
            OptionSpec(
                name: "format", valueName: "format", arity: .one,
                help: "The report format.", allowedValues: formats, defaultText: "text"),
            OptionSpec(
                name: "connect-to", valueName: "address", arity: .one,
                help: "Connect to this host[:port] instead, keeping the target's name for SNI and the host check."),
            OptionSpec(
                name: "sni", valueName: "name", arity: .one,
                help: "Send this server name instead of the target's.", defaultText: "the target's host name"),
            OptionSpec(name: "no-sni", arity: .flag, help: "Send no server name at all."),
            OptionSpec(
                name: "timeout", valueName: "seconds", arity: .one,
                help: "The deadline for the whole run: connecting, the handshake, AIA fetches and evaluation.",
                defaultText: "10"),
            OptionSpec(
                name: "tls-min", valueName: "version", arity: .one,
                help: "The lowest TLS version offered.", allowedValues: tlsVersions, defaultText: "1.2, as URLSession"),
            OptionSpec(
                name: "tls-max", valueName: "version", arity: .one,
                help: "The highest TLS version offered.", allowedValues: tlsVersions, defaultText: "1.3"),
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
            OptionSpec(
                name: "no-aia", arity: .flag,
                help: "Do not fetch missing intermediates from AIA URLs, as OpenSSL and curl do not."),
            allAddressesOption,
        ]
    )

    /// `--all-addresses`, shared with `explore`.
    static let allAddressesOption = OptionSpec(
        name: "all-addresses", arity: .flag,
        help: "Check every address the server's name resolves to, one report each, to find the odd node of a pool.")

    static let tlsVersions = ["1.0", "1.1", "1.2", "1.3"]
    static let connectionOptions = [
        "connect-to", "sni", "no-sni", "timeout", "tls-min", "tls-max", "client-cert", "client-key", "starttls",
        "proxy", "no-aia", "all-addresses",
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
        var withSystemAnchors: Bool
        var anchorClass: CustomAnchorClass
        var policy: TrustPolicy
        var pins: PinSet
        var time: Timestamp
        var profile: RuleProfile
        var format: String
        var connection: Connection?
        var allAddresses = false
        /// The target as typed (the explorer shows it and its copied command repeats it).
        var targetText: String?
        /// A host the app holds while Basic X.509 ignores it: reported, not checked.
        var ignoredHost: String? = nil
        /// --crl files.
        var crlFiles: [String] = []
        /// --revocation: fetch revocation information over the network.
        var fetchRevocation = false
        /// --ats / --ats-plist / --platform and the target's scheme; nil without ATS.
        var ats: ATSRequest? = nil
    }

    /// ATS as asked for, before the Info.plist is read.
    struct ATSRequest {
        /// The Info.plist, nil for ATS's defaults (--ats).
        var plistPath: String?
        var platform: ATSPlatform
        var scheme: URLScheme
    }

    static func run(_ args: [String], now: Timestamp, environment: Environment) -> ExitStatus {
        let parsed: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let p): parsed = p
        case .failure(let exit): return exit.status
        }
        let request: Request
        do {
            request = try validate(parsed, now: now)
        } catch {
            return Trustx.usageError(error, spec)
        }
        if request.allAddresses { return runEachAddress(request, environment: environment) }
        return runOne(request, environment: environment)
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
        if request.format == "json" { Output.out("[\n") }
        for (i, address) in addresses.enumerated() {
            var one = request
            one.connection?.target.connectTo = Endpoint(host: address, port: c.target.port)
            switch request.format {
            case "json": if i > 0 { Output.out(",\n") }
            case "markdown": Output.out("\(i == 0 ? "" : "\n")## \(c.target.host) at \(address)\n\n")
            default:
                Output.out(
                    "\(i == 0 ? "" : "\n")== \(c.target.host) at \(address) (\(i + 1) of \(addresses.count)) ==\n")
            }
            let status = runOne(one, environment: environment)
            if status == .unavailable || (status == .notTrusted && worst == .success) { worst = status }
            if status != .success && status != .notTrusted && status != .unavailable { return status }
        }
        if request.format == "json" { Output.out("]\n") }
        return worst
    }

    static func runOne(_ request: Request, environment: Environment) -> ExitStatus {
        let evaluation: Evaluation
        let outcome = request.connection == nil ? evaluate(request) : evaluateServer(request, environment: environment)
        switch outcome {
        case .success(let e): evaluation = e
        case .failure(let failure):
            switch failure.detail {
            case .evaluation(let partial):
                render(partial, format: request.format, environment: environment)
                return .unavailable
            case .connection(let connection, let settings):
                switch request.format {
                case "json": Output.out(JSONReport.renderConnectionFailure(connection, settings: settings))
                case "markdown": Output.out(MarkdownReport.renderConnectionFailure(connection))
                default:
                    Output.out(TextReport.renderConnectionFailure(connection, options: environment.textOptions))
                }
                return .unavailable
            case .message, .usage: return failure.report()
            }
        }
        render(evaluation, format: request.format, environment: environment)
        return evaluation.verdict.trusted ? .success : .notTrusted
    }

    static func render(_ evaluation: Evaluation, format: String, environment: Environment) {
        switch format {
        case "json": Output.out(JSONReport.render(evaluation))
        case "markdown": Output.out(MarkdownReport.render(evaluation))
        default: Output.out(TextReport.render(evaluation, options: environment.textOptions))
        }
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
        var connection: Connection?
        if let targetText {
            connection = try validateConnection(targetText, p)
        } else if let used = connectionOptions.first(where: { p.has($0) }) {
            throw UsageError(message: "--\(used) applies to a server target, not to --chain files")
        }
        var host = p.value("host")
        // A server's name is the host the SSL policy checks, unless --host or --policy says otherwise.
        if let connection, host == nil, p.value("policy") != "ssl-no-host" {
            host = connection.target.host
        }
        if let host, host.isEmpty { throw UsageError(message: "--host needs a non-empty name") }
        let policy: TrustPolicy
        switch p.value("policy") {
        case nil: policy = .ssl(host: host)
        case "ssl"?:
            // Apple's SecPolicyCreateSSL(true, nil) is a different policy (no host-name check),
            // so an SSL policy without a host is never chosen silently.
            guard let host else {
                throw UsageError(
                    message:
                        "--policy ssl checks a host name; give --host NAME, or use --policy ssl-no-host for SecPolicyCreateSSL(true, nil)"
                )
            }
            policy = .ssl(host: host)
        case "ssl-no-host"?:
            if host != nil {
                throw UsageError(
                    message: "--host cannot be combined with --policy ssl-no-host; --host implies --policy ssl")
            }
            policy = .ssl(host: nil)
        default:
            // An app can hold a host and still evaluate with SecPolicyCreateBasicX509, which
            // ignores it: the report shows that, and whether the host would have matched.
            policy = .basicX509
        }
        var digests: [[UInt8]] = []
        for pin in p.all("pin") {
            guard let d = PinSet.parse(pin) else {
                throw UsageError(
                    message:
                        "The value '\(pin)' is invalid for '--pin <pin>': expected sha256//BASE64 or the base64 of a 32-byte SHA-256 digest"
                )
            }
            digests.append(d)
        }
        var time = now
        if let at = p.value("at") {
            guard let t = Timestamp(rfc3339: at) else {
                throw UsageError(
                    message:
                        "The value '\(at)' is invalid for '--at <time>': expected RFC 3339, e.g. 2027-01-01T00:00:00Z")
            }
            time = t
        }
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
        var ats: ATSRequest?
        if p.has("ats") && p.has("ats-plist") {
            throw UsageError(
                message: "--ats and --ats-plist cannot be combined; --ats-plist applies ATS as the file says")
        }
        let platform = p.value("platform").flatMap(ATSPlatform.init(rawValue:))
        if p.has("ats") || p.has("ats-plist") {
            // The scheme of a URL target is what the app loads: ATS refuses http:// unless allowed.
            let http = targetText.map { $0.lowercased().hasPrefix("http://") } ?? false
            ats = ATSRequest(
                plistPath: p.value("ats-plist"), platform: platform ?? .ios17, scheme: http ? .http : .https)
        } else if p.has("platform") {
            throw UsageError(message: "--platform applies to --ats or --ats-plist")
        }
        return Request(
            chainFiles: p.all("chain"), anchorFiles: p.all("anchor"), password: p.value("password"),
            withSystemAnchors: p.has("with-system-anchors"),
            anchorClass: p.value("anchor-class").flatMap(CustomAnchorClass.init(rawValue:)) ?? .app, policy: policy,
            pins: PinSet(digests: digests),
            time: time, profile: p.value("profile").flatMap(RuleProfile.init(rawValue:)) ?? .apple,
            format: p.value("format") ?? "text", connection: connection, allAddresses: p.has("all-addresses"),
            targetText: targetText, ignoredHost: policy == .basicX509 ? host : nil, crlFiles: p.all("crl"),
            fetchRevocation: p.has("revocation"), ats: ats)
    }

    /// Reads the --ats-plist file (or takes ATS's defaults for --ats): 66 when it cannot be read,
    /// 65 when it is no property list or its NSAppTransportSecurity is not a dictionary.
    static func loadATS(_ request: ATSRequest?) -> Result<ATSSettings?, Trustx.Failure> {
        guard let request else { return .success(nil) }
        var configuration = ATSConfiguration()
        if let path = request.plistPath {
            do {
                configuration = try ATSConfiguration.decode(infoPlist: try CertificateLoader.readFile(path))
            } catch let e as LoadError {
                if case .unreadable = e { return .failure(Trustx.Failure(message: e.description, status: .noInput)) }
                return .failure(Trustx.Failure(message: "\(path): \(e.description)", status: .dataError))
            } catch let e as ATSConfigurationError {
                return .failure(Trustx.Failure(message: "\(path): \(e.description)", status: .dataError))
            } catch {
                return .failure(Trustx.Failure(message: "\(path): \(error)", status: .dataError))
            }
        }
        return .success(
            ATSSettings(
                configuration: configuration, platform: request.platform, scheme: request.scheme,
                source: request.plistPath))
    }

    /// The connection options, checked before anything touches the network.
    static func validateConnection(_ text: String, _ p: ParsedArguments) throws(UsageError) -> Connection {
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
        if let t = p.value("timeout") {
            guard let seconds = Double(t), seconds > 0, seconds <= 3600 else {
                throw UsageError(
                    message:
                        "The value '\(t)' is invalid for '--timeout <seconds>': expected a number of seconds up to 3600"
                )
            }
            options.timeout = .milliseconds(Int64(seconds * 1000))
        }
        if let v = p.value("tls-min") { options.minimumVersion = TLSVersion(v) ?? .tls1_2 }
        if let v = p.value("tls-max") { options.maximumVersion = TLSVersion(v) ?? .tls1_3 }
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
        if let proxy = p.value("proxy") {
            do {
                options.proxy = .http(try ProxyAddress.parse(proxy))
            } catch {
                throw UsageError(message: error.message)
            }
        } else {
            options.proxy = .environment
        }
        return Connection(target: target, options: options, fetchAIA: !p.has("no-aia"), explicitHost: p.has("host"))
    }

    /// Connects, completes the chain through AIA where Apple's SSL policy would, and evaluates.
    static func evaluateServer(_ r: Request, environment: Environment) -> Result<Evaluation, Trustx.Failure> {
        guard let c = r.connection else { return evaluate(r) }
        let deadline = RunDeadline(after: c.options.timeout)
        var anchors: [Certificate] = []
        for path in r.anchorFiles {
            switch Trustx.load(path, password: r.password, command: spec) {
            case .success(let certs): anchors += certs
            case .failure(let f): return .failure(f)
            }
        }
        var settings = TrustSettings(
            anchors: anchors, anchorsOnly: !r.withSystemAnchors, customAnchorClass: r.anchorClass,
            systemStore: makeSystemStore(),
            policy: r.policy, pins: r.pins, time: r.time, profile: r.profile)
        settings.hostIgnoredByPolicy = r.ignoredHost
        switch loadCRLs(r.crlFiles) {
        case .success(let crls): settings.revocationLists = crls
        case .failure(let f): return .failure(f)
        }
        switch loadATS(r.ats) {
        case .success(let ats): settings.ats = ats
        case .failure(let f): return .failure(f)
        }
        // Apple's SSL policy fetches missing intermediates over the network; Basic X.509 does not.
        let (systemStore, anchorList) = (settings.systemStore, anchors)
        guard
            let result = deadline.run({
                ServerConnection.connect(
                    c.target, options: c.options, fetchAIA: c.fetchAIA && r.policy.isSSL, anchors: anchorList,
                    systemStore: systemStore)
            })
        else {
            return .failure(runTimedOut(c, settings: settings))
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
        settings.connectionSCTLogIDs = result.sctLogIDs
        settings.stapledOCSPResponse = result.ocspResponse
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
        if r.fetchRevocation { evaluation = withFetchedRevocation(evaluation, timeout: c.options.timeout) }
        return .success(evaluation)
    }

    /// Fetches revocation information for the built path and evaluates again with it, as
    /// SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod) adds to an evaluation.
    static func withFetchedRevocation(_ evaluation: Evaluation, timeout: Duration) -> Evaluation {
        let fetched = RevocationFetcher().fetch(path: evaluation.path.certificates, timeout: timeout)
        var settings = evaluation.settings
        settings.fetchedOCSPResponses = fetched.ocspResponses
        settings.revocationLists += fetched.revocationLists
        settings.revocationFetched = true
        guard var again = Evaluator().evaluate(chain: evaluation.presented, settings: settings) else {
            return evaluation
        }
        again.connection = evaluation.connection
        again.presentedSource = evaluation.presentedSource
        again.unreadable = evaluation.unreadable
        return again
    }

    /// Reads the --crl files (PEM `X509 CRL` blocks or DER).
    static func loadCRLs(_ paths: [String]) -> Result<[RevocationList], Trustx.Failure> {
        var out: [RevocationList] = []
        for path in paths {
            do {
                out += try RevocationList.decodeAll(try CertificateLoader.readFile(path))
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
    static func runTimedOut(_ c: Connection, settings: TrustSettings) -> Trustx.Failure {
        var proxy: String?
        if case .http(let address) = c.options.proxy { proxy = address.description }
        var report = ConnectionReport(
            target: ConnectionReport.Target(
                host: c.target.host, port: Int(c.target.port), sni: c.target.serverName,
                connectTo: c.target.connectTo?.description, startTLS: c.options.startTLS?.rawValue, proxy: proxy))
        let seconds =
            Double(c.options.timeout.components.seconds) + Double(c.options.timeout.components.attoseconds) / 1e18
        report.failure = ConnectionReport.Failure(
            kind: .timedOut,
            message:
                "the connection and its AIA fetches did not end within --timeout \(seconds) s, which bounds the whole run",
            urlError: -1001)
        return Trustx.Failure(
            message: report.failure!.message, status: .unavailable, detail: .connection(report, settings: settings))
    }

    /// Loads the files and evaluates.
    static func evaluate(_ r: Request) -> Result<Evaluation, Trustx.Failure> {
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
        var anchors: [Certificate] = []
        for path in r.anchorFiles {
            switch Trustx.load(path, password: r.password, command: spec) {
            case .success(let certs): anchors += certs
            case .failure(let f): return .failure(f)
            }
        }
        var settings = TrustSettings(
            anchors: anchors,
            // With custom anchors Apple trusts only them unless SecTrustSetAnchorCertificatesOnly(false).
            anchorsOnly: !r.withSystemAnchors,
            customAnchorClass: r.anchorClass,
            // The store is a source of parent certificates even when its roots are not trusted.
            systemStore: makeSystemStore(),
            policy: r.policy, pins: r.pins, time: r.time, profile: r.profile)
        settings.hostIgnoredByPolicy = r.ignoredHost
        switch loadCRLs(r.crlFiles) {
        case .success(let crls): settings.revocationLists = crls
        case .failure(let f): return .failure(f)
        }
        switch loadATS(r.ats) {
        case .success(let ats): settings.ats = ats
        case .failure(let f): return .failure(f)
        }
        guard var evaluation = Evaluator().evaluate(chain: chain, settings: settings) else {
            // The loader rejects files without certificates, so this needs an empty --chain list.
            return .failure(Trustx.Failure(message: "no certificate in the --chain files", status: .dataError))
        }
        evaluation.presentedSource = .file
        evaluation.unreadable = unreadable
        if r.fetchRevocation { evaluation = withFetchedRevocation(evaluation, timeout: .seconds(10)) }
        return .success(evaluation)
    }
}
