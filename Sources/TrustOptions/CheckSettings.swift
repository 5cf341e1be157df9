import ATSModel
import PathRules
import TrustCore
import TrustSupport
import TrustX509

/// The settings `trustx check` takes that shape an evaluation, one value from the command line
/// to the engine: `check` parses into it, the explorer's state wraps it, and the engine's
/// settings, the exports, the copied command and the lab's variations are read from it. Each
/// setting's command-line spelling is declared once, beside it, in `CheckSetting`s below (D380).
public struct CheckSettings: Hashable, Sendable {
    /// SecTrustSetAnchorCertificatesOnly: with custom anchors, whether the system roots stop
    /// being trusted (Apple's default once anchors are set).
    public var anchorsOnly = true
    /// Whether custom anchors are set by the app or trusted on the device through a profile.
    public var anchorClass: CustomAnchorClass = .app
    /// The policy's kind.
    public var policy: PolicyChoice = .sslWithHost
    /// The host the app holds, kept whole with the policy until the engine's settings are made.
    public var host: HostChoice = .target
    /// SPKI SHA-256 pins the app's delegate checks after evaluation.
    public var pins: [[UInt8]] = []
    /// The evaluation time the user fixed; nil for "now" (read again by a lasting run).
    public var time: Timestamp?
    /// The lowest TLS version offered.
    public var tlsMinimum: TLSVersion = .tls1_2
    /// The highest TLS version offered.
    public var tlsMaximum: TLSVersion = .tls1_3
    /// Whether missing intermediates are fetched from AIA URLs.
    public var fetchAIA = true
    /// The rule set.
    public var profile: RuleProfile = .apple
    /// Who evaluates: an app, or Safari and Apple's other programs (trustd's early anchor expiry).
    public var client: TrustClient = .app
    /// Whether revocation information is fetched over the network, as
    /// SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod) would.
    public var fetchRevocation = false
    /// Whether every certificate below the anchor needs a positive revocation answer, as
    /// kSecRevocationRequirePositiveResponse asks.
    public var requireRevocation = false
    /// Which roots are the system's.
    public var store: TrustStoreChoice = .apple
    /// CRLs the path is checked against (`--crl`): the files, then what they hold once read.
    public var crls = CRLFiles()
    /// App Transport Security and NSPinnedDomains, as the app's Info.plist declares them.
    public var ats = ATSChoice()

    /// The defaults: SSL with the target's host, custom anchors alone, TLS 1.2 to 1.3, AIA on,
    /// now, Apple's rules and store.
    public init() {}

    /// The settings a lab variation's policy describes: the policy's kind, and its own host
    /// when it names one.
    public init(policy: TrustPolicy) {
        switch policy {
        case .ssl(let host?):
            self.policy = .sslWithHost
            self.host = .typed(host)
        case .ssl(nil): self.policy = .sslWithoutHost
        case .basicX509: self.policy = .basicX509
        }
    }

    /// The host the app holds for a target whose own host is `targetHost`; empty for none.
    public func heldHost(targetHost: String) -> String { host.host(targetHost: targetHost) }

    /// The engine's policy for a target whose own host is `targetHost` (empty for files).
    public func trustPolicy(targetHost: String) -> TrustPolicy {
        let held = heldHost(targetHost: targetHost)
        switch policy {
        case .sslWithHost: return .ssl(host: held.isEmpty ? nil : held)
        case .sslWithoutHost: return .ssl(host: nil)
        case .basicX509: return .basicX509
        }
    }

    /// The policy as the explorer names it: `SSL(example.com)`, `SSL(nil)`, `Basic X.509`. An
    /// SSL policy left with no host to hold reads `SSL(nil): no host to check`, or
    /// `SSL(nil: no host)` where the settings line has little room.
    public func policyWords(targetHost: String, short: Bool = false) -> String {
        switch policy {
        case .sslWithHost:
            let held = heldHost(targetHost: targetHost)
            if !held.isEmpty { return "SSL(\(held))" }
            return short ? "SSL(nil: no host)" : "SSL(nil): no host to check"
        case .sslWithoutHost: return "SSL(nil)"
        case .basicX509: return "Basic X.509"
        }
    }

