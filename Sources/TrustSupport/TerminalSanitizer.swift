/// Makes attacker-controlled text safe to show on a terminal.
///
/// Subjects, SANs, host names and error text come from certificates and servers. Written raw,
/// an ESC or C1 CSI byte can recolour, move the cursor, retitle the window or hide text; bidi
/// overrides and zero-width characters can make `evil.com` read as `good.com`. Every such scalar
/// is replaced by a visible escape: `\u{1B}` for scalars, `\xNN` for bytes that are not UTF-8.
/// Backslashes are left alone so that RFC 4514 name escapes (`\,`) stay readable.
public enum TerminalSanitizer {
    /// Whether `scalar` must not reach a terminal as itself: C0 and C1 controls, DEL, line and
    /// paragraph separators, and every format character (Unicode category Cf: bidi embeddings,
    /// overrides and isolates, zero-width spaces and joiners, the BOM, soft hyphen, tag characters).
    /// - Parameter scalar: The scalar to classify.
    /// - Returns: True when the scalar has to be escaped.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) { return true }
        if v < 0xA0 { return false }
        switch v {
        // Listed explicitly so the rule does not depend on the Unicode tables' vintage.
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B...0x200F, 0x2028...0x202E,
            0x2060...0x206F, 0x3164, 0xFEFF, 0xFFA0, 0xFFF9...0xFFFB, 0xE0000...0xE007F:
            return true
        default:
            return scalar.properties.generalCategory == .format
        }
    }

    /// Returns `text` with every unsafe scalar replaced by `\u{HEX}`.
    /// - Parameters:
    ///   - text: Text that may come from a certificate or a server.
    ///   - asciiOnly: Also escape every non-ASCII scalar, for terminals whose locale is not UTF-8
    ///     (where UTF-8 continuation bytes can be taken for C1 controls such as 0x9B, CSI).
    /// - Returns: Text that contains no control, format or separator scalars.
    public static func sanitize(_ text: String, asciiOnly: Bool = false) -> String {
        // The common case, printable ASCII, is returned as it is without building a new string.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) || (asciiOnly && scalar.value >= 0x80) {
                appendEscape(scalar.value, to: &out)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Decodes `bytes` as UTF-8 for display: valid, safe scalars are kept, unsafe ones become
    /// `\u{HEX}` and bytes that are not part of valid UTF-8 become `\xNN`.
    /// - Parameters:
    ///   - bytes: Raw bytes, e.g. a name attribute's content octets or a server's message.
    ///   - asciiOnly: Also escape every non-ASCII scalar.
    /// - Returns: Text safe for a terminal.
    public static func sanitize<C: Collection>(bytes: C, asciiOnly: Bool = false) -> String where C.Element == UInt8 {
        let b = Array(bytes)
        var out = ""
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            guard let (value, length) = decodeUTF8(b, at: i) else {
                out += "\\x" + hexDigits(UInt32(b[i]), minimumWidth: 2)
                i += 1
                continue
            }
            i += length
            // decodeUTF8 never yields surrogates or values above 0x10FFFF.
            let scalar = Unicode.Scalar(value)!
            if needsEscape(scalar) || (asciiOnly && value >= 0x80) {
                appendEscape(value, to: &out)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func appendEscape(_ value: UInt32, to out: inout String) {
        out += "\\u{" + hexDigits(value, minimumWidth: 2) + "}"
    }

    package static func hexDigits(_ value: UInt32, minimumWidth: Int) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return s.count >= minimumWidth ? s : String(repeating: "0", count: minimumWidth - s.count) + s
    }

    /// One strictly valid UTF-8 sequence at `i` (no overlong forms, surrogates or values
    /// above U+10FFFF), as (scalar value, length); nil when the byte at `i` does not start one.
    package static func decodeUTF8(_ b: [UInt8], at i: Int) -> (UInt32, Int)? {
        let lead = b[i]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length: Int
        var value: UInt32
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
            value = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            value = UInt32(lead & 0x0F)
            if lead == 0xE0 { lower = 0xA0 }  // overlong
            if lead == 0xED { upper = 0x9F }  // surrogates
        case 0xF0...0xF4:
            length = 4
            value = UInt32(lead & 0x07)
            if lead == 0xF0 { lower = 0x90 }  // overlong
            if lead == 0xF4 { upper = 0x8F }  // above U+10FFFF
        default:
            return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let c = b[i + k]
            let (lo, hi) = k == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            guard c >= lo && c <= hi else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        return (value, length)
    }
}
