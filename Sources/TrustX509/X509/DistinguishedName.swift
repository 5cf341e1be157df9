import TrustSupport

/// One attribute of a relative distinguished name, e.g. `CN=example.com`.
public struct NameAttribute: Hashable, Sendable {
    /// The attribute type.
    public var type: OID
    /// The ASN.1 string tag the value was encoded with.
    public var valueTag: UInt8
    /// The value's content octets as encoded.
    public var rawValue: [UInt8]
    /// The value decoded as text (UTF-8, BMP or Latin-1 as the tag says; invalid bytes replaced).
    /// Attacker-controlled: sanitise before display.
    public var value: String

    /// `value` for display: bytes of a UTF-8 string type that are not valid UTF-8 appear as
    /// `\xNN` instead of U+FFFD, so two different malformed values never look the same.
    /// Attacker-controlled: sanitise before display.
    public var displayValue: String { render(escaped: false) }

    /// The value as text, RFC 4514-escaped when `escaped`, with invalid UTF-8 bytes as `\xNN`
    /// (never escaped themselves, so a literal backslash, shown as `\\`, cannot imitate one).
    func render(escaped: Bool) -> String {
        let utf8Type =
            valueTag != DERTag.bmpString && valueTag != DERTag.universalString && valueTag != DERTag.teletexString
        guard utf8Type, value.unicodeScalars.contains("\u{FFFD}") else {
            return escaped ? escapeNameValue(value) : value
        }
        var out = ""
        var i = 0
        while i < rawValue.count {
            guard let (scalar, length) = TerminalSanitizer.decodeUTF8(rawValue, at: i) else {
                out += "\\x" + TerminalSanitizer.hexDigits(UInt32(rawValue[i]), minimumWidth: 2)
                i += 1
                continue
            }
            let text = String(Unicode.Scalar(scalar)!)
            out += escaped ? escapeNameValue(text, atStart: i == 0) : text
            i += length
        }
        return out
    }
}

/// An X.501 Name: a sequence of relative distinguished names.
public struct DistinguishedName: Hashable, Sendable, CustomStringConvertible {
    /// The full DER encoding (SEQUENCE included).
    public let der: [UInt8]
    /// The relative distinguished names in encoded order (most significant first).
    public let rdns: [[NameAttribute]]
    /// A comparison key following RFC 5280 7.1: string values case-folded (ASCII) with
    /// whitespace collapsed, so equal names under the RFC's matching rule compare equal.
    let matchKey: [UInt8]

    /// True when the name has no attributes.
    public var isEmpty: Bool { rdns.isEmpty }

    /// All attributes in order.
    public var attributes: [NameAttribute] { rdns.flatMap { $0 } }

    /// Values of attributes of `type`.
    package func values(of type: OID) -> [String] {
        attributes.filter { $0.type == type }.map(\.value)
    }

    /// The common names, in order.
    public var commonNames: [String] { values(of: .commonName) }

    /// RFC 4514-like text, most significant RDN first as the openssl CLI shows it
    /// (`C=US, O=Example, CN=leaf`).
    public var description: String {
        rdns.map { rdn in
            rdn.map { "\($0.type.name)=\($0.render(escaped: true))" }.joined(separator: " + ")
        }.joined(separator: ", ")
    }

    /// Whether two names match under RFC 5280 7.1 (used for chaining).
    public func matches(_ other: DistinguishedName) -> Bool {
        der == other.der || matchKey == other.matchKey
    }

    static func decode(_ reader: DERReader, node: DERNode) throws(DecodingError) -> DistinguishedName {
        guard node.tag == DERTag.sequence else {
            throw reader.fail("expected a Name (SEQUENCE)", at: node.start)
        }
        var rdns: [[NameAttribute]] = []
        var key: [UInt8] = []
        var outer = reader.reader(inside: node)
        while !outer.isAtEnd {
            let set = try outer.read(DERTag.set, "a RelativeDistinguishedName (SET)")
            var inner = outer.reader(inside: set)
            var rdn: [NameAttribute] = []
            guard !inner.isAtEnd else { throw outer.fail("empty RelativeDistinguishedName", at: set.start) }
            while !inner.isAtEnd {
                let seq = try inner.read(DERTag.sequence, "an AttributeTypeAndValue")
                var atv = inner.reader(inside: seq)
                let type = try atv.objectIdentifier(try atv.read(DERTag.oid, "an attribute type"))
                let valueNode = try atv.readNode()
                try atv.expectEnd("an attribute value")
                let raw = Array(atv.content(valueNode))
                let text = decodeString(tag: valueNode.tag, bytes: raw)
                rdn.append(NameAttribute(type: type, valueTag: valueNode.tag, rawValue: raw, value: text))
            }
            // Order attributes inside a multi-valued RDN so the key ignores SET ordering.
            var parts = rdn.map { attr -> [UInt8] in
                var p = attr.type.bytes
                p.append(0)
                p += normalizeForMatch(tag: attr.valueTag, raw: attr.rawValue)
                return p
            }
            parts.sort { $0.lexicographicallyPrecedes($1) }
            for p in parts {
                key += p
                key.append(1)
            }
            key.append(2)
            rdns.append(rdn)
        }
        return DistinguishedName(der: Array(reader.bytes[node.fullRange]), rdns: rdns, matchKey: key)
    }
}

/// Escapes RFC 4514 specials in a value for the one-line form.
func escapeNameValue(_ value: String, atStart: Bool = true) -> String {
    var out = ""
    for (i, ch) in value.enumerated() {
        switch ch {
        case ",", "+", "\"", "\\", "<", ">", ";", "=":
            out += "\\\(ch)"
        case "#" where i == 0 && atStart:
            out += "\\#"
        default:
            out.append(ch)
        }
    }
    return out
}

/// Decodes an ASN.1 string value to text without ever failing.
func decodeString(tag: UInt8, bytes: [UInt8]) -> String {
    switch tag {
    case DERTag.bmpString:
        var units: [UInt16] = []
        var i = 0
        while i + 1 < bytes.count {
            units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    case DERTag.universalString:
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i + 3 < bytes.count {
            let v =
                UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
            scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
            i += 4
        }
        return String(scalars)
    case DERTag.teletexString:
        // T.61 in practice carries Latin-1.
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    default:
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// RFC 5280 7.1 / RFC 4518 simplified: printable and UTF-8 strings compare case-insensitively
/// (ASCII) with leading, trailing and repeated internal spaces removed; other types byte-wise.
package func normalizeForMatch(tag: UInt8, raw: [UInt8]) -> [UInt8] {
    switch tag {
    case DERTag.printableString, DERTag.utf8String, DERTag.ia5String, DERTag.visibleString,
        DERTag.teletexString, DERTag.bmpString, DERTag.universalString:
        let text = decodeString(tag: tag, bytes: raw)
        var out: [UInt8] = [0x0C]
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                pendingSpace = out.count > 1
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return out
    default:
        return [tag] + raw
    }
}