    /// The host the app holds while its policy (Basic X.509) ignores it; nil otherwise.
    public func hostIgnoredByPolicy(targetHost: String) -> String? {
        let held = heldHost(targetHost: targetHost)
        return policy == .basicX509 && !held.isEmpty ? held : nil
    }

    /// The engine's settings these describe.
    /// - Parameters:
    ///   - anchors: The custom anchors in force.
    ///   - systemStore: The store made from `store` (a source of parents even when its roots are
    ///     not trusted).
    ///   - targetHost: The target's own host; empty for files.
    ///   - now: The moment "now" stands for when no time is fixed.
    /// - Returns: The settings, without what the connection or files bring.
    public func trustSettings(
        anchors: [Certificate], systemStore: (any IssuerSource)?, targetHost: String, now: Timestamp
    ) -> TrustSettings {
        var s = TrustSettings(
            anchors: anchors, anchorsOnly: anchorsOnly, customAnchorClass: anchorClass, systemStore: systemStore,
            policy: trustPolicy(targetHost: targetHost), pins: PinSet(digests: pins), time: time ?? now,
            profile: profile)
        s.timeMode = time == nil ? .now : .fixed
        s.hostIgnoredByPolicy = hostIgnoredByPolicy(targetHost: targetHost)
        s.requireRevocation = requireRevocation
        s.client = client
        s.revocationLists = crls.lists
        s.ats = ats.settings
        return s
    }
}

extension CheckSetting {
    /// Every setting, in the order their options appear in `trustx check --help`.
    public static let all: [CheckSetting] = [
        withSystemAnchors, anchorClass, policy, pins, ats, crls, fetchRevocation, time, client, profile, tlsMinimum,
        tlsMaximum, noAIA, requireRevocation, store,
    ]

    /// The settings decided while connecting (a change reconnects).
    public static let connection: [CheckSetting] = [tlsMinimum, tlsMaximum, noAIA]

    /// The settings of the custom anchors, written when there are some.
    public static let anchors: [CheckSetting] = [withSystemAnchors, anchorClass]

    /// The evaluation's settings in the order a copied command writes them, after the anchors.
    public static let written: [CheckSetting] = [
        policy, pins, crls, fetchRevocation, requireRevocation, ats, time, profile, client, store,
    ]

    /// The settings read once the target's host is known.
    public static let evaluation: [CheckSetting] = all.filter { s in
        !connection.contains { $0.option == s.option }
    }

    /// `--with-system-anchors`.
    public static let withSystemAnchors = CheckSetting(
        [
            SettingOption(
                "with-system-anchors", arity: .flag,
                help:
                    "Trust the system roots as well as the --anchor certificates, like SecTrustSetAnchorCertificatesOnly(false)."
            )
        ],
        read: { s, a, _ in s.anchorsOnly = !a.has("with-system-anchors") },
        write: { s, _ in s.anchorsOnly ? [] : ["--with-system-anchors"] })

    /// `--anchor-class`.
    public static let anchorClass = CheckSetting(
        [
            SettingOption(
                "anchor-class", valueName: "class", arity: .one,
                help:
                    "How the --anchor certificates are trusted: set by the app, or installed by a configuration profile and trusted on the device, which Apple holds to fewer rules.",
                allowedValues: CustomAnchorClass.allCases.map(\.rawValue), defaultText: CustomAnchorClass.app.rawValue)
        ],
        read: { s, a, _ in s.anchorClass = a.value("anchor-class").flatMap(CustomAnchorClass.init(rawValue:)) ?? .app },
        write: { s, _ in s.anchorClass == .app ? [] : ["--anchor-class", s.anchorClass.rawValue] })

    /// The policy's command-line names, in help order.
    public static let policyNames = [TrustPolicy.sslWord, TrustPolicy.sslNoHostWord, TrustPolicy.basicX509.identifier]

