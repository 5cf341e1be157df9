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
        var out = ""
        write(value, indent: 0, into: &out)
        out += "\n"
        return out
    }

    /// `text` as a JSON string literal, quotes included.
    /// - Parameter text: Any text.
    /// - Returns: The escaped literal.
    public static func quoted(_ text: String) -> String {
        var out = ""
        appendString(text, into: &out)
        return out
    }

    static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .string(let s): appendString(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                pad(indent + 1, &out)
                write(item, indent: indent + 1, into: &out)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            pad(indent, &out)
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{\n"
            for (i, (key, item)) in members.enumerated() {
                pad(indent + 1, &out)
                appendString(key, into: &out)
                out += ": "
                write(item, indent: indent + 1, into: &out)
                out += i + 1 < members.count ? ",\n" : "\n"
            }
            pad(indent, &out)
            out += "}"
        }
    }

    static func pad(_ level: Int, _ out: inout String) {
        out += String(repeating: " ", count: level * 2)
    }

    static func appendString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if TerminalSanitizer.needsEscape(scalar) {
                    // Outside the BMP the escape is a UTF-16 surrogate pair (RFC 8259 section 7).
                    for unit in String(scalar).utf16 { out += "\\u" + hex4(unit) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    static func hex4(_ unit: UInt16) -> String {
        let s = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - s.count) + s
    }
}
