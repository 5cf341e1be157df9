import TrustSupport

/// The revocation reasons a CRL or a distribution point covers (RFC 5280 4.2.1.13 ReasonFlags):
/// bit n of the BIT STRING is `1 << n` here.
public struct RevocationReasons: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    /// Creates the set from its bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// keyCompromise (1) to aACompromise (8): every reason a CRL can cover ("unused", bit 0, is none).
    public static let all = RevocationReasons(rawValue: 0x1FE)

    /// The names of the reasons, RFC 5280's spelling.
    public var description: String {
        let names = [
            "unused", "keyCompromise", "cACompromise", "affiliationChanged", "superseded", "cessationOfOperation",
            "certificateHold", "privilegeWithdrawn", "aACompromise",
        ]
        let set = names.indices.filter { rawValue & (1 << $0) != 0 }.map { names[$0] }
        return set.isEmpty ? "no reasons" : set.joined(separator: ", ")
    }

    /// Decodes a ReasonFlags BIT STRING.
    static func decode(_ reader: DERReader, _ node: DERNode) throws(DecodingError) -> RevocationReasons {
        let (bytes, _) = try reader.bitString(node)
        var raw: UInt16 = 0
        for bit in 0..<9 where bit / 8 < bytes.count && bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 {
            raw |= 1 << UInt16(bit)
        }
        return RevocationReasons(rawValue: raw)
    }
}

/// A DistributionPointName (RFC 5280 4.2.1.13): general names, or one RDN relative to the
/// CRL issuer.
public enum DistributionPointName: Hashable, Sendable {
    /// fullName.
    case fullName([GeneralName])
    /// nameRelativeToCRLIssuer: the DER of the RelativeDistinguishedName SET.
    case relativeName([UInt8])

    /// The names this stands for; a relative name is appended to `base` (the CRL issuer).
    public func names(relativeTo base: DistinguishedName) -> [GeneralName] {
        switch self {
        case .fullName(let names): return names
        case .relativeName(let rdn):
            var content: [UInt8] = []
            var r = DERReader(base.der)
            if let outer = try? r.read(DERTag.sequence, "a Name") { content = Array(r.content(outer)) }
            let der = DERWriter.encode { w in
                w.sequence { w in
                    w.raw(content)
                    w.raw(rdn)
                }
            }
            var reader = DERReader(der)
            guard let node = try? reader.readNode(), let name = try? DistinguishedName.decode(reader, node: node)
            else { return [] }
            return [.directoryName(name)]
        }
    }

    static func decode(_ reader: DERReader, _ node: DERNode) throws(DecodingError) -> DistributionPointName {
        var n = reader.reader(inside: node)
        let choice = try n.readNode()
        try n.expectEnd("a DistributionPointName")
        switch choice.tag {
        case DERTag.contextSpecific(0, constructed: true):
            return .fullName(try GeneralName.decodeSequence(n, node: choice))
        case DERTag.contextSpecific(1, constructed: true):
            // Re-tag the implicit [1] as the SET it stands for.
            return .relativeName(DERWriter.encode { $0.element(tag: DERTag.set, content: Array(n.content(choice))) })
        default:
            throw n.fail("unknown DistributionPointName choice", at: choice.start)
        }
    }
}

/// One DistributionPoint of a certificate's cRLDistributionPoints or freshestCRL (RFC 5280
/// 4.2.1.13, 4.2.1.15).
public struct DistributionPoint: Hashable, Sendable {
    /// distributionPoint.
    public var name: DistributionPointName?
    /// reasons; nil covers every reason.
    public var reasons: RevocationReasons?
    /// cRLIssuer: who issues this point's CRL when it is not the certificate's issuer.
    public var crlIssuer: [GeneralName]?

    /// Creates a point; with nothing given, the implicit point of a certificate without
    /// cRLDistributionPoints (its issuer's CRLs, every reason).
    public init(name: DistributionPointName? = nil, reasons: RevocationReasons? = nil, crlIssuer: [GeneralName]? = nil)
    {
        self.name = name
        self.reasons = reasons
        self.crlIssuer = crlIssuer
    }

    /// More points than this in one extension are refused: a bound on attacker-sized input.
    public static let maximumPoints = 32