    /// `--policy` and `--host`: the policy's kind and the host the app holds, read together.
    public static let policy = CheckSetting(
        [
            SettingOption(
                "policy", valueName: "policy", arity: .one,
                help: "The policy: SecPolicyCreateSSL with or without a host, or SecPolicyCreateBasicX509.",
                allowedValues: policyNames, defaultText: "ssl with --host or a server target, else ssl-no-host"),
            SettingOption(
                "host", valueName: "host", arity: .one,
                help:
                    "The server name or IP address the leaf must match, which implies --policy ssl; with --policy basic it is reported but not checked, as SecPolicyCreateBasicX509 ignores it.",
                defaultText: "the server target's host"),
        ],
        read: { s, a, target in
            let targetHost = target.host
            var host = a.value("host")
            // A server's name is the host the SSL policy checks, unless --host or --policy says otherwise.
            if let targetHost, host == nil, a.value("policy") != TrustPolicy.sslNoHostWord { host = targetHost }
            if let host, host.isEmpty { throw SettingError("--host needs a non-empty name") }
            let held: HostChoice = host.map { $0 == targetHost ? .target : .typed($0) } ?? .target
            switch a.value("policy") {
            case nil:
                s.policy = host == nil ? .sslWithoutHost : .sslWithHost
            case TrustPolicy.sslWord?:
                // Apple's SecPolicyCreateSSL(true, nil) is a different policy (no host-name check),
                // so an SSL policy without a host is never chosen silently.
                guard host != nil else {
                    throw SettingError(
                        "--policy ssl checks a host name; give --host NAME, or use --policy ssl-no-host for SecPolicyCreateSSL(true, nil)"
                    )
                }
                s.policy = .sslWithHost
            case TrustPolicy.sslNoHostWord?:
                if host != nil {
                    throw SettingError(
                        "--host cannot be combined with --policy ssl-no-host; --host implies --policy ssl")
                }
                s.policy = .sslWithoutHost
            default:
                // An app can hold a host and still evaluate with SecPolicyCreateBasicX509, which
                // ignores it: the report shows that, and whether the host would have matched.
                s.policy = .basicX509
            }
            s.host = held
        },
        write: { s, c in
            let host = s.heldHost(targetHost: c.targetHost)
            // A server's own host is the default; files have none.
            let own = c.isServer && host == c.targetHost
            switch s.policy {
            case .sslWithHost:
                if host.isEmpty { return c.isServer ? ["--policy", TrustPolicy.sslNoHostWord] : [] }
                return own ? [] : ["--host", host]
            case .sslWithoutHost:
                return c.isServer ? ["--policy", TrustPolicy.sslNoHostWord] : []
            case .basicX509:
                // Basic X.509 ignores the host; check reports whether it would have matched.
                return ["--policy", TrustPolicy.basicX509.identifier] + (!host.isEmpty && !own ? ["--host", host] : [])
            }
        })

    /// `--pin`.
    public static let pins = CheckSetting(
        [
            SettingOption(
                "pin", valueName: "pin", arity: .repeated,
                help: "An SPKI SHA-256 pin (sha256//BASE64 or bare base64) the app checks after evaluation passes.")
        ],
        read: { s, a, _ in
            s.pins = []
            for pin in a.all("pin") {
                guard let d = PinSet.parse(pin) else {
                    throw SettingError(
                        "The value '\(pin)' is invalid for '--pin <pin>': expected sha256//BASE64 or the base64 of a 32-byte SHA-256 digest"
                    )
                }
                s.pins.append(d)
            }
        },
        write: { s, _ in s.pins.flatMap { ["--pin", "sha256//" + Base64.encode($0)] } })

