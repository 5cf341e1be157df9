import TrustCore
import TrustSupport
import TrustX509

/// A small JSON writer with keys in the order written (no Foundation, deterministic output).
struct JSONWriter {
    private(set) var text = ""
    private var indent = 0
    private var first = [true]

    private mutating func newlineIndent() {
        text += "\n" + String(repeating: "  ", count: indent)
    }

    private mutating func separator() {
        if first[first.count - 1] {
            first[first.count - 1] = false
        } else {
            text += ","
        }
        newlineIndent()
    }

    /// Opens an object, as a member `key` of the enclosing object or as an array element (nil).
    mutating func beginObject(_ key: String? = nil) { begin(key, "{") }
    /// Opens an array.
    mutating func beginArray(_ key: String? = nil) { begin(key, "[") }

    private mutating func begin(_ key: String?, _ bracket: String) {
        if indent > 0 || !text.isEmpty { separator() }
        if let key { text += JSONWriter.quote(key) + ": " }
        text += bracket
        indent += 1
        first.append(true)
    }

    /// Closes an object.
    mutating func endObject() { end("}") }
    /// Closes an array.
    mutating func endArray() { end("]") }

    private mutating func end(_ bracket: String) {
        indent -= 1
        let empty = first.removeLast()
        if !empty { newlineIndent() }
        text += bracket
    }

    /// A member (or element when `key` is nil) whose value is already JSON.
    mutating func raw(_ key: String?, _ json: String) {
        separator()
        if let key { text += JSONWriter.quote(key) + ": " }
        text += json
    }

    mutating func string(_ key: String?, _ value: String?) { raw(key, value.map(JSONWriter.quote) ?? "null") }
    mutating func int(_ key: String?, _ value: Int?) { raw(key, value.map { "\($0)" } ?? "null") }
    mutating func bool(_ key: String?, _ value: Bool) { raw(key, value ? "true" : "false") }

    /// A JSON string literal; control characters, quotes and backslashes escaped.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension Lab {
    /// The lab as one JSON object: `anchors` (name -> path), `scenarios` (name, url, port, host,
    /// anchor, expect {trusted, osstatus, urlError}, lesson, then chain, rule, networkOnly,
    /// appleHello (the ios26-hello lessons only), variations, connectTo and the ATS cases; `badssl` after the name when the scenario re-enacts
    /// a badssl.com case), `unavailable` (scenarios this OpenSSL cannot serve: name, group,
    /// expect, lesson, reason), then `clientIdentity`, `pins`, `aia` and
    /// `directory`. Keys in that order. A pool's scenario adds `nodes` and `check` (the whole
    /// `trustx check` argument list), the rotating one `rotation`, after the ATS cases.
    public func json() -> String {
        var w = JSONWriter()
        w.beginObject()
        w.beginObject("anchors")
        for anchor in anchors { w.string(anchor.anchor.rawValue, anchor.path) }
        w.endObject()
        w.beginArray("scenarios")
        for s in scenarios {
            w.beginObject()
            w.string("name", s.name)
            if let badssl = s.scenario.badssl { w.string("badssl", badssl) }
            w.string("url", s.url)
            w.int("port", Int(s.port))
            w.string("host", s.host)
            w.string("anchor", s.anchorPath)
            Lab.writeExpectation(&w, s.expectation)
            w.string("lesson", s.lesson)
            w.string("chain", s.chainPath)
            w.string("rule", s.scenario.rule)
            w.string("networkOnly", s.scenario.networkOnly)
            // Only for the lessons about iOS 26's ClientHello (D435).
            if let answer = s.scenario.appleHello { w.string("appleHello", answer.rawValue) }
            if let device = s.scenario.deviceURLError { w.int("deviceURLError", device) }
            w.beginArray("variations")
            for v in s.scenario.variations {
                w.beginObject()
                w.beginArray("arguments")
                for a in arguments(for: v, of: s) { w.string(nil, a) }
                w.endArray()
                // Only for a rotating scenario's variation that holds under one leaf.
                if let leaf = v.leaf { w.int("leaf", leaf) }
                Lab.writeExpectation(&w, v.expectation)
                w.string("why", v.why)
                w.endObject()
            }
            w.endArray()
            w.string("connectTo", s.connectTo)
            w.beginArray("ats")
            for c in s.atsCases {
                w.beginObject()
                w.string("label", c.atsCase.label)
                w.string("infoPlist", c.plistPath)
                w.string("fragment", c.configuration.infoPlistFragment())
                w.beginArray("arguments")
                for a in arguments(for: c, of: s) { w.string(nil, a) }
                w.endArray()
                Lab.writeExpectation(&w, c.atsCase.expectation)
                w.string("why", c.atsCase.why)
                w.endObject()
            }
            w.endArray()
            writeFleet(&w, s)
            w.endObject()
        }
        w.endArray()
        // What this machine's OpenSSL cannot serve, with the reason, so a handout can say so.
        w.beginArray("unavailable")
        for s in unavailable {
            w.beginObject()
            w.string("name", s.name)
            if let badssl = s.badssl { w.string("badssl", badssl) }
            w.string("group", s.group.id)
            Lab.writeExpectation(&w, s.expectation)
            w.string("lesson", s.lesson)
            w.string("reason", s.unavailable)
            w.endObject()
        }
        w.endArray()
        w.beginObject("clientIdentity")
        w.string("pkcs12", clientIdentity.pkcs12Path)
        w.string("password", clientIdentity.password)
        w.string("certificate", clientIdentity.certificatePath)
        w.string("privateKey", clientIdentity.privateKeyPath)
        w.string("ca", clientIdentity.caPath)
        w.endObject()
        w.beginObject("pins")
        for pin in LabPin.allCases { w.string(pin.rawValue, pins[pin]) }
        w.endObject()
        w.string("aia", aiaURL)
        w.string("directory", directory)
        w.endObject()
        return w.text + "\n"
    }

