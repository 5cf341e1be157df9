import TrustSupport

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
