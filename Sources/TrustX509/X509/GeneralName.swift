/// An RFC 5280 4.2.1.6 GeneralName. String values are attacker-controlled: sanitise before display.
public enum GeneralName: Hashable, Sendable {
    /// `otherName`: a type identifier and its DER value.
    case otherName(type: OID, value: [UInt8])
    /// `rfc822Name`: an email address.
    case rfc822Name(String)
    /// `dNSName`: a host name, possibly with a leading wildcard label.
    case dnsName(String)
    /// `x400Address`, kept raw.
    case x400Address([UInt8])
    /// `directoryName`: an X.501 name.
    case directoryName(DistinguishedName)
    /// `ediPartyName`, kept raw.
    case ediPartyName([UInt8])
    /// `uniformResourceIdentifier`.
    case uri(String)
    /// `iPAddress`: 4 or 16 octets in a SAN; address plus mask (8 or 32 octets) in name constraints.
    case ipAddress([UInt8])
    /// `registeredID`.
    case registeredID(OID)

    /// The RFC 5280 type name, e.g. `dNSName`.
    public var typeName: String {
        switch self {
        case .otherName: "otherName"
        case .rfc822Name: "rfc822Name"
        case .dnsName: "dNSName"
        case .x400Address: "x400Address"
        case .directoryName: "directoryName"
        case .ediPartyName: "ediPartyName"
        case .uri: "uniformResourceIdentifier"
        case .ipAddress: "iPAddress"
        case .registeredID: "registeredID"
        }
    }

    /// The value as text (IP addresses in their usual notation, raw types in hex).
    public var valueText: String {
        switch self {
        case .otherName(let type, let value): "\(type.name):\(hexString(value))"
        case .rfc822Name(let s), .dnsName(let s), .uri(let s): s
        case .x400Address(let b), .ediPartyName(let b): hexString(b)
        case .directoryName(let n): n.description
        case .ipAddress(let b): formatIPAddress(b)
        case .registeredID(let o): o.dotted
        }
    }

    static func decode(_ reader: DERReader, node: DERNode) throws(DecodingError) -> GeneralName {
        let number = node.tag & 0x1F
        let content = Array(reader.content(node))
        guard node.tag & 0xC0 == 0x80 else {
            throw reader.fail("GeneralName must be context-specific", at: node.start)
        }
        func ia5() throws(DecodingError) -> String {
            guard !node.isConstructed else { throw reader.fail("IA5String must be primitive", at: node.start) }
            guard content.allSatisfy({ $0 < 0x80 }) else {
                throw reader.fail("IA5String holds a non-ASCII byte", at: node.contentStart)
            }
            return String(decoding: content, as: UTF8.self)
        }
        switch number {
        case 0:
            var inner = reader.reader(inside: node)
            let type = try inner.objectIdentifier(try inner.read(DERTag.oid, "an otherName type"))
            let value = try inner.read(DERTag.contextSpecific(0, constructed: true), "an otherName value")
            return .otherName(type: type, value: Array(inner.content(value)))
        case 1: return .rfc822Name(try ia5())
        case 2: return .dnsName(try ia5())
        case 3: return .x400Address(content)
        case 4:
            var inner = reader.reader(inside: node)
            let nameNode = try inner.read(DERTag.sequence, "a directoryName")
            try inner.expectEnd("a directoryName")
            return .directoryName(try DistinguishedName.decode(inner, node: nameNode))
        case 5: return .ediPartyName(content)
        case 6: return .uri(try ia5())
        case 7:
            guard !node.isConstructed else { throw reader.fail("iPAddress must be primitive", at: node.start) }
            return .ipAddress(content)
        case 8:
            return .registeredID(
                try reader.objectIdentifier(
                    DERNode(
                        tag: DERTag.oid, start: node.start,
                        contentStart: node.contentStart, end: node.end)))
        default:
            throw reader.fail("unknown GeneralName tag [\(number)]", at: node.start)
        }
    }

    static func decodeSequence(_ reader: DERReader, node: DERNode) throws(DecodingError) -> [GeneralName] {
        var inner = reader.reader(inside: node)
        var names: [GeneralName] = []
        while !inner.isAtEnd {
            names.append(try decode(inner, node: try inner.readNode()))
        }
        return names
    }
}

/// Dotted IPv4, RFC 5952 IPv6, `addr/mask` for 8 or 32 octets, hex otherwise.
public func formatIPAddress(_ b: [UInt8]) -> String {
    switch b.count {
    case 4: return b.map(String.init).joined(separator: ".")
    case 16:
        var groups: [Int] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(Int(b[i]) << 8 | Int(b[i + 1])) }
        // RFC 5952: compress the longest run (length >= 2) of zero groups, the first on ties.
        var bestStart = -1
        var bestLength = 0
        var i = 0
        while i < 8 {
            if groups[i] == 0 {
                var j = i
                while j < 8 && groups[j] == 0 { j += 1 }
                if j - i > bestLength && j - i >= 2 {
                    bestStart = i
                    bestLength = j - i
                }
                i = j
            } else {
                i += 1
            }
        }
        func hexGroup(_ g: Int) -> String { String(g, radix: 16) }
        if bestStart < 0 { return groups.map(hexGroup).joined(separator: ":") }
        let head = groups[0..<bestStart].map(hexGroup).joined(separator: ":")
        let tail = groups[(bestStart + bestLength)...].map(hexGroup).joined(separator: ":")
        return head + "::" + tail
    case 8: return formatIPAddress(Array(b[0..<4])) + "/" + formatIPAddress(Array(b[4..<8]))
    case 32: return formatIPAddress(Array(b[0..<16])) + "/" + formatIPAddress(Array(b[16..<32]))
    default: return hexString(b, separator: ":")
    }
}

/// Parses an IPv4 or IPv6 literal (brackets allowed, no zone) into 4 or 16 octets.
public func parseIPAddress(_ text: String) -> [UInt8]? {
    var s = Substring(text)
    if s.hasPrefix("[") && s.hasSuffix("]") { s = s.dropFirst().dropLast() }
    if !s.contains(":") {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for p in parts {
            guard !p.isEmpty, p.count <= 3, p.allSatisfy({ $0.isASCII && $0.isNumber }),
                let v = UInt8(p), !(p.count > 1 && p.first == "0")
            else { return nil }
            out.append(v)
        }
        return out
    }
    // IPv6, possibly with an embedded IPv4 tail.
    let halves = String(s).components(separatedBy: "::")
    guard halves.count <= 2 else { return nil }
    func groups(_ part: String) -> [UInt8]? {
        if part.isEmpty { return [] }
        var out: [UInt8] = []
        let items = part.split(separator: ":", omittingEmptySubsequences: false)
        for (i, item) in items.enumerated() {
            if i == items.count - 1 && item.contains(".") {
                guard let v4 = parseIPAddress(String(item)), v4.count == 4 else { return nil }
                out += v4
                continue
            }
            guard !item.isEmpty, item.count <= 4, let v = UInt16(item, radix: 16) else { return nil }
            out += [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        return out
    }
    if halves.count == 1 {
        guard let all = groups(halves[0]), all.count == 16 else { return nil }
        return all
    }
    guard let head = groups(halves[0]), let tail = groups(halves[1]), head.count + tail.count <= 14 else {
        return nil
    }
    return head + Array(repeating: 0, count: 16 - head.count - tail.count) + tail
}

extension String {
    fileprivate func components(separatedBy separator: String) -> [String] {
        var result: [String] = []
        var current = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            current = String(rest[..<range.lowerBound])
            result.append(current)
            rest = rest[range.upperBound...]
        }
        result.append(String(rest))
        return result
    }
}