    static func writeExpectation(_ w: inout JSONWriter, _ e: LabExpectation) {
        w.beginObject("expect")
        w.bool("trusted", e.trusted)
        w.int("osstatus", e.osstatus.map(Int.init))
        w.int("urlError", e.urlError)
        w.endObject()
    }

    /// A plain-text table for the terminal: the anchors and client identity, then one row per
    /// scenario (name, URL, expected outcome, lesson).
    public func table() -> String {
        var out = "Anchors (pass with --anchor):\n"
        let anchorWidth = anchors.map(\.anchor.rawValue.count).max() ?? 0
        for a in anchors { out += "  \(Lab.pad(a.anchor.rawValue, anchorWidth))  \(a.path)\n" }
        out += "Client identity (mtls-required): \(clientIdentity.pkcs12Path) (password \(clientIdentity.password))\n"
        if let aiaURL { out += "AIA download (missing-intermediate-aia): \(aiaURL)\n" }
        out += "Files: \(directory)\(keepsFiles ? " (kept)" : " (removed when the lab stops)")\n"
        // A trainer should know why rsa8192's first check may wait (D310).
        let making = scenarios.map(\.name).filter { keyState(of: $0) == .generating }
        if !making.isEmpty {
            out +=
                "Making RSA keys in the background: \(making.joined(separator: ", ")) (a client waits until its key is made)\n"
        }
        out += "\n"
        let rows = scenarios.flatMap { s -> [[String]] in
            let anchor = s.scenario.anchor == .libraryTestCA ? "" : " --anchor \(s.scenario.anchor.rawValue)"
            let redirect = s.connectTo.map { " --connect-to \($0)" } ?? ""
            return [[s.name, s.url + redirect + anchor, Lab.expectationText(s.expectation), s.lesson]]
                + Lab.fleetRows(s)
        }
        let header = ["SCENARIO", "URL", "EXPECTED", "LESSON"]
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in i == cells.count - 1 ? c : Lab.pad(c, widths[i]) }.joined(separator: "  ")
        }
        out += line(header) + "\n"
        for row in rows { out += line(row) + "\n" }
        if !unavailable.isEmpty {
            out += "\nNot served on this machine:\n"
            let width = unavailable.map(\.name.count).max() ?? 0
            for s in unavailable { out += "  \(Lab.pad(s.name, width))  \(s.unavailable ?? "")\n" }
        }
        return out
    }

    /// `trusted`, `-67602 → URLError -999`, `handshake → URLError -1200`.
    static func expectationText(_ e: LabExpectation) -> String {
        if e.trusted { return "trusted" }
        let status = e.osstatus.map { $0 == 0 ? "0" : "\($0) \(OSStatusNames.name($0))" } ?? "no evaluation"
        return "\(status), URLError \(e.urlError.map { "\($0)" } ?? "none")"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
