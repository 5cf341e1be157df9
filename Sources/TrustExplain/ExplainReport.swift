import AppleTrustData
import TrustLab
import TrustReport
import TrustSupport

/// The explanation of one mention: a known code (one per header family that defines the value)
/// or an unknown one.
struct ExplainEntry {
    /// The mention as written (a number, `[3:-9813]` or a name); from the paste, so escaped on output.
    var input: String
    /// The header's record; nil for a code or name no header defines.
    var record: AppleErrorCode?
    /// The value, when the mention gives or names one.
    var code: Int?
    /// The causes, most common first.
    var causes: [ExplainCause] = []
    /// Lab scenarios that end with this code.
    var scenarios: [ExplainScenario] = []
}

/// A lab scenario that shows a code.
struct ExplainScenario {
    /// The scenario's name (`trustx lab --scenario NAME`).
    var name: String
    /// Its lesson.
    var lesson: String
    /// When only a variation or ATS case of it ends with the code: what that one changes.
    var when: String?
}

/// What `trustx explain` prints, built once from the scan.
package struct ExplainReport {
    /// The most lab scenarios named per code.
    static let maximumScenarios = 3

    var entries: [ExplainEntry] = []
    var input: ExplainInput

    /// Whether every mention was a known code, and there was at least one: exit status 0.
    package var allKnown: Bool { !entries.isEmpty && entries.allSatisfy { $0.record != nil } }

    package init(_ input: ExplainInput) {
        self.input = input
        for mention in input.mentions {
            entries += Self.explain(mention)
        }
    }

    static func explain(_ mention: ExplainInput.Mention) -> [ExplainEntry] {
        let records: [AppleErrorCode]
        let text: String
        var code: Int?
        switch mention {
        case .number(let n):
            text = String(n)
            code = n
            records = AppleErrorCatalogue.records(code: n)
        case .streamError(let n):
            text = "[3:\(n)]"
            code = n
            records = AppleErrorCatalogue.records(code: n).filter { $0.domain != .urlLoading }
        case .name(let name):
            text = name
            records = AppleErrorCatalogue.record(named: name).map { [$0] } ?? []
        case .check(let key, let n):
            text = key
            code = n
            records = AppleErrorCatalogue.records(code: n).filter { $0.domain == .security }
        }
        if records.isEmpty { return [ExplainEntry(input: text, record: nil, code: code)] }
        return records.map { record in
            ExplainEntry(
                input: text, record: record, code: record.code, causes: causes(record),
                scenarios: scenarios(record))
        }
    }

    static func causes(_ record: AppleErrorCode) -> [ExplainCause] {
        switch record.domain {
        case .security: ExplainCauses.osstatus[record.code] ?? ExplainCauses.reportedAsAnother[record.code] ?? []
        case .secureTransport: ExplainCauses.streamCauses(record.code)
        case .urlLoading: ExplainCauses.urlCauses(record.code)
        }
    }

    /// The lab's scenarios whose expectation (then whose variations and ATS cases) end with the
    /// code, in catalogue order.
    static func scenarios(_ record: AppleErrorCode) -> [ExplainScenario] {
        let matches: (LabExpectation) -> Bool
        switch record.domain {
        case .urlLoading:
            matches = { $0.urlError == record.code }
        case .security, .secureTransport:
            let related = Set([record.code] + (ExplainCauses.streamRelated[record.code] ?? []))
            matches = { e in
                if record.code == -9802 { return e.urlError == -1200 }
                return e.osstatus.map { related.contains(Int($0)) } ?? false
            }
        }
        let available = LabScenario.all.filter { $0.unavailable == nil }
        let first = available.filter { matches($0.expectation) }.map {
            ExplainScenario(name: $0.name, lesson: $0.lesson, when: nil)
        }
        // A variation's or ATS case's code shows only with its settings: say which.
        let then: [ExplainScenario] = available.filter { !matches($0.expectation) }.compactMap { s in
            let when =
                s.variations.first { matches($0.expectation) }?.why
                ?? s.atsCases.first { matches($0.expectation) }.map { "\($0.label): \($0.why)" }
                ?? s.deviceURLError.flatMap { device in
                    record.domain == .urlLoading && device == record.code
                        ? "\(Self.onDevice) \(s.networkOnly ?? s.lesson)" : nil
                }
            return when.map { ExplainScenario(name: s.name, lesson: s.lesson, when: $0) }
        }
        return Array((first + then).prefix(maximumScenarios))
    }

    /// How a lesson's `when` starts when the code is a device's, not a variation's.
    static let onDevice = "on an iPhone or Mac with the 26 releases:"

    /// The commands to run next for an entry.
    func next(_ entry: ExplainEntry) -> [String] {
        guard let record = entry.record else { return [] }
        var out: [String] = []
        if let host = input.host {
            let ats =
                (-9886 ... -9880).contains(record.code) || [-1022, -1200, -9802].contains(record.code)
                || input.cleartext
            out.append("trustx check \(host)\(ats ? " --ats" : "")")
        }
        if let scenario = entry.scenarios.first { out.append("trustx lab --scenario \(scenario.name)") }
        return out
    }

    static func family(_ domain: AppleErrorCode.Domain) -> String {
        switch domain {
        case .security: "OSStatus, Security"
        case .secureTransport: "SecureTransport"
        case .urlLoading: "URLError, NSURLErrorDomain"
        }
    }

    static func unknownLine(_ entry: ExplainEntry) -> String {
        entry.code == nil
            ? "\(entry.input): not a name Apple's Security, SecureTransport or URL loading headers define"
            : "\(entry.input): not a code Apple's Security, SecureTransport or URL loading headers define"
    }

    static func causeLine(_ cause: ExplainCause) -> String {
        var where_ = cause.step
        if let check = cause.check { where_ += ", \(check)" }
        if let status = cause.osstatus {
            where_ += " (\(status) \(AppleErrorCatalogue.name(code: status) ?? ""))"
        }
        return "\(where_): \(cause.text)"
    }

    /// The text report; everything taken from the input goes through the terminal sanitiser.
    package func text(asciiOnly: Bool) -> String {
        func safe(_ s: String) -> String { TerminalSanitizer.sanitize(InputExcerpt.quote(s), asciiOnly: asciiOnly) }
        var out = ""
        if let host = input.host { out += "Host in the text: \(safe(host))\n" }
        for note in input.notes { out += "Seen: \(safe(note))\n" }
        if !out.isEmpty { out += "\n" }
        if entries.isEmpty { out += "No error code found in the text.\n" }
        for entry in entries {
            guard let record = entry.record else {
                out += safe(Self.unknownLine(entry)) + "\n\n"
                continue
            }
            let shown = entry.input == String(record.code) ? "" : "\(safe(entry.input)) -> "
            let alias = record.aliasOf.map { ", a deprecated name of \($0)" } ?? ""
            out += "\(shown)\(record.code) \(record.name) (\(Self.family(record.domain))\(alias))\n"
            let meaning = AppleErrorCatalogue.meaning(record)
            out += "  \(meaning.isEmpty ? "(the header gives no description)" : meaning)\n"
            if entry.causes.isEmpty {
                out += "  No trustx step reports this code.\n"
            } else {
                out += "  Causes, most common first:\n"
                for (index, cause) in entry.causes.enumerated() {
                    out += "    \(index + 1). \(Self.causeLine(cause))\n"
                }
            }
            for scenario in entry.scenarios {
                out += "  In the lab: \(scenario.name): \(scenario.lesson)\n"
                if let when = scenario.when {
                    out += when.hasPrefix(Self.onDevice) ? "    (\(when))\n" : "    (with its variation: \(when))\n"
                }
            }
            for command in next(entry) { out += "  Next: \(safe(command))\n" }
            out += "\n"
        }
        if input.leftOut > 0 {
            out +=
                "\(input.leftOut) more codes were left out: explain reports the first \(ExplainScanner.maximumCodes).\n"
        }
        return out
    }

    /// The JSON report (docs/cli.md, explain).
    package func json() -> String {
        let codes: [JSONValue] = entries.map { entry in
            guard let record = entry.record else {
                return .object([
                    ("input", .string(entry.input)), ("known", .bool(false)), ("code", .int(entry.code)),
                    ("message", .string(Self.unknownLine(entry))),
                ])
            }
            return .object([
                ("input", .string(entry.input)), ("known", .bool(true)), ("code", .int(record.code)),
                ("domain", .string(record.domain.rawValue)), ("name", .string(record.name)),
                ("aliasOf", .string(record.aliasOf)),
                ("meaning", .string(AppleErrorCatalogue.meaning(record))),
                (
                    "causes",
                    .array(
                        entry.causes.enumerated().map { index, cause in
                            .object([
                                ("rank", .int(index + 1)), ("step", .string(cause.step)),
                                ("check", .string(cause.check)),
                                ("osstatus", .int(cause.osstatus)), ("text", .string(cause.text)),
                            ])
                        })
                ),
                (
                    "scenarios",
                    .array(
                        entry.scenarios.map {
                            .object([
                                ("name", .string($0.name)), ("lesson", .string($0.lesson)),
                                ("variation", .string($0.when)),
                                ("command", .string("trustx lab --scenario \($0.name)")),
                            ])
                        })
                ),
                ("next", .array(next(entry).map { .string($0) })),
            ])
        }
        return JSONWriter.serialize(
            .object([
                ("host", .string(input.host)), ("notes", .array(input.notes.map { .string($0) })),
                ("codes", .array(codes)), ("leftOut", .int(input.leftOut)),
            ]))
    }
}

