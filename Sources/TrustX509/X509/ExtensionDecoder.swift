/// Decodes the extnValue of the extension types trustx knows.
enum ExtensionDecoder {
    static func decode(oid: OID, value: [UInt8]) -> ExtensionValue {
        do {
            return try decodeThrowing(oid: oid, value: value)
        } catch {
            return .raw(error: error.description)
        }
    }

    private static func decodeThrowing(oid: OID, value: [UInt8]) throws(DecodingError) -> ExtensionValue {
        var r = DERReader(value)
        let result: ExtensionValue
        switch oid {
        case .basicConstraints:
            let seq = try r.read(DERTag.sequence, "BasicConstraints")
            var s = r.reader(inside: seq)
            var isCA = false
            if let b = try s.readOptional(DERTag.boolean) {
                isCA = try s.boolean(b)
                if !isCA { throw s.fail("cA FALSE must be omitted in DER", at: b.start) }
            }
            var pathLength: Int?
            if let p = try s.readOptional(DERTag.integer) {
                let raw = try s.integerBytes(p)
                guard raw[0] & 0x80 == 0 else { throw s.fail("negative pathLenConstraint", at: p.start) }
                // Absurd path lengths are as good as unlimited.
                pathLength = raw.count > 4 ? Int(Int32.max) : try s.smallInteger(p)
            }
            try s.expectEnd("BasicConstraints")
            result = .basicConstraints(BasicConstraints(isCA: isCA, pathLength: pathLength))
        case .keyUsage:
            let (bytes, _) = try r.bitString(try r.read(DERTag.bitString, "KeyUsage"))
            var bits: UInt16 = 0
            for (i, byte) in bytes.prefix(2).enumerated() {
                for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                    bits |= 1 << UInt16(i * 8 + bit)
                }
            }
            result = .keyUsage(KeyUsage(bits: bits))
        case .extKeyUsage:
            let seq = try r.read(DERTag.sequence, "ExtKeyUsageSyntax")
            var s = r.reader(inside: seq)
            var oids: [OID] = []
            while !s.isAtEnd { oids.append(try s.objectIdentifier(try s.read(DERTag.oid, "a KeyPurposeId"))) }
            if oids.isEmpty { throw r.fail("empty ExtKeyUsageSyntax", at: seq.start) }
            result = .extendedKeyUsage(oids)
        case .subjectAltName, .issuerAltName:
            let seq = try r.read(DERTag.sequence, "GeneralNames")
            let names = try GeneralName.decodeSequence(r, node: seq)
            if names.isEmpty { throw r.fail("empty GeneralNames", at: seq.start) }
            result = oid == .subjectAltName ? .subjectAltName(names) : .issuerAltName(names)
        case .nameConstraints:
            let seq = try r.read(DERTag.sequence, "NameConstraints")
            var s = r.reader(inside: seq)
            func subtrees(_ tag: UInt8) throws(DecodingError) -> [GeneralSubtree]? {
                guard let node = try s.readOptional(tag) else { return nil }
                var t = s.reader(inside: node)
                var out: [GeneralSubtree] = []
                while !t.isAtEnd {
                    let st = try t.read(DERTag.sequence, "a GeneralSubtree")
                    var str = t.reader(inside: st)
                    let base = try GeneralName.decode(str, node: try str.readNode())
                    // RFC 5280 4.2.1.10: minimum MUST be zero, maximum MUST be absent.
                    if let minNode = try str.readOptional(DERTag.contextSpecific(0, constructed: false)) {
                        throw str.fail("GeneralSubtree minimum must be omitted", at: minNode.start)
                    }
                    if let maxNode = try str.readOptional(DERTag.contextSpecific(1, constructed: false)) {
                        throw str.fail("GeneralSubtree maximum must be absent", at: maxNode.start)
                    }
                    try str.expectEnd("GeneralSubtree")
                    out.append(GeneralSubtree(base: base))
                }
                if out.isEmpty { throw s.fail("empty GeneralSubtrees", at: node.start) }
                return out
            }
            let permitted = try subtrees(DERTag.contextSpecific(0, constructed: true))
            let excluded = try subtrees(DERTag.contextSpecific(1, constructed: true))
            try s.expectEnd("NameConstraints")
            // RFC 5280 4.2.1.10: conforming CAs MUST NOT issue an empty NameConstraints.
            if permitted == nil && excluded == nil { throw r.fail("empty NameConstraints", at: seq.start) }
            result = .nameConstraints(NameConstraints(permitted: permitted, excluded: excluded))
        case .authorityKeyIdentifier:
            let seq = try r.read(DERTag.sequence, "AuthorityKeyIdentifier")
            var s = r.reader(inside: seq)
            var aki = AuthorityKeyIdentifier()
            if let k = try s.readOptional(DERTag.contextSpecific(0, constructed: false)) {
                aki.keyIdentifier = Array(s.content(k))
            }
            if let i = try s.readOptional(DERTag.contextSpecific(1, constructed: true)) {
                aki.issuer = try GeneralName.decodeSequence(s, node: i)
            }
            if let n = try s.readOptional(DERTag.contextSpecific(2, constructed: false)) {
                aki.serialNumber = Array(s.content(n))
            }
            try s.expectEnd("AuthorityKeyIdentifier")
            result = .authorityKeyIdentifier(aki)
        case .subjectKeyIdentifier:
            result = .subjectKeyIdentifier(Array(r.content(try r.read(DERTag.octetString, "SubjectKeyIdentifier"))))
        case .authorityInfoAccess:
            let seq = try r.read(DERTag.sequence, "AuthorityInfoAccessSyntax")
            var s = r.reader(inside: seq)
            var out: [AccessDescription] = []
            while !s.isAtEnd {
                let ad = try s.read(DERTag.sequence, "an AccessDescription")
                var a = s.reader(inside: ad)
                let method = try a.objectIdentifier(try a.read(DERTag.oid, "accessMethod"))
                let location = try GeneralName.decode(a, node: try a.readNode())
                try a.expectEnd("AccessDescription")
                out.append(AccessDescription(method: method, location: location))
            }
            result = .authorityInfoAccess(out)
        case .crlDistributionPoints:
            let seq = try r.read(DERTag.sequence, "CRLDistributionPoints")
            var s = r.reader(inside: seq)
            var names: [GeneralName] = []
            while !s.isAtEnd {
                let dp = try s.read(DERTag.sequence, "a DistributionPoint")
                var d = s.reader(inside: dp)
                if let dpName = try d.readOptional(DERTag.contextSpecific(0, constructed: true)) {
                    var n = d.reader(inside: dpName)
                    if let full = try n.readOptional(DERTag.contextSpecific(0, constructed: true)) {
                        names += try GeneralName.decodeSequence(n, node: full)
                    }
                }
            }
            result = .crlDistributionPoints(names)
        case .certificatePolicies:
            let seq = try r.read(DERTag.sequence, "certificatePolicies")
            var s = r.reader(inside: seq)
            var oids: [OID] = []
            while !s.isAtEnd {
                let pi = try s.read(DERTag.sequence, "a PolicyInformation")
                var p = s.reader(inside: pi)
                let policy = try p.objectIdentifier(try p.read(DERTag.oid, "policyIdentifier"))
                // RFC 5280 4.2.1.4: a policy OID MUST NOT appear more than once.
                if oids.contains(policy) { throw p.fail("policy \(policy.name) appears twice", at: pi.start) }
                oids.append(policy)
            }
            if oids.isEmpty { throw r.fail("empty certificatePolicies", at: seq.start) }
            result = .certificatePolicies(oids)
        case .policyConstraints:
            let seq = try r.read(DERTag.sequence, "PolicyConstraints")
            var s = r.reader(inside: seq)
            var explicit: Int?
            var inhibit: Int?
            if let n = try s.readOptional(DERTag.contextSpecific(0, constructed: false)) {
                explicit = try s.smallInteger(
                    DERNode(tag: DERTag.integer, start: n.start, contentStart: n.contentStart, end: n.end))
            }
            if let n = try s.readOptional(DERTag.contextSpecific(1, constructed: false)) {
                inhibit = try s.smallInteger(
                    DERNode(tag: DERTag.integer, start: n.start, contentStart: n.contentStart, end: n.end))
            }
            try s.expectEnd("PolicyConstraints")
            result = .policyConstraints(requireExplicit: explicit, inhibitMapping: inhibit)
        case .inhibitAnyPolicy:
            result = .inhibitAnyPolicy(try r.smallInteger(try r.read(DERTag.integer, "SkipCerts")))
        case .policyMappings:
            let seq = try r.read(DERTag.sequence, "PolicyMappings")
            var s = r.reader(inside: seq)
            var count = 0
            while !s.isAtEnd {
                _ = try s.read(DERTag.sequence, "a policy mapping")
                count += 1
            }
            result = .policyMappings(count: count)
        case .sctList:
            let outer = try r.read(DERTag.octetString, "SignedCertificateTimestampList")
            result = .signedCertificateTimestamps(try decodeSCTs(Array(r.content(outer)), base: outer.contentStart))
        case .ctPoison:
            _ = try r.read(DERTag.null, "NULL")
            result = .ctPoison
        default:
            return .raw(error: nil)
        }
        try r.expectEnd("the extension value")
        return result
    }

    /// RFC 6962 3.3: a TLS-encoded list of TLS-encoded SCTs, each led by a 2-byte length.
    private static func decodeSCTs(_ b: [UInt8], base: Int) throws(DecodingError) -> [EmbeddedSCT] {
        func u16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        guard b.count >= 2, u16(0) == b.count - 2 else {
            throw DecodingError(offset: base, reason: "SCT list length does not match")
        }
        var i = 2
        var out: [EmbeddedSCT] = []
        while i < b.count {
            guard i + 2 <= b.count else { throw DecodingError(offset: base + i, reason: "truncated SCT") }
            let length = u16(i)
            i += 2
            guard length >= 41, i + length <= b.count else {
                throw DecodingError(offset: base + i, reason: "truncated SCT")
            }
            var ts: UInt64 = 0
            for k in 0..<8 { ts = ts << 8 | UInt64(b[i + 33 + k]) }
            out.append(EmbeddedSCT(version: b[i], logID: Array(b[(i + 1)..<(i + 33)]), timestampMilliseconds: ts))
            i += length
        }
        return out
    }
}
