import TrustSupport

/// One revoked certificate in a CRL (RFC 5280 5.1.2.6).
public struct RevokedEntry: Hashable, Sendable {
    /// The serial number's content octets, as encoded.
    public var serialNumber: [UInt8]
    /// When it was revoked.
    public var revocationDate: Timestamp
    /// Whether the entry carries a critical extension.
    public var hasCriticalExtension: Bool
    /// The first critical entry extension other than reasonCode, invalidityDate and
    /// certificateIssuer, which are processed: RFC 5280 5.3 forbids using such a CRL.
    public var unknownCriticalExtension: OID? = nil
    /// reasonCode (RFC 5280 5.3.1), when present: 8 is removeFromCRL.
    public var reason: Int? = nil
    /// The certificate issuer this entry is about in an indirect CRL (RFC 5280 5.3.3): the last
    /// certificateIssuer extension at or before this entry; nil for the CRL issuer.
    public var certificateIssuer: [GeneralName]? = nil
}

/// A certificate revocation list (RFC 5280 5), decoded strictly like certificates.
public struct RevocationList: Sendable {
    /// The DER encoding.
    public let der: [UInt8]
    /// The SHA-256 of `der`: the signature cache's name for this CRL.
    let identity: DigestKey
    /// Where tbsCertList lies inside `der`: the bytes the signature covers.
    public let tbsRange: Range<Int>
    /// 1 or 2.
    public let version: Int
    /// The outer signatureAlgorithm.
    public let signatureAlgorithm: AlgorithmIdentifier
    /// The signature value's octets.
    public let signature: [UInt8]
    /// The CRL issuer.
    public let issuer: DistinguishedName
    /// thisUpdate.
    public let thisUpdate: Timestamp
    /// nextUpdate, when present.
    public let nextUpdate: Timestamp?
    /// The revoked certificates (at most `maximumEntries`).
    public let revoked: [RevokedEntry]
    /// Whether some entry carries a critical extension trustx does not process (decided once,
    /// at decoding).
    package let hasCriticalEntryExtension: Bool
    /// The first critical entry extension that is not processed, found once at decoding so
    /// judging a CRL never walks its entries again.
    package let firstUnknownCriticalEntryExtension: OID?
    /// The crlExtensions.
    public let extensions: [(oid: OID, critical: Bool)]
    /// The cRLNumber's content octets (RFC 5280 5.2.3), when present.
    public let crlNumberValue: [UInt8]?
    /// deltaCRLIndicator's BaseCRLNumber (RFC 5280 5.2.4): present on delta CRLs only.
    public let deltaBaseCRLNumber: [UInt8]?
    /// issuingDistributionPoint (RFC 5280 5.2.5), when present.
    public let issuingDistributionPoint: IssuingDistributionPoint?
    /// The DER of issuingDistributionPoint's value: a delta and its base must have the same scope.
    public let issuingDistributionPointDER: [UInt8]?
    /// Whether this is a delta CRL.
    public var isDelta: Bool { deltaBaseCRLNumber != nil }
    /// freshestCRL (RFC 5280 5.2.6): where the delta CRLs for this CRL are found; nil when absent.
    public let freshestCRLPoints: [DistributionPoint]?
    /// Whether cRLNumber (2.5.29.20) is present.
    public var hasCRLNumber: Bool { extensions.contains { $0.oid == RevocationList.crlNumber } }

    /// More entries than this are refused: a bound on attacker-sized input.
    public static let maximumEntries = 1_000_000

