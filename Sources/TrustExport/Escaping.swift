import ATSModel
import TrustCore

/// Escapes for the three contexts exported text lands in: shell command lines, Swift source and
/// XML property lists. Certificate names and host names can hold anything, so nothing from them
/// reaches an export without passing through one of these.
public enum Escaping {
    /// Whether `byte` is printable ASCII (space to tilde).
    static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

    /// `text` as one shell word: as it is when it holds only characters no shell treats
    /// specially, in single quotes when it is printable ASCII, else in `$'...'` with every other
    /// byte as `\xNN` (bash, zsh, ksh and POSIX.1-2024 sh read it; single quotes cannot hold a
    /// control character visibly).
    /// - Parameter text: A path, host, URL or option value.
    /// - Returns: A word that the shell reads back as exactly `text`.
    public static func shellQuote(_ text: String) -> String {
        let safe: (UInt8) -> Bool = { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || "@%+=:,./_-".utf8.contains(b)
        }
        if !text.isEmpty && text.utf8.allSatisfy(safe) { return text }
        if text.utf8.allSatisfy(isPrintableASCII) {
            return "'" + text.replacingAll("'", with: "'\\''") + "'"
        }
        var out = "$'"
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "'"): out += "\\'"
            case _ where isPrintableASCII(b): out.unicodeScalars.append(Unicode.Scalar(b))
            default: out += "\\x" + hex2(b)
            }
        }
        return out + "'"
    }

    /// `text` as a Swift string literal, quotes included: backslash and quote escaped, and every
    /// scalar outside printable ASCII as `\u{HEX}`, so that no newline, bidi override or
    /// interpolation can change the code around it.
    /// - Parameter text: Any text.
    /// - Returns: A literal whose value is `text`.
    public static func swiftStringLiteral(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where scalar.isASCII && isPrintableASCII(UInt8(scalar.value)): out.unicodeScalars.append(scalar)
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out + "\""
    }

    /// `text` for a one-line comment in any of the exported languages: printable ASCII stays,
    /// everything else (a newline that would end the comment, a bidi override that would
    /// reorder the code around it) becomes `\u{HEX}`; `*/` cannot close a block comment.
    /// - Parameter text: Text from a certificate or the command line.
    /// - Returns: One line of printable ASCII.
    public static func commentText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII && isPrintableASCII(UInt8(scalar.value)) {
                if scalar == "/" && out.hasSuffix("*") {
                    out += "\\u{2F}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            } else {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// `text` for the inside of an XML comment: `commentText`, with no two hyphens in a row and
    /// no hyphen at the end, which XML forbids in comments. An option's name (`--anchor`) is
    /// written `option anchor`, which reads as what it names where `-\u{2D}anchor` read as an
    /// escape (D307); any other second hyphen of two is escaped.
    /// - Parameter text: Text from a certificate or the command line.
    /// - Returns: Text that cannot end or break the comment it is written into.
    public static func xmlCommentText(_ text: String) -> String {
        var out = ""
        let chars = Array(commentText(text))
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let startsWord = i == 0 || chars[i - 1] == " " || chars[i - 1] == "("
            if c == "-", startsWord, i + 2 < chars.count, chars[i + 1] == "-", chars[i + 2].isLetter,
                chars[i + 2].isASCII
            {
                out += "option "
                i += 2
                continue
            }
            out += c == "-" && out.hasSuffix("-") ? "\\u{2D}" : String(c)
            i += 1
        }
        return out.hasSuffix("-") ? out + " " : out
    }

    /// `text` as XML character data: `&`, `<`, `>` and quotes as entities, non-ASCII as numeric
    /// references (the output stays ASCII), and the control characters XML 1.0 cannot carry at
    /// all shown as `\u{HEX}` text.
    /// - Parameter text: A key or string value.
    /// - Returns: Text for between tags.
    public static func xmlText(_ text: String) -> String { PropertyList.xmlText(text) }

    static func hex2(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
