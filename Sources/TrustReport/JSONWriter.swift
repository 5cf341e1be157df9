import TrustSupport

/// A JSON value whose objects keep their keys in the order they were built, so that reports are
/// byte-for-byte deterministic. Built and serialised without Foundation, which the command line
/// keeps out of its startup path.
public indirect enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A decimal with one fractional digit (timings); non-finite values become `null`.
    case tenths(Double)
    /// A string; escaped on output.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object with keys in this order.
    case object([(String, JSONValue)])

    /// A string, or `null` when `value` is nil.
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// An integer, or `null` when `value` is nil.
    public static func int(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }
}

/// Serialises `JSONValue`s: two-space indentation, `"key": value`, a final newline.
///
/// Strings are escaped per RFC 8259 section 7, and beyond it every scalar a terminal would act
/// on (DEL, C1 controls, line separators, bidi and other format characters) is written as a
/// `\uXXXX` escape, so JSON printed to a terminal is as safe as the text report. Other non-ASCII
/// text stays UTF-8.
public enum JSONWriter {
    /// The serialised document, ending in a newline.
    /// - Parameter value: The document.
    /// - Returns: Pretty-printed JSON.
    public static func serialize(_ value: JSONValue) -> String {
        // Built as UTF-8 bytes: appending scalar by scalar to a String costs more than the
        // rest of the report put together.
        var out: [UInt8] = []
        out.reserveCapacity(16_384)
        write(value, indent: 0, into: &out)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a JSON string literal, quotes included.
    /// - Parameter text: Any text.
    /// - Returns: The escaped literal.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendString(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let n): out += String(n).utf8
        case .tenths(let d):
            if d.isFinite {
                let t = Int((d * 10).rounded())
                let sign = t < 0 ? "-" : ""
                out += "\(sign)\(abs(t) / 10).\(abs(t) % 10)".utf8
            } else {
                out += "null".utf8
            }
        case .string(let s): appendString(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]".utf8
                return
            }
            out += "[\n".utf8
            for (i, item) in items.enumerated() {
                pad(indent + 1, &out)
                write(item, indent: indent + 1, into: &out)
                out += (i + 1 < items.count ? ",\n" : "\n").utf8
            }
            pad(indent, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                out += "{}".utf8
                return
            }
            out += "{\n".utf8
            for (i, (key, item)) in members.enumerated() {
                pad(indent + 1, &out)
                appendString(key, into: &out)
                out += ": ".utf8
                write(item, indent: indent + 1, into: &out)
                out += (i + 1 < members.count ? ",\n" : "\n").utf8
            }
            pad(indent, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    static func pad(_ level: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0x20, count: level * 2))
    }

    static func appendString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var utf8 = s.utf8[...]
        while let byte = utf8.first {
            // Printable ASCII other than the quote and the backslash goes out as it is.
            if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
                out.append(byte)
                utf8 = utf8.dropFirst()
                continue
            }
            // Anything else: decode the whole scalar (a String is always valid UTF-8).
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            let bytes = utf8.prefix(length)
            utf8 = utf8.dropFirst(length)
            let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first!
            switch scalar {
            case "\"": out += "\\\"".utf8
            case "\\": out += "\\\\".utf8
            case "\n": out += "\\n".utf8
            case "\r": out += "\\r".utf8
            case "\t": out += "\\t".utf8
            case "\u{08}": out += "\\b".utf8
            case "\u{0C}": out += "\\f".utf8
            default:
                if TerminalSanitizer.needsEscape(scalar) {
                    // Outside the BMP the escape is a UTF-16 surrogate pair (RFC 8259 section 7).
                    for unit in String(scalar).utf16 { appendHexEscape(unit, into: &out) }
                } else {
                    out += bytes
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendHexEscape(_ unit: UInt16, into out: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        out += [0x5C, UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int(unit >> UInt16(shift)) & 0xF]) }
    }
}
