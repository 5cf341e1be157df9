import ATSModel
import CommandLineSpec
import TLSProbe
import TrustCore
import TrustReport
import TrustSupport
import TrustX509

/// `trustx ats`: the `nscurl --ats-diagnostics` equivalent. Tries each ATS configuration nscurl
/// tries against one server, prints PASS or FAIL for each, and the smallest set of exceptions
/// the server needs with its Info.plist fragment.
enum ATSCommand {
    static let name = "ats"

    static let spec = CommandSpec(
        commandPath: "trustx ats",
        abstract: "Try a server under App Transport Security and its exceptions, as nscurl --ats-diagnostics does.",
        discussion:
            "Each combination gets a fresh handshake with what an app under it offers, and the chain is evaluated with that configuration. Exit status: 0 the default ATS policy passes, 1 it does not, 64 usage error, 69 the server cannot be reached.",
        arguments: [
            ArgumentSpec(
                valueName: "target",
                help: "The server: host, host:port or https://host:port/path (port 443 by default).")
        ],
        options: [
            OptionSpec(
                name: "connect-to", valueName: "address", arity: .one,
                help:
                    "Connect to this host[:port] instead, keeping the target's name for SNI, the host check and the exception domain."
            ),
            OptionSpec(
                name: "sni", valueName: "name", arity: .one,
                help: "Send this server name instead of the target's.", defaultText: "the target's host name"),
            OptionSpec(
                name: "timeout", valueName: "seconds", arity: .one,
                help: "The deadline for every combination together: handshakes, AIA fetches and evaluations.",
                defaultText: "20"),
            OptionSpec(
                name: "anchor", valueName: "file", arity: .repeated,
                help:
                    "Trust the certificates in this file as anchors, and no system roots, like SecTrustSetAnchorCertificates."
            ),
            OptionSpec(
                name: "password", valueName: "password", arity: .one,
                help: "The password of PKCS#12 anchor files."),
            OptionSpec(
                name: "platform", valueName: "platform", arity: .one,
                help:
                    "Whose ATS rules apply: iOS 16 and earlier, iOS 17 and later, or an app built with a 26 SDK, which refuses TLS below 1.2 even with NSAllowsArbitraryLoads.",
                allowedValues: ATSPlatform.allCases.map(\.rawValue), defaultText: ATSPlatform.current.rawValue),
            ReportFormat.option(ReportFormat.textOrJSON, help: "The report format."),
            storeOption,
        ]
    )