    package static let crlNumber = OID(dotted: "2.5.29.20")!
    package static let authorityKeyIdentifier = OID(dotted: "2.5.29.35")!
    package static let deltaCRLIndicator = OID(dotted: "2.5.29.27")!
    package static let issuingDistributionPointOID = OID(dotted: "2.5.29.28")!
    package static let freshestCRL = OID(dotted: "2.5.29.46")!
    package static let reasonCode = OID(dotted: "2.5.29.21")!
    /// CRLReason removeFromCRL (RFC 5280 5.3.1): in a delta CRL, the entry is no longer revoked.
    package static let removeFromCRL = 8
    package static let invalidityDate = OID(dotted: "2.5.29.24")!
    package static let certificateIssuerOID = OID(dotted: "2.5.29.29")!
    /// Entry extensions whose meaning trustx processes, so a critical one does not make the CRL
    /// unusable.
    package static let processedEntryExtensions: Set<OID> = [reasonCode, invalidityDate, certificateIssuerOID]

    /// Decodes one DER CRL; throws a `DecodingError` naming the byte offset.
    public init(der: [UInt8]) throws(DecodingError) {
        var top = DERReader(der)
        let listNode = try top.read(DERTag.sequence, "a CertificateList SEQUENCE")
        if !top.isAtEnd { throw top.fail("unexpected data after the CRL") }
        var list = top.reader(inside: listNode)
        let tbsNode = try list.read(DERTag.sequence, "tbsCertList")
        let outerAlg = try AlgorithmIdentifier.decode(list, node: try list.read(DERTag.sequence, "signatureAlgorithm"))
        let (signature, unused) = try list.bitString(try list.read(DERTag.bitString, "signatureValue"))
        try list.expectEnd("signatureValue")
        var tbs = list.reader(inside: tbsNode)
        var version = 1
        if let v = try tbs.readOptional(DERTag.integer) {
            guard try tbs.smallInteger(v) == 1 else { throw tbs.fail("unknown CRL version", at: v.start) }
            version = 2
        }
        let innerAlg = try AlgorithmIdentifier.decode(tbs, node: try tbs.read(DERTag.sequence, "signature"))
        guard innerAlg.der == outerAlg.der else {
            throw tbs.fail("signatureAlgorithm differs from tbsCertList.signature (RFC 5280 5.1.1.2)")
        }
        let issuer = try DistinguishedName.decode(tbs, node: try tbs.read(DERTag.sequence, "issuer"))
        let thisUpdate = try tbs.time(try tbs.readNode())
        var nextUpdate: Timestamp?
        if let tag = tbs.peekTag(), tag == DERTag.utcTime || tag == DERTag.generalizedTime {
            nextUpdate = try tbs.time(try tbs.readNode())
        }
        var revoked: [RevokedEntry] = []
        if let seq = try tbs.readOptional(DERTag.sequence) {
            var r = tbs.reader(inside: seq)
            var entryIssuer: [GeneralName]?
            while !r.isAtEnd {
                guard revoked.count < RevocationList.maximumEntries else { throw r.fail("too many CRL entries") }
                let entry = try r.read(DERTag.sequence, "a revokedCertificates entry")
                var e = r.reader(inside: entry)
                let serial = try e.integerBytes(try e.read(DERTag.integer, "userCertificate"))
                let date = try e.time(try e.readNode())
                var one = RevokedEntry(serialNumber: serial, revocationDate: date, hasCriticalExtension: false)
                if let exts = try e.readOptional(DERTag.sequence) {
                    for x in try RevocationList.extensions(e, exts) {
                        one.hasCriticalExtension = one.hasCriticalExtension || x.critical
                        if x.critical, !RevocationList.processedEntryExtensions.contains(x.oid),
                            one.unknownCriticalExtension == nil
                        {
                            one.unknownCriticalExtension = x.oid
                        }
                        var v = DERReader(x.value)
                        if x.oid == RevocationList.reasonCode {
                            one.reason = try v.smallInteger(try v.read(DERTag.enumerated, "a CRLReason"))
                        } else if x.oid == RevocationList.certificateIssuerOID {
                            entryIssuer = try GeneralName.decodeSequence(
                                v, node: try v.read(DERTag.sequence, "a certificateIssuer"))
                        }
                    }
                }
                one.certificateIssuer = entryIssuer
                try e.expectEnd("a revokedCertificates entry")
                revoked.append(one)
            }
        }
        var extensions: [(oid: OID, critical: Bool, value: [UInt8])] = []
        if let wrapper = try tbs.readOptional(DERTag.contextSpecific(0, constructed: true)) {
            guard version == 2 else { throw tbs.fail("crlExtensions need version 2", at: wrapper.start) }
            var w = tbs.reader(inside: wrapper)
            extensions = try RevocationList.extensions(w, try w.read(DERTag.sequence, "crlExtensions"))
            try w.expectEnd("crlExtensions")
        }
        func integerValue(_ oid: OID) throws(DecodingError) -> [UInt8]? {
            guard let x = extensions.first(where: { $0.oid == oid }) else { return nil }
            var v = DERReader(x.value)
            return try v.integerBytes(try v.read(DERTag.integer, "a CRL number"))
        }
        self.crlNumberValue = try integerValue(RevocationList.crlNumber)
        self.deltaBaseCRLNumber = try integerValue(RevocationList.deltaCRLIndicator)
        if let idp = extensions.first(where: { $0.oid == RevocationList.issuingDistributionPointOID }) {
            self.issuingDistributionPoint = try IssuingDistributionPoint.decode(idp.value)
            self.issuingDistributionPointDER = idp.value
        } else {
            self.issuingDistributionPoint = nil
            self.issuingDistributionPointDER = nil
        }
        if let x = extensions.first(where: { $0.oid == RevocationList.freshestCRL }) {
            self.freshestCRLPoints = try DistributionPoint.decodeList(x.value)
        } else {
            self.freshestCRLPoints = nil
        }
        try tbs.expectEnd("tbsCertList")
        guard unused == 0 else { throw list.fail("signatureValue has unused bits", at: tbsNode.end) }
        self.der = der
        self.identity = DigestKey(Digest.sha256(der))
        self.tbsRange = tbsNode.fullRange
        self.version = version
        self.signatureAlgorithm = outerAlg
        self.signature = signature
        self.issuer = issuer
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.revoked = revoked
        self.firstUnknownCriticalEntryExtension = revoked.lazy.compactMap(\.unknownCriticalExtension).first
        self.hasCriticalEntryExtension = firstUnknownCriticalEntryExtension != nil
        self.extensions = extensions.map { ($0.oid, $0.critical) }
    }

