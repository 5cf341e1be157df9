import TrustCore

/// `trustx check`: evaluates a chain from files and prints a report.
enum CheckCommand {
    static let name = "check"

    static let policies = ["ssl", "ssl-no-host", "basic"]
    static let formats = ["text", "json", "markdown"]

    static let spec = CommandSpec(
        commandPath: "trustx check",
        abstract: "Evaluate a certificate chain the way Apple's SecTrust does and report every step.",
        discussion: "Exit status: 0 trusted, 1 not trusted, 64 usage error, 65 malformed input, 66 unreadable file.",
        options: [
            OptionSpec(
                name: "chain", valueName: "file", arity: .upToNextOption, isRequired: true,
                help: "The certificates as a server presents them, leaf first, from PEM, DER, PKCS#7 or PKCS#12 files."),
            OptionSpec(
                name: "password", valueName: "password", arity: .one,
                help: "The password of the PKCS#12 files given."),
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
                name: "policy", valueName: "policy", arity: .one,
                help: "The policy: SecPolicyCreateSSL with or without a host, or SecPolicyCreateBasicX509.",
                allowedValues: policies, defaultText: "ssl with --host, else ssl-no-host"),
            OptionSpec(
                name: "host", valueName: "host", arity: .one,
                help: "The server name or IP address the leaf must match, which implies --policy ssl."),
            OptionSpec(
                name: "pin", valueName: "pin", arity: .repeated,
                help: "An SPKI SHA-256 pin (sha256//BASE64 or bare base64) the app checks after evaluation passes."),
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
        ]
    )

    /// What the command line asks for, validated but with no file read yet.
    struct Request {
        var chainFiles: [String]
        var anchorFiles: [String]
        var password: String?
        var withSystemAnchors: Bool
        var policy: TrustPolicy
        var pins: PinSet
        var time: Timestamp
        var profile: RuleProfile
        var format: String
    }

    static func run(_ args: [String], now: Timestamp, environment: Environment) -> ExitStatus {
        let parsed: ParsedArguments
        do {
            switch try spec.parse(args) {
            case .help:
                Output.out(spec.help + "\n")
                return .success
            case .version:
                Output.out(Trustx.version + "\n")
                return .success
            case .run(let p): parsed = p
            }
        } catch {
            return Trustx.usageError(error, spec)
        }
        let request: Request
        do {
            request = try validate(parsed, now: now)
        } catch {
            return Trustx.usageError(error, spec)
        }
        let evaluation: Evaluation
        switch evaluate(request) {
        case .success(let e): evaluation = e
        case .failure(let failure): return failure.report()
        }
        switch request.format {
        case "json": Output.out(JSONReport.render(evaluation))
        case "markdown": Output.out(MarkdownReport.render(evaluation))
        default: Output.out(TextReport.render(evaluation, options: environment.textOptions))
        }
        return evaluation.verdict.trusted ? .success : .notTrusted
    }

    /// Turns parsed options into a request; every usage error is found here, before any file
    /// is opened.
    static func validate(_ p: ParsedArguments, now: Timestamp) throws(UsageError) -> Request {
        let host = p.value("host")
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
            if host != nil {
                throw UsageError(message: "--host cannot be combined with --policy basic, which checks no host name")
            }
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
        return Request(
            chainFiles: p.all("chain"), anchorFiles: p.all("anchor"), password: p.value("password"),
            withSystemAnchors: p.has("with-system-anchors"), policy: policy, pins: PinSet(digests: digests),
            time: time, profile: p.value("profile").flatMap(RuleProfile.init(rawValue:)) ?? .apple,
            format: p.value("format") ?? "text")
    }

    /// Loads the files and evaluates.
    static func evaluate(_ r: Request) -> Result<Evaluation, Trustx.Failure> {
        var chain: [Certificate] = []
        for path in r.chainFiles {
            switch Trustx.load(path, password: r.password, command: spec) {
            case .success(let certs): chain += certs
            case .failure(let f): return .failure(f)
            }
        }
        var anchors: [Certificate] = []
        for path in r.anchorFiles {
            switch Trustx.load(path, password: r.password, command: spec) {
            case .success(let certs): anchors += certs
            case .failure(let f): return .failure(f)
            }
        }
        let settings = TrustSettings(
            anchors: anchors,
            // With custom anchors Apple trusts only them unless SecTrustSetAnchorCertificatesOnly(false).
            anchorsOnly: !r.withSystemAnchors,
            // The store is a source of parent certificates even when its roots are not trusted.
            systemStore: makeSystemStore(),
            policy: r.policy, pins: r.pins, time: r.time, profile: r.profile)
        guard let evaluation = Evaluator().evaluate(chain: chain, settings: settings) else {
            // The loader rejects files without certificates, so this needs an empty --chain list.
            return .failure(Trustx.Failure(message: "no certificate in the --chain files", status: .dataError))
        }
        return .success(evaluation)
    }
}