    static func run(_ args: [String], now: Timestamp, environment: Environment) -> ExitStatus {
        let p: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let parsed): p = parsed
        case .failure(let exit): return exit.status
        }
        guard let targetText = p.positionals.first else {
            return Trustx.usageError(UsageError(message: "Give a server to diagnose"), spec)
        }
        var connection: CheckCommand.Connection
        do {
            connection = try CheckCommand.validateConnection(targetText, p)
        } catch {
            return Trustx.usageError(error, spec)
        }
        if connection.options.startTLS != nil {
            return Trustx.usageError(UsageError(message: "ATS applies to https:// URLs only"), spec)
        }
        // Sixteen handshakes share the deadline: more than check's default.
        if !p.has("timeout") { connection.options.timeout = .seconds(20) }
        let store: TrustStoreChoice
        do {
            store = try storeChoice(p)
        } catch {
            return Trustx.usageError(error, spec)
        }
        var anchors: [Certificate] = []
        for path in p.all("anchor") {
            switch Trustx.load(path, password: p.value("password"), command: spec) {
            case .success(let certs): anchors += certs
            case .failure(let f): return f.report()
            }
        }
        var settings = TrustSettings(
            anchors: anchors, systemStore: makeSystemStore(store), policy: .ssl(host: connection.target.host), time: now
        )
        settings.timeMode = .now
        let platform = p.value("platform").flatMap(ATSPlatform.init(rawValue:)) ?? .current
        let diagnosis = ATSDiagnostics.run(
            connection.target, options: connection.options, settings: settings, platform: platform)
        if ReportFormat(p) == .json {
            Output.out(JSONWriter.serialize(json(diagnosis)))
        } else {
            Output.out(text(diagnosis, unicode: environment.localeIsUTF8))
        }
        if diagnosis.unreachable != nil { return .unavailable }
        return diagnosis.defaultPasses ? .success : .notTrusted
    }

    // MARK: - Text

    static func clean(_ s: String, _ unicode: Bool) -> String { TerminalSanitizer.sanitize(s, asciiOnly: !unicode) }

    static func target(_ d: ATSDiagnosis) -> String {
        let host = d.host.contains(":") ? "[\(d.host)]" : d.host
        return "https://\(host):\(d.port)/" + (d.connectTo.map { " (connecting to \($0))" } ?? "")
    }

    static func platformName(_ p: ATSPlatform) -> String {
        p.is26 ? p.displayName : p == .ios17 ? "iOS 17 and later" : "iOS 16 and earlier"
    }

    /// One line per combination under nscurl's headings, then the summary and the Info.plist
    /// fragment for the smallest set of exceptions.
    static func text(_ d: ATSDiagnosis, unicode: Bool) -> String {
        var out = "ATS diagnostics for \(clean(target(d), unicode)), \(platformName(d.platform)) rules\n"
        if let exemption = d.exemption {
            out +=
                "\nNote: ATS does not apply to \(clean(d.host, unicode)) (\(clean(exemption, unicode))): an app would load it without these rules. The results show what each configuration's handshake meets at this server, as for a host ATS covers.\n"
        }
        if d.platform.is26 {
            out +=
                "\nNote: an app built with a 26 SDK refuses TLS below 1.2 unless it sets a lower minimum itself, so allowing arbitrary loads offers TLS 1.2 and 1.3 (protocol/SecProtocol.c). The TLS 1.0 and 1.1 exception rows assume NSExceptionMinimumTLSVersion still lowers it, as Apple's published source does; that the 26 SDKs keep it is not confirmed (docs/ats.md).\n"
        }
        if let failure = d.unreachable {
            let code = failure.urlError.map { ", URLError \($0)" } ?? ""
            out += "\nCannot diagnose: \(clean(failure.message, unicode))\(code).\n"
            return out
        }
        var group: ATSCombination.Group?
        for r in d.results {
            if r.combination.group != group {
                group = r.combination.group
                out += "\n\(r.combination.group.title)\n"
            }
            let mark = r.outcome.rawValue.padding(4)
            out += "  \(mark)  \(r.combination.name)\n"
            out += "        \(clean(detail(r), unicode))\n"
        }
        out += "\n"
        if let why = d.explanation { out += "Why the default policy fails: \(clean(why, unicode)).\n" }
        if d.defaultPasses {
            out += "The default ATS policy passes: the server needs no exception.\n"
        } else if let best = d.smallest {
            out += "Smallest set of exceptions the server needs: \(best.combination.name)\n"
            if best.combination.allowsArbitraryLoads {
                out +=
                    "Only turning ATS off passes: no exception domain key is enough (NSAllowsArbitraryLoads also turns ATS off for every other host; fix the server instead).\n"
            }
            // Only the host in it comes from outside; tabs become spaces for the terminal.
            if let plist = best.combination.infoPlistFragment(host: clean(d.host, unicode)) {
                out +=
                    "\nInfo.plist:\n"
                    + plist.split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "    ")
            }
        } else {
            out += "No combination passes: what fails is not an ATS exception away (see the steps above).\n"
        }
        return out
    }

    /// `URLError -1200, handshake: ...` or `TLS 1.3, TLS_AES_128_GCM_SHA256`.
    static func detail(_ r: ATSCombinationResult) -> String {
        switch r.outcome {
        case .pass:
            guard let n = r.negotiated else { return "trusted" }
            return "\(n.version), \(n.cipherName)"
        case .notTried: return r.reason
        case .fail:
            let code = r.urlError.map { "URLError \($0)" } ?? "not trusted"
            return "\(code)\(r.step.map { ", \($0)" } ?? ""): \(r.reason)"
        }
    }

    // MARK: - JSON

    static func json(_ d: ATSDiagnosis) -> JSONValue {
        func keys(_ c: ATSCombination) -> JSONValue { .object(c.keys.map { ($0.key, .string($0.value)) }) }
        let combinations: [JSONValue] = d.results.map { r in
            .object([
                ("group", .string(r.combination.group.rawValue)),
                ("name", .string(r.combination.name)),
                ("keys", keys(r.combination)),
                ("result", .string(r.outcome.rawValue)),
                ("urlError", .int(r.urlError)),
                ("step", .string(r.step)),
                ("reason", .string(r.reason)),
                (
                    "negotiated",
                    r.negotiated.map {
                        .object([
                            ("protocol", .string($0.version.description)), ("cipher", .string($0.cipherName)),
                            ("group", .string($0.group)),
                        ])
                    } ?? .null
                ),
            ])
        }
        let smallest: JSONValue =
            d.smallest.map { best in
                .object([
                    ("name", .string(best.combination.name)),
                    ("keys", keys(best.combination)),
                    ("infoPlist", .string(best.combination.infoPlistFragment(host: d.host))),
                ])
            } ?? .null
        return .object([
            ("host", .string(d.host)),
            ("port", .int(d.port)),
            ("connectTo", .string(d.connectTo)),
            ("platform", .string(d.platform.rawValue)),
            ("exemption", .string(d.exemption)),
            (
                "unreachable",
                d.unreachable.map {
                    .object([
                        ("kind", .string($0.kind.rawValue)), ("message", .string($0.message)),
                        ("urlError", .int($0.urlError)),
                    ])
                } ?? .null
            ),
            ("combinations", .array(combinations)),
            ("explanation", .string(d.explanation)),
            ("defaultPasses", .bool(d.defaultPasses)),
            ("smallest", smallest),
        ])
    }
}

extension String {
    /// Padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