/// Lookups in the generated table, built on first use.
enum AppleErrorCatalogue {
    /// Records by value: the first non-alias record of each family.
    static let byCode: [Int: [AppleErrorCode]] = {
        var out: [Int: [AppleErrorCode]] = [:]
        for record in AppleErrorCodes.osstatus + AppleErrorCodes.urlErrors where record.aliasOf == nil {
            if !(out[record.code] ?? []).contains(where: { $0.domain == record.domain }) {
                out[record.code, default: []].append(record)
            }
        }
        return out
    }()

    static let byName: [String: AppleErrorCode] = Dictionary(
        (AppleErrorCodes.osstatus + AppleErrorCodes.urlErrors).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    static func records(code: Int) -> [AppleErrorCode] { byCode[code] ?? [] }

    /// The record a name means: `kCFURLError...` as its `NSURLError...`, an alias as itself.
    static func record(named name: String) -> AppleErrorCode? {
        if name.hasPrefix("kCFURLError") { return byName["NSURLError" + name.dropFirst("kCFURLError".count)] }
        return byName[name]
    }

    static func name(code: Int) -> String? { byCode[code]?.first?.name }

    /// The meaning, an alias's being its target's.
    static func meaning(_ record: AppleErrorCode) -> String {
        if record.meaning.isEmpty, let target = record.aliasOf { return byName[target]?.meaning ?? "" }
        return record.meaning
    }
}