    private static func extensions(_ reader: DERReader, _ node: DERNode) throws(DecodingError) -> [(
        oid: OID, critical: Bool, value: [UInt8]
    )] {
        var r = reader.reader(inside: node)
        var out: [(oid: OID, critical: Bool, value: [UInt8])] = []
        while !r.isAtEnd {
            let one = try r.read(DERTag.sequence, "an Extension")
            var x = r.reader(inside: one)
            let oid = try x.objectIdentifier(try x.read(DERTag.oid, "extnID"))
            var critical = false
            if let c = try x.readOptional(DERTag.boolean) { critical = try x.boolean(c) }
            let value = Array(x.content(try x.read(DERTag.octetString, "extnValue")))
            try x.expectEnd("an Extension")
            out.append((oid, critical, value))
        }
        return out
    }

    /// The CRLs in PEM (`X509 CRL` blocks) or DER bytes.
    public static func decodeAll(_ bytes: [UInt8]) throws(DecodingError) -> [RevocationList] {
        if PEM.looksLikePEM(bytes) {
            var out: [RevocationList] = []
            for block in try PEM.blocks(in: bytes) where block.label == "X509 CRL" {
                out.append(try RevocationList(der: block.der))
            }
            if out.isEmpty { throw DecodingError(offset: 0, reason: "no X509 CRL block in PEM input") }
            return out
        }
        return [try RevocationList(der: bytes)]
    }

    /// The bytes the issuer signed.
    public var tbsBytes: ArraySlice<UInt8> { der[tbsRange] }

    /// The signature, for the signature cache.
    package var detachedSignature: DetachedSignature {
        DetachedSignature(identity: identity, algorithm: signatureAlgorithm, signed: tbsBytes, signature: signature)
    }
}
