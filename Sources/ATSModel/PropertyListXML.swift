import TrustSupport

/// The XML form of a property list, read as the subset Apple's writers produce and its DTD
/// allows: `plist`, `dict`/`key`, `array`, `string`, `true`, `false`, `integer`, `real`, `date`
/// and `data`, the five predefined entities and numeric character references, comments, CDATA,
/// processing instructions and a DOCTYPE, which is skipped. Entities the DOCTYPE might declare
/// are never expanded (an unknown entity is an error), so no input can grow while it is read.
struct XMLPropertyListReader {
    private let bytes: [UInt8]
    private let limits: PropertyListLimits
    private var i = 0
    private var objects = 0

    init(_ bytes: [UInt8], limits: PropertyListLimits) {
        self.bytes = bytes
        self.limits = limits
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    /// One start or end tag.
    private struct Tag {
        var name: String
        var isEnd: Bool
        var selfClosing: Bool
        var offset: Int
    }

    mutating func read() throws(PropertyListError) -> PropertyListValue {
        try skipMisc()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else {
            throw PropertyListError(.unrecognizedFormat, at: i < bytes.count ? i : nil)
        }
        let first = try readTag()
        let value: PropertyListValue
        if first.name == "plist" && !first.isEnd {
            guard !first.selfClosing else { throw malformed("<plist/> holds no value", at: first.offset) }
            try skipMisc()
            value = try parseValue(try readTag(), depth: 0)
            try skipMisc()
            let end = try readTag()
            guard end.isEnd && end.name == "plist" else {
                throw malformed(
                    "<plist> holds more than one value (found <\(InputExcerpt.quote(end.name))>)", at: end.offset)
            }
        } else {
            // Apple's reader also takes a bare value without the <plist> wrapper.
            value = try parseValue(first, depth: 0)
        }
        try skipMisc()
        guard i == bytes.count else { throw malformed("content after the property list", at: i) }
        return value
    }

    private func malformed(_ what: String, at offset: Int) -> PropertyListError {
        PropertyListError(.malformed(what), at: offset)
    }

    private func starts(with text: StaticString, at position: Int) -> Bool {
        let n = text.utf8CodeUnitCount
        guard position + n <= bytes.count else { return false }
        return text.withUTF8Buffer { t in
            for k in 0..<n where bytes[position + k] != t[k] { return false }
            return true
        }
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private mutating func skipSpace() {
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
    }

    /// Moves past `terminator`, which must occur before the end.
    private mutating func skip(past terminator: StaticString, what: String) throws(PropertyListError) {
        let start = i
        while i < bytes.count {
            if starts(with: terminator, at: i) {
                i += terminator.utf8CodeUnitCount
                return
            }
            i += 1
        }
        throw malformed("unterminated \(what)", at: start)
    }

    /// Whitespace, comments, processing instructions and a DOCTYPE (with its internal subset).
    private mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipSpace()
            if starts(with: "<?", at: i) {
                try skip(past: "?>", what: "processing instruction")
            } else if starts(with: "<!--", at: i) {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<!DOCTYPE", at: i) {
                let start = i
                var brackets = 0
                var quote: UInt8?
                i += 9
                while true {
                    guard i < bytes.count else { throw malformed("unterminated DOCTYPE", at: start) }
                    let b = bytes[i]
                    i += 1
                    if let q = quote {
                        if b == q { quote = nil }
                    } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                        quote = b
                    } else if b == UInt8(ascii: "[") {
                        brackets += 1
                    } else if b == UInt8(ascii: "]") {
                        brackets -= 1
                    } else if b == UInt8(ascii: ">") && brackets <= 0 {
                        break
                    }
                }
            } else {
                return
            }
        }
    }

    /// Reads `<name ...>`, `<name .../>` or `</name>`; attributes are skipped.
    private mutating func readTag() throws(PropertyListError) -> Tag {
        let offset = i
        guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else {
            throw malformed(i < bytes.count ? "expected an element" : "unexpected end of input", at: offset)
        }
        i += 1
        var isEnd = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "/") {
            isEnd = true
            i += 1
        }
        let nameStart = i
        while i < bytes.count, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "/") {
            i += 1
        }
        guard i > nameStart else { throw malformed("an element without a name", at: offset) }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
        var quote: UInt8?
        var lastSignificant: UInt8 = 0
        while true {
            guard i < bytes.count else { throw malformed("unterminated <\(InputExcerpt.quote(name))> tag", at: offset) }
            let b = bytes[i]
            i += 1
            if let q = quote {
                if b == q { quote = nil }
                continue
            }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                break
            } else if !Self.isSpace(b) {
                lastSignificant = b
            }
        }
        let selfClosing = lastSignificant == UInt8(ascii: "/")
        if isEnd && selfClosing { throw malformed("</\(InputExcerpt.quote(name))/> is not a tag", at: offset) }
        return Tag(name: name, isEnd: isEnd, selfClosing: selfClosing, offset: offset)
    }

    private mutating func count(at offset: Int) throws(PropertyListError) {
        objects += 1
        guard objects <= limits.maximumObjects else {
            throw PropertyListError(.tooManyObjects(limit: limits.maximumObjects), at: offset)
        }
    }

    private mutating func parseValue(_ tag: Tag, depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard !tag.isEnd else { throw malformed("unexpected </\(InputExcerpt.quote(tag.name))>", at: tag.offset) }
        try count(at: tag.offset)
        switch tag.name {
        case "dict":
            guard depth < limits.maximumDepth else {
                throw PropertyListError(.tooDeep(limit: limits.maximumDepth), at: tag.offset)
            }
            var entries: [PropertyListEntry] = []
            if tag.selfClosing { return .dictionary(entries) }
            while true {
                try skipMisc()
                let keyTag = try readTag()
                if keyTag.isEnd && keyTag.name == "dict" { break }
                guard keyTag.name == "key", !keyTag.isEnd else {
                    throw malformed(
                        "expected <key> in <dict>, found <\(InputExcerpt.quote(keyTag.name))>", at: keyTag.offset)
                }
                let key = keyTag.selfClosing ? "" : try readText(closing: "key", at: keyTag.offset)
                try skipMisc()
                let valueTag = try readTag()
                if valueTag.isEnd {
                    throw malformed("<key>\(InputExcerpt.quote(key))</key> has no value", at: valueTag.offset)
                }
                entries.append(PropertyListEntry(key: key, value: try parseValue(valueTag, depth: depth + 1)))
            }
            return .dictionary(entries)
        case "array":
            guard depth < limits.maximumDepth else {
                throw PropertyListError(.tooDeep(limit: limits.maximumDepth), at: tag.offset)
            }
            var items: [PropertyListValue] = []
            if tag.selfClosing { return .array(items) }
            while true {
                try skipMisc()
                let t = try readTag()
                if t.isEnd && t.name == "array" { break }
                items.append(try parseValue(t, depth: depth + 1))
            }
            return .array(items)
        case "string":
            return .string(tag.selfClosing ? "" : try readText(closing: "string", at: tag.offset))
        case "true", "false":
            if !tag.selfClosing {
                let text = try readText(closing: tag.name, at: tag.offset)
                guard text.utf8.allSatisfy(Self.isSpace) else {
                    throw malformed("<\(InputExcerpt.quote(tag.name))> holds text", at: tag.offset)
                }
            }
            return .bool(tag.name == "true")
        case "integer", "real", "date", "data":
            let raw = tag.selfClosing ? "" : try readText(closing: tag.name, at: tag.offset)
            let text = Self.trimmed(raw)
            switch tag.name {
            case "integer":
                guard let v = Self.integer(text) else {
                    throw malformed(
                        "<integer>\(InputExcerpt.quote(text))</integer> is not a 64-bit integer", at: tag.offset)
                }
                return .integer(v)
            case "real":
                guard let v = Self.real(text) else {
                    throw malformed("<real>\(InputExcerpt.quote(text))</real> is not a number", at: tag.offset)
                }
                return .real(v)
            case "date":
                guard let t = Timestamp(rfc3339: text), text.utf8.count == 20, text.hasSuffix("Z") else {
                    throw malformed(
                        "<date>\(InputExcerpt.quote(text))</date> is not YYYY-MM-DDTHH:MM:SSZ", at: tag.offset)
                }
                return .date(Double(t.secondsSinceEpoch))
            default:
                guard let data = Base64.decode(Array(raw.utf8)) else {
                    throw malformed("<data> is not base64", at: tag.offset)
                }
                return .data(data)
            }
        default:
            throw malformed("<\(InputExcerpt.quote(tag.name))> is not a property list element", at: tag.offset)
        }
    }

    private static func trimmed(_ s: String) -> String {
        let u = Array(s.utf8)
        var a = 0
        var b = u.count
        while a < b, isSpace(u[a]) { a += 1 }
        while b > a, isSpace(u[b - 1]) { b -= 1 }
        return String(decoding: u[a..<b], as: UTF8.self)
    }

    /// Decimal with an optional sign, or `0x` hexadecimal, as Apple's reader takes.
    static func integer(_ text: String) -> Int64? {
        var s = Substring(text)
        var negative = false
        if s.hasPrefix("-") {
            negative = true
            s = s.dropFirst()
        } else if s.hasPrefix("+") {
            s = s.dropFirst()
        }
        var radix = 10
        if s.hasPrefix("0x") || s.hasPrefix("0X") {
            radix = 16
            s = s.dropFirst(2)
        }
        guard !s.isEmpty, let magnitude = UInt64(s, radix: radix) else { return nil }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    static func real(_ text: String) -> Double? {
        switch text.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            // Swift's parser also takes hex floats and "nan(...)"; the DTD's reals are decimal.
            guard !text.isEmpty, text.utf8.allSatisfy({ Self.decimalByte($0) }) else { return nil }
            return Double(text)
        }
    }

    private static func decimalByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
            || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
    }

    /// The text of an element up to `</name>`: entities and character references decoded,
    /// CDATA copied, comments dropped; any other element inside is an error.
    private mutating func readText(closing name: String, at offset: Int) throws(PropertyListError) -> String {
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw malformed("unterminated <\(InputExcerpt.quote(name))>", at: offset) }
            let b = bytes[i]
            if b == UInt8(ascii: "&") {
                try readReference(into: &out)
            } else if b == UInt8(ascii: "<") {
                if starts(with: "<!--", at: i) {
                    try skip(past: "-->", what: "comment")
                } else if starts(with: "<![CDATA[", at: i) {
                    let start = i
                    i += 9
                    while true {
                        guard i < bytes.count else { throw malformed("unterminated CDATA section", at: start) }
                        if starts(with: "]]>", at: i) {
                            i += 3
                            break
                        }
                        out.append(bytes[i])
                        i += 1
                    }
                } else {
                    let tag = try readTag()
                    guard tag.isEnd && tag.name == name else {
                        throw malformed(
                            "<\(InputExcerpt.quote(tag.name))> inside <\(InputExcerpt.quote(name))>", at: tag.offset)
                    }
                    break
                }
            } else {
                out.append(b)
                i += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw malformed("<\(InputExcerpt.quote(name))> is not valid UTF-8", at: offset)
        }
        return text
    }

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, `&#NNN;` and `&#xHH;`.
    private mutating func readReference(into out: inout [UInt8]) throws(PropertyListError) {
        let start = i
        var end = i + 1
        // The longest reference is `&#x10FFFF;` plus leading zeros; 16 bytes bounds the search.
        while end < bytes.count, end - start < 16, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw malformed("an unterminated or overlong entity reference", at: start)
        }
        let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        i = end + 1
        let scalar: Unicode.Scalar?
        switch name {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            guard name.hasPrefix("#") else {
                throw malformed(
                    "unknown entity &\(InputExcerpt.quote(name)); (DOCTYPE entities are not expanded)", at: start)
            }
            let digits = name.dropFirst()
            let value =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            scalar = value.flatMap(Unicode.Scalar.init).flatMap { $0.value == 0 ? nil : $0 }
        }
        guard let scalar else { throw malformed("&\(InputExcerpt.quote(name)); is not a valid character", at: start) }
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
}
