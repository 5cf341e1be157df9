import ATSModel
import TLSProbe
import TrustCore
import TrustSupport
import TrustX509

/// `trustx check`'s options and their validation, shared with `explore` and `export`.
extension CheckCommand {
    /// `--policy`'s words, each the `identifier` of the policy it chooses.
    static let policies = [TrustPolicy.sslWord, TrustPolicy.sslNoHostWord, TrustPolicy.basicX509.identifier]

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
            "Give a server to connect to, or --chain files. Exit status: 0 trusted, 1 not trusted, 64 usage error, 65 malformed input, 66 unreadable file, 69 connection failed.",
        arguments: [
            FleetCheck.targetsArgument
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
            ReportFormat.option(ReportFormat.allCases, help: "The report format."),
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
            OptionSpec(
                name: "require-revocation", arity: .flag,
                help:
                    "Fail every certificate of the path without a positive, verified OCSP response or CRL answer, as kSecRevocationRequirePositiveResponse does (errSecIncompleteCertRevocationCheck)."
            ),
            storeOption,
            ctLogsOption,
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
        ]
    )

    /// `--all-addresses`, shared with `explore`.
    static let allAddressesOption = OptionSpec(
        name: "all-addresses", arity: .flag,
        help: "Check every address the server's name resolves to, one report each, to find the odd node of a pool.")

    static let tlsVersions = ["1.0", "1.1", "1.2", "1.3"]
    // --timeout is not among them: it bounds a run of --chain files too (evaluation, --revocation).
    static let connectionOptions = [
        "connect-to", "sni", "no-sni", "tls-min", "tls-max", "client-cert", "client-key", "starttls",
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
        /// Whether `--at` fixed `time`; otherwise it is the clock, read again by each round of a
        /// watch.
        var timeFixed = false
        var profile: RuleProfile
        var format: ReportFormat
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
        /// --require-revocation: a positive revocation answer for every certificate.
        var requireRevocation = false
        /// --ats / --ats-plist / --platform and the target's scheme; nil without ATS.
        var ats: ATSRequest? = nil
        /// --timeout: the deadline of the whole run, files included (a server's is also in
        /// `connection.options.timeout`).
        var timeout: Duration = .seconds(10)
        /// --store: which roots are the system's.
        var store: TrustStoreChoice = .apple
        /// --ct-logs, --sct and --ocsp-response.
        var ct = CTRequest()
        /// The --anchor certificates when already read, once for several targets.
        var anchorCertificates: [Certificate]? = nil
    }

    /// ATS as asked for, before the Info.plist is read.
    struct ATSRequest {
        /// The Info.plist, nil for ATS's defaults (--ats).
        var plistPath: String?
        var platform: ATSPlatform
        var scheme: URLScheme
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
        var connection: Connection?
        if let targetText {
            connection = try validateConnection(targetText, p)
        } else if let used = connectionOptions.first(where: { p.has($0) }) {
            throw UsageError(message: "--\(used) applies to a server target, not to --chain files")
        }
        var host = p.value("host")
        // A server's name is the host the SSL policy checks, unless --host or --policy says otherwise.
        if let connection, host == nil, p.value("policy") != TrustPolicy.sslNoHostWord {
            host = connection.target.host
        }
        if let host, host.isEmpty { throw UsageError(message: "--host needs a non-empty name") }
        let policy: TrustPolicy
        switch p.value("policy") {
        case nil: policy = .ssl(host: host)
        case TrustPolicy.sslWord?:
            // Apple's SecPolicyCreateSSL(true, nil) is a different policy (no host-name check),
            // so an SSL policy without a host is never chosen silently.
            guard let host else {
                throw UsageError(
                    message:
                        "--policy ssl checks a host name; give --host NAME, or use --policy ssl-no-host for SecPolicyCreateSSL(true, nil)"
                )
            }
            policy = .ssl(host: host)
        case TrustPolicy.sslNoHostWord?:
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
        var request = Request(
            chainFiles: p.all("chain"), anchorFiles: p.all("anchor"), password: p.value("password"),
            withSystemAnchors: p.has("with-system-anchors"),
            anchorClass: p.value("anchor-class").flatMap(CustomAnchorClass.init(rawValue:)) ?? .app, policy: policy,
            pins: PinSet(digests: digests),
            time: time, profile: p.value("profile").flatMap(RuleProfile.init(rawValue:)) ?? .apple,
            format: ReportFormat(p), connection: connection, allAddresses: p.has("all-addresses"),
            targetText: targetText, ignoredHost: policy == .basicX509 ? host : nil, crlFiles: p.all("crl"),
            fetchRevocation: p.has("revocation"), requireRevocation: p.has("require-revocation"), ats: ats,
            timeout: try runTimeout(p) ?? .seconds(10), store: try storeChoice(p))
        request.ct = try validateCT(p)
        request.timeFixed = p.has("at")
        return request
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
        if let timeout = try runTimeout(p) { options.timeout = timeout }
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