    /// Decodes the extension value (a SEQUENCE OF DistributionPoint).
    public static func decodeList(_ der: [UInt8]) throws(DecodingError) -> [DistributionPoint] {
        var top = DERReader(der)
        let seq = try top.read(DERTag.sequence, "CRLDistributionPoints")
        try top.expectEnd("CRLDistributionPoints")
        var s = top.reader(inside: seq)
        var out: [DistributionPoint] = []
        while !s.isAtEnd {
            guard out.count < maximumPoints else { throw s.fail("too many distribution points") }
            var d = s.reader(inside: try s.read(DERTag.sequence, "a DistributionPoint"))
            var point = DistributionPoint()
            if let n = try d.readOptional(DERTag.contextSpecific(0, constructed: true)) {
                point.name = try DistributionPointName.decode(d, n)
            }
            if let r = try d.readOptional(DERTag.contextSpecific(1, constructed: false)) {
                point.reasons = try RevocationReasons.decode(d, r)
            }
            if let i = try d.readOptional(DERTag.contextSpecific(2, constructed: true)) {
                point.crlIssuer = try GeneralName.decodeSequence(d, node: i)
            }
            try d.expectEnd("a DistributionPoint")
            out.append(point)
        }
        return out
    }
}

/// A CRL's issuingDistributionPoint (RFC 5280 5.2.5): which certificates and reasons it covers.
public struct IssuingDistributionPoint: Hashable, Sendable {
    /// distributionPoint.
    public var name: DistributionPointName?
    /// onlyContainsUserCerts.
    public var onlyContainsUserCerts = false
    /// onlyContainsCACerts.
    public var onlyContainsCACerts = false
    /// onlySomeReasons; nil covers every reason.
    public var onlySomeReasons: RevocationReasons?
    /// indirectCRL: entries may name other issuers (certificateIssuer).
    public var indirectCRL = false
    /// onlyContainsAttributeCerts.
    public var onlyContainsAttributeCerts = false

    /// Decodes the extension value.
    public static func decode(_ der: [UInt8]) throws(DecodingError) -> IssuingDistributionPoint {
        var top = DERReader(der)
        let seq = try top.read(DERTag.sequence, "IssuingDistributionPoint")
        try top.expectEnd("IssuingDistributionPoint")
        var r = top.reader(inside: seq)
        var idp = IssuingDistributionPoint(name: nil)
        if let n = try r.readOptional(DERTag.contextSpecific(0, constructed: true)) {
            idp.name = try DistributionPointName.decode(r, n)
        }
        if let b = try r.readOptional(DERTag.contextSpecific(1, constructed: false)) {
            idp.onlyContainsUserCerts = try r.boolean(b)
        }
        if let b = try r.readOptional(DERTag.contextSpecific(2, constructed: false)) {
            idp.onlyContainsCACerts = try r.boolean(b)
        }
        if let b = try r.readOptional(DERTag.contextSpecific(3, constructed: false)) {
            idp.onlySomeReasons = try RevocationReasons.decode(r, b)
        }
        if let b = try r.readOptional(DERTag.contextSpecific(4, constructed: false)) {
            idp.indirectCRL = try r.boolean(b)
        }
        if let b = try r.readOptional(DERTag.contextSpecific(5, constructed: false)) {
            idp.onlyContainsAttributeCerts = try r.boolean(b)
        }
        try r.expectEnd("IssuingDistributionPoint")
        return idp
    }
}

extension Certificate {
    /// The cRLDistributionPoints with their reasons and cRLIssuer (RFC 5280 4.2.1.13); nil when
    /// absent, empty when it does not decode.
    public var distributionPoints: [DistributionPoint]? {
        guard let ext = self.extension(.crlDistributionPoints) else { return nil }
        return (try? DistributionPoint.decodeList(ext.value)) ?? []
    }

    /// The freshestCRL points (RFC 5280 4.2.1.15): where delta CRLs are found; nil when absent.
    public var freshestCRLPoints: [DistributionPoint]? {
        guard let ext = self.extension(RevocationList.freshestCRL) else { return nil }
        return (try? DistributionPoint.decodeList(ext.value)) ?? []
    }
}
