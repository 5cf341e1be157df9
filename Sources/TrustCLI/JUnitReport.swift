import TrustCore
import TrustOptions
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `check --format junit`: one `<testsuite>` for the run, one `<testcase>` per target and address,
/// for CI systems that read JUnit XML (D410). A chain that is not trusted is a `<failure>` naming
/// the decisive step and the OSStatus and URLError; a target that could not be reached is an
/// `<error>` with why. The attributes the Ant JUnit schema requires are all present. Everything
/// from a server or the command line is escaped, and characters XML 1.0 forbids are written as
/// `\u{…}` text, so no certificate can end the document early or make it unreadable.
enum JUnitReport {
    /// One check of the run.
    struct Case {
        /// The target as the user named it (its label in a `--targets` file).
        var label: String
        /// The address connected to, or nil for `--chain` files and a connection that reached none.
        var address: String?
        var outcome: FleetCheck.Outcome
    }

    /// The longest text taken from one step's detail or one failure's message, in characters:
    /// a certificate's name can be long, a CI page need not show all of it.
    static let maximumText = 2000

    /// The document for `cases`, run at `started` under `settings` (for a target like `context`'s)
    /// and taking `seconds`.
    static func render(
        _ cases: [Case], settings: CheckSettings, context: SettingContext, started: Timestamp, seconds: Double,
        hostname: String = machineName()
    ) -> String {
        let failures = cases.filter { $0.outcome.status == .notTrusted }.count
        let errors = cases.filter { $0.outcome.status != .notTrusted && $0.outcome.status != .success }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // The schema's timestamp has no zone: the time is UTC, as the property says.
        let stamp = String(started.rfc3339.prefix(19))
        xml +=
            "<testsuite name=\"trustx check\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\""
            + " timestamp=\"\(stamp)\" hostname=\"\(attribute(hostname))\" time=\"\(decimal(seconds))\">\n"
        xml += "  <properties>\n"
        for (name, value) in properties(settings, context: context, started: started) {
            xml += "    <property name=\"\(attribute(name))\" value=\"\(attribute(value))\"/>\n"
        }
        xml += "  </properties>\n"
        for c in cases { xml += testCase(c) }
        xml += "  <system-out></system-out>\n  <system-err></system-err>\n</testsuite>\n"
        return xml
    }

    /// The run's settings, for whoever reads why a check failed in CI: one property per setting,
    /// named after its first option and valued with the options that give it as the copied command
    /// writes them (`default` for the default), so a setting added to `CheckSettings` appears here
    /// without being named (D380), then the evaluation time.
    static func properties(_ s: CheckSettings, context: SettingContext, started: Timestamp) -> [(String, String)] {
        var out: [(String, String)] = CheckSetting.all.map { setting in
            let arguments = setting.arguments(s, context)
            return ("trustx.\(setting.option.name)", arguments.isEmpty ? "default" : arguments.joined(separator: " "))
        }
        out.append(("trustx.evaluationTime", (s.time ?? started).rfc3339))
        return out
    }

    static func testCase(_ c: Case) -> String {
        let name = c.address ?? c.label
        var xml =
            "  <testcase classname=\"\(attribute(c.label))\" name=\"\(attribute(name))\" time=\"\(decimal(c.outcome.seconds))\""
        switch c.outcome.result {
        case .success(let e) where e.verdict.trusted:
            return xml + "/>\n"
        case .success(let e):
            let (message, text) = failure(e)
            xml += ">\n    <failure type=\"\(attribute(e.verdict.osstatusName))\" message=\"\(attribute(message))\">"
            xml += element(text) + "</failure>\n"
        case .failure(let f):
            let (type, message) = error(f)
            xml += ">\n    <error type=\"\(attribute(type))\" message=\"\(attribute(message))\">"
            xml += element(message) + "</error>\n"
        }
        return xml + "  </testcase>\n"
    }

    /// The failure's one-line message (the decisive step and both codes) and its text (the
    /// verdict's summary and the step's title and detail).
    static func failure(_ e: Evaluation) -> (message: String, text: String) {
        let v = e.verdict
        let step = v.decisiveStep.map { "step \($0.id.rawValue) failed" } ?? "not trusted"
        let url = v.urlError.map { "; URLError \(URLErrorNames.name($0)) (\($0))" } ?? ""
        let message = "\(step): OSStatus \(v.osstatusName) (\(v.osstatus))\(url)"
        var text = message + "\n" + v.summary
        if let s = v.decisiveStep { text += "\n" + s.title + (s.detail.isEmpty ? "" : "\n" + s.detail) }
        return (message, text)
    }

    /// The error's type (the URLError's name when there is one) and message.
    static func error(_ f: Trustx.Failure) -> (type: String, message: String) {
        switch f.detail {
        case .connection(let c, _):
            let type = c.failure?.urlError.map(URLErrorNames.name) ?? "connection-failed"
            return (type, CheckCommand.connectionFailureLine(c))
        case .evaluation(let e):
            let type = e.verdict.urlError.map(URLErrorNames.name) ?? "connection-failed"
            let url = e.verdict.urlError.map { "; URLError \(URLErrorNames.name($0)) (\($0))" } ?? ""
            return (type, f.message + "; OSStatus \(e.verdict.osstatusName) (\(e.verdict.osstatus))" + url)
        case .message, .usage:
            return ("error", f.message)
        }
    }

    /// This machine's name, the suite's `hostname` (the schema requires one); `localhost` when
    /// the system gives none.
    static func machineName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return name.isEmpty ? "localhost" : name
    }

    /// The address a check went to, as the watch names it: the one it was told to connect to,
    /// else the one it reached; nil for files and for a connection that reached none.
    static func address(_ request: CheckCommand.Request, _ outcome: FleetCheck.Outcome) -> String? {
        request.connection?.target.connectTo?.description ?? outcome.connection?.peerAddress
    }

    /// The seconds since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let (s, atto) = start.duration(to: .now).components
        return Double(s) + Double(atto) / 1e18
    }

    static func decimal(_ seconds: Double) -> String {
        let millis = Int((max(0, seconds) * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `text` as an attribute value: markup and whitespace escaped, forbidden characters made text.
    static func attribute(_ text: String) -> String { escape(text, attribute: true) }

    /// `text` as element content.
    static func element(_ text: String) -> String { escape(text, attribute: false) }

    /// Whether `scalar` is a format character (a bidi override or isolate, a zero-width one) or a
    /// line or paragraph separator: legal XML that makes a CI page show other text than is there.
    static func reorders(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// Escapes `text`, cut to `maximumText` characters. XML 1.0 allows tab, line feed and carriage
    /// return below U+0020 and nothing else, and not U+FFFE or U+FFFF; the C1 controls it allows
    /// are escaped too, as a terminal showing the CI log would act on them, and so are the format
    /// characters that reorder or hide text.
    static func escape(_ text: String, attribute: Bool) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if count > maximumText {
                out += "…"
                break
            }
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r":
                out += attribute ? "&#\(scalar.value);" : String(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFFFE || v == 0xFFFF || reorders(scalar) {
                    out += "\\u{" + String(v, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