    /// `--ats`, `--ats-plist` and `--platform`: the configuration is read from the file later.
    public static let ats = CheckSetting(
        [
            SettingOption(
                "ats", arity: .flag,
                help:
                    "Apply App Transport Security with its defaults, as for an app whose Info.plist has no NSAppTransportSecurity."
            ),
            SettingOption(
                "ats-plist", valueName: "file", arity: .one,
                help:
                    "Apply App Transport Security and NSPinnedDomains as this Info.plist (XML or binary) configures them."
            ),
            SettingOption(
                "platform", valueName: "platform", arity: .one,
                help: "The Apple platform generation whose ATS rules apply: iOS 17 and later also cover IP addresses.",
                allowedValues: ATSPlatform.allCases.map(\.rawValue), defaultText: ATSPlatform.ios17.rawValue),
        ],
        read: { s, a, target in
            s.ats = ATSChoice()
            if a.has("ats") && a.has("ats-plist") {
                throw SettingError("--ats and --ats-plist cannot be combined; --ats-plist applies ATS as the file says")
            }
            let platform = a.value("platform").flatMap(ATSPlatform.init(rawValue:))
            if a.has("ats") || a.has("ats-plist") {
                // The scheme of a URL target is what the app loads: ATS refuses http:// unless allowed.
                let http = target.text.map { $0.lowercased().hasPrefix("http://") } ?? false
                s.ats.enabled = true
                s.ats.source = a.value("ats-plist")
                s.ats.platform = platform ?? .ios17
                s.ats.scheme = http ? .http : .https
            } else if a.has("platform") {
                throw SettingError("--platform applies to --ats or --ats-plist")
            }
        },
        write: { s, c in
            guard s.ats.enabled else { return [] }
            let source = s.ats.source.map { ["--ats-plist", c.path($0)] } ?? ["--ats"]
            return source + (s.ats.platform == .ios17 ? [] : ["--platform", s.ats.platform.rawValue])
        })

    /// `--crl`: the files; their CRLs are read later.
    public static let crls = CheckSetting(
        [
            SettingOption(
                "crl", valueName: "file", arity: .repeated,
                help:
                    "Check the path against the CRLs in this file (PEM or DER): a revoked certificate fails with errSecCertificateRevoked."
            )
        ],
        read: { s, a, _ in s.crls = CRLFiles(paths: a.all("crl")) },
        write: { s, c in s.crls.paths.flatMap { ["--crl", c.path($0)] } })

    /// `--revocation`.
    public static let fetchRevocation = CheckSetting(
        [
            SettingOption(
                "revocation", arity: .flag,
                help:
                    "Fetch OCSP responses, else CRLs, over the network for every certificate of the path, as SecPolicyCreateRevocation with kSecRevocationUseAnyAvailableMethod does (plain HTTP, at most 8 fetches)."
            )
        ],
        read: { s, a, _ in s.fetchRevocation = a.has("revocation") },
        write: { s, _ in s.fetchRevocation ? ["--revocation"] : [] },
        report: ReportedSwitch("revocationFetched") { $0.revocationFetched })

    /// `--at`.
    public static let time = CheckSetting(
        [
            SettingOption(
                "at", valueName: "time", arity: .one,
                help: "The evaluation time in RFC 3339, e.g. 2027-01-01T00:00:00Z.",
                defaultText: "now")
        ],
        read: { s, a, _ in
            s.time = nil
            guard let at = a.value("at") else { return }
            guard let t = Timestamp(rfc3339: at) else {
                throw SettingError(
                    "The value '\(at)' is invalid for '--at <time>': expected RFC 3339, e.g. 2027-01-01T00:00:00Z")
            }
            s.time = t
        },
        write: { s, c in
            guard let time = s.time, time != c.now else { return [] }
            return ["--at", time.rfc3339]
        })

    /// `--profile`.
    public static let profile = CheckSetting(
        [
            SettingOption(
                "profile", valueName: "profile", arity: .one,
                help: "The rule set: Apple's SecTrust or RFC 5280 with the CA/Browser Forum rules.",
                allowedValues: RuleProfile.allCases.map(\.rawValue), defaultText: RuleProfile.apple.rawValue)
        ],
        read: { s, a, _ in s.profile = a.value("profile").flatMap(RuleProfile.init(rawValue:)) ?? .apple },
        write: { s, _ in s.profile == .apple ? [] : ["--profile", s.profile.rawValue] })

    /// `--client`.
    public static let client = CheckSetting(
        [
            SettingOption(
                "client", valueName: "client", arity: .one,
                help:
                    "Who evaluates: an app, or Safari and Apple's other programs, for which trustd expires a system or app-set root 60 days early (an Apple-internal rule in Security-61901).",
                allowedValues: TrustClient.allCases.map(\.rawValue), defaultText: TrustClient.app.rawValue)
        ],
        read: { s, a, _ in s.client = a.value("client").flatMap(TrustClient.init(rawValue:)) ?? .app },
        write: { s, _ in s.client == .app ? [] : ["--client", s.client.rawValue] })

