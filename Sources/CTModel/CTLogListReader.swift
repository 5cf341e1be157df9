import ATSModel
import TrustSupport
import TrustX509

/// Why a log list could not be read.
public struct CTLogListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    public let description: String
    package init(_ description: String) { self.description = description }
}

/// Reads a Certificate Transparency log list given with `--ct-logs`: Apple's JSON log list
/// (certificate_transparency/log_list.json, schema v5: `operators`, each with `logs` and
/// `tiled_logs`), or the property-list array SecTrustSetTrustedLogs takes (dictionaries with
/// `key`, the DER SubjectPublicKeyInfo, and `operator`; optionally `log_id`, and the dates
/// trustd reads: `frozen`, `expiry`, `start_inclusive`, `end_exclusive`). Entries trustd ignores
/// (not a dictionary, no key) are left out; what no list can mean is an error.
public enum CTLogListReader {
    /// The largest list file accepted, and the most logs: far above Apple's (about 115 KB, 132 logs).
    public static let maximumBytes = 4 << 20
    public static let maximumLogs = 10_000

    /// Reads a list from `bytes`, naming it `source` in reports.
    public static func read(_ bytes: [UInt8], source: String) throws(CTLogListError) -> CTLogList {
        guard bytes.count <= maximumBytes else {
            throw CTLogListError("the log list is \(bytes.count) bytes; at most \(maximumBytes) are read")
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let logs = first == UInt8(ascii: "{") ? try readJSON(bytes) : try readPropertyList(bytes)
        return CTLogList(source: source, logs: logs)
    }

    package static func readPropertyList(_ bytes: [UInt8]) throws(CTLogListError) -> [CTLog] {
        let value: PropertyListValue
        do {
            value = try PropertyList.parse(bytes)
        } catch {
            throw CTLogListError("neither a JSON log list nor a property list: \(error.description)")
        }
        guard case .array(let entries) = value else {
            throw CTLogListError("the property list is not an array of logs (SecTrustSetTrustedLogs takes an array)")
        }
        var logs: [CTLog] = []
        for entry in entries.prefix(maximumLogs) {
            guard case .dictionary = entry, case .data(let key)? = entry["key"] else { continue }
            var id: [UInt8]?
            if case .data(let d)? = entry["log_id"] { id = d }
            var name = "unnamed operator"
            if case .string(let s)? = entry["operator"] { name = s }
            func date(_ k: String) -> Timestamp? {
                if case .date(let d)? = entry[k] { return Timestamp(secondsSinceEpoch: Int64(d.rounded(.down))) }
                return nil
            }
            logs.append(
                CTLog(
                    key: key, operatorName: name, logID: id, state: .listed, readOnlyFrom: date("frozen"),
                    retiredFrom: date("expiry"), intervalStart: date("start_inclusive"),
                    intervalEnd: date("end_exclusive")))
        }
        return logs
    }

    package static func readJSON(_ bytes: [UInt8]) throws(CTLogListError) -> [CTLog] {
        var parser = JSONParser(bytes)
        let root = try parser.document()
        guard case .object(let top) = root else { throw CTLogListError("the JSON log list is not an object") }
        guard case .array(let operators)? = top["operators"] else {
            throw CTLogListError("the JSON log list has no \"operators\" array (Apple's log_list.json schema v5)")
        }
        var logs: [CTLog] = []
        for (i, op) in operators.enumerated() {
            guard case .object(let o) = op, case .string(let name)? = o["name"] else {
                throw CTLogListError("operator \(i) is not an object with a \"name\"")
            }
            var entries: [LogListJSON] = []
            // The `logs` first, then the `tiled_logs` (static-ct-api), which start at this index.
            var firstTiled = 0
            for k in ["logs", "tiled_logs"] {
                if case .array(let a)? = o[k] { entries += a }
                if k == "logs" { firstTiled = entries.count }
            }
            for (j, entry) in entries.enumerated() {
                guard logs.count < maximumLogs else { return logs }
                let where_ = "operator \(InputExcerpt.quote(name)), log \(j)"
                guard case .object(let l) = entry else { throw CTLogListError("\(where_) is not an object") }
                // A log without a key cannot verify anything: trustd leaves it out.
                guard case .string(let keyText)? = l["key"] else { continue }
                guard let key = Base64.decode(keyText) else { throw CTLogListError("\(where_): \"key\" is not base64") }
                var id: [UInt8]?
                if case .string(let t)? = l["log_id"] {
                    guard let d = Base64.decode(t), d.count == 32 else {
                        throw CTLogListError("\(where_): \"log_id\" is not the base64 of 32 bytes")
                    }
                    id = d
                }
                var description: String?
                if case .string(let d)? = l["description"] { description = d }
                guard case .object(let states)? = l["state"], states.count == 1,
                    let (stateName, stateValue) = states.first,
                    let state = CTLog.State(rawValue: stateName), state != .listed
                else {
                    throw CTLogListError(
                        "\(where_): \"state\" must hold one of pending, qualified, usable, readonly, retired, rejected")
                }
                guard case .object(let s) = stateValue, case .string(let t)? = s["timestamp"],
                    let since = Timestamp(rfc3339: t)
                else { throw CTLogListError("\(where_): the state has no RFC 3339 \"timestamp\"") }
                var start: Timestamp?
                var end: Timestamp?
                if case .object(let interval)? = l["temporal_interval"] {
                    guard case .string(let a)? = interval["start_inclusive"], let s = Timestamp(rfc3339: a),
                        case .string(let b)? = interval["end_exclusive"], let e = Timestamp(rfc3339: b)
                    else { throw CTLogListError("\(where_): the temporal interval needs RFC 3339 start and end") }
                    (start, end) = (s, e)
                }
                var tlsOnly = false
                if case .bool(let b)? = l["tls_only"] { tlsOnly = b }
                logs.append(
                    CTLog(
                        key: key, operatorName: name, description: description, logID: id, state: state,
                        stateSince: since, intervalStart: start, intervalEnd: end, tlsOnly: tlsOnly,
                        tiled: j >= firstTiled))
            }
        }
        return logs
    }
}

/// A JSON value, as the log-list reader needs it (objects keep their last value per key).
package enum LogListJSON: Hashable {
    case object([String: LogListJSON]), array([LogListJSON]), string(String), number, bool(Bool), null
}

/// A small strict JSON reader (RFC 8259) with bounds on depth and values, enough for log lists.
package struct JSONParser {
    package let bytes: [UInt8]
    package var i = 0
    package var values = 0
    package static let maximumDepth = 32
    package static let maximumValues = 500_000

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func fail(_ why: String) -> CTLogListError { CTLogListError("JSON at byte \(i): \(why)") }

    package mutating func document() throws(CTLogListError) -> LogListJSON {
        let v = try value(depth: 0)
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected data after the document") }
        return v
    }

    package mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    package mutating func expect(_ word: String) throws(CTLogListError) {
        let w = Array(word.utf8)
        guard bytes.count - i >= w.count, Array(bytes[i..<(i + w.count)]) == w else { throw fail("expected \(word)") }
        i += w.count
    }

    package mutating func value(depth: Int) throws(CTLogListError) -> LogListJSON {
        guard depth < Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth) levels") }
        values += 1
        guard values <= Self.maximumValues else { throw fail("more than \(Self.maximumValues) values") }
        skipSpace()
        guard i < bytes.count else { throw fail("unexpected end") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var out: [String: LogListJSON] = [:]
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(out)
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                try expect(":")
                out[key] = try value(depth: depth + 1)
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end in an object") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                try expect("}")
                return .object(out)
            }
        case UInt8(ascii: "["):
            i += 1
            var out: [LogListJSON] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(out)
            }
            while true {
                out.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end in an array") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                try expect("]")
                return .array(out)
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default:
            let start = i
            while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
            guard i > start else { throw fail("unexpected character") }
            return .number
        }
    }

    /// A string at `i` (its opening quote), escapes decoded.
    package mutating func string() throws(CTLogListError) -> String {
        i += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll()
        }
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            switch b {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard i < bytes.count else { throw fail("unexpected end in a string") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "u"):
                    guard bytes.count - i >= 4,
                        let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
                    else { throw fail("bad \\u escape") }
                    i += 4
                    scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(e))
                default: throw fail("bad escape")
                }
            case 0..<0x20: throw fail("control character in a string")
            default: run.append(b)
            }
        }
        throw fail("unterminated string")
    }
}