    /// The TLS versions' command-line words.
    public static let tlsVersionWords = ["1.0", "1.1", "1.2", "1.3"]

    /// `1.2` for TLS 1.2: the word `--tls-min` and `--tls-max` take.
    public static func versionWord(_ version: TLSVersion) -> String { String(version.description.dropFirst(4)) }

    /// `--tls-min`.
    public static let tlsMinimum = CheckSetting(
        [
            SettingOption(
                "tls-min", valueName: "version", arity: .one, help: "The lowest TLS version offered.",
                allowedValues: tlsVersionWords, defaultText: "1.2, as URLSession")
        ],
        read: { s, a, _ in s.tlsMinimum = a.value("tls-min").flatMap(TLSVersion.init) ?? .tls1_2 },
        write: { s, _ in s.tlsMinimum == .tls1_2 ? [] : ["--tls-min", versionWord(s.tlsMinimum)] })

    /// `--tls-max`.
    public static let tlsMaximum = CheckSetting(
        [
            SettingOption(
                "tls-max", valueName: "version", arity: .one, help: "The highest TLS version offered.",
                allowedValues: tlsVersionWords, defaultText: "1.3")
        ],
        read: { s, a, _ in s.tlsMaximum = a.value("tls-max").flatMap(TLSVersion.init) ?? .tls1_3 },
        write: { s, _ in s.tlsMaximum == .tls1_3 ? [] : ["--tls-max", versionWord(s.tlsMaximum)] })

    /// `--no-aia`.
    public static let noAIA = CheckSetting(
        [
            SettingOption(
                "no-aia", arity: .flag,
                help: "Do not fetch missing intermediates from AIA URLs, as OpenSSL and curl do not.")
        ],
        read: { s, a, _ in s.fetchAIA = !a.has("no-aia") },
        write: { s, _ in s.fetchAIA ? [] : ["--no-aia"] })

    /// `--require-revocation`.
    public static let requireRevocation = CheckSetting(
        [
            SettingOption(
                "require-revocation", arity: .flag,
                help:
                    "Fail every certificate of the path without a positive, verified OCSP response or CRL answer, as kSecRevocationRequirePositiveResponse does (errSecIncompleteCertRevocationCheck)."
            )
        ],
        read: { s, a, _ in s.requireRevocation = a.has("require-revocation") },
        write: { s, _ in s.requireRevocation ? ["--require-revocation"] : [] },
        report: ReportedSwitch("revocationRequired") { $0.requireRevocation })

    /// `--store`.
    public static let store = CheckSetting(
        [
            SettingOption(
                "store", valueName: "store", arity: .one,
                help:
                    "The system roots: Apple's root store compiled in (what an Apple device trusts), this machine's OpenSSL store (SSL_CERT_FILE, SSL_CERT_DIR, else /etc/ssl/certs), or a PEM bundle or certificate directory at PATH.",
                defaultText: "apple", suggestedValues: ["apple", "openssl"])
        ],
        read: { s, a, _ in
            s.store = .apple
            guard let value = a.value("store") else { return }
            let choice = TrustStoreChoice(argument: value)
            guard !value.isEmpty, choice.pathExists else {
                throw SettingError(
                    "The value '\(value)' is invalid for '--store <store>': expected apple, openssl, or an existing PEM bundle or certificate directory"
                )
            }
            s.store = choice
        },
        write: { s, c in
            switch s.store {
            case .apple: []
            case .path(let path): ["--store", c.path(path)]
            case .openssl: ["--store", s.store.argument]
            }
        })
}

extension TrustPolicy {
    /// `--policy ssl`: the identifier of an SSL policy with a host, whichever host it is.
    public static let sslWord = TrustPolicy.ssl(host: "").identifier
    /// `--policy ssl-no-host`: SecPolicyCreateSSL(true, nil)'s identifier.
    public static let sslNoHostWord = TrustPolicy.ssl(host: nil).identifier
}
