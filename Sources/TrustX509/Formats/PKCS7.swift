/// PKCS#7 / CMS SignedData certificate bags (RFC 2315 9.1), decoded with the DER reader.
enum PKCS7 {
    static func isPKCS7(_ der: [UInt8]) -> Bool {
        var r = DERReader(der)
        guard let outer = try? r.read(DERTag.sequence, "ContentInfo") else { return false }
        var c = r.reader(inside: outer)
        guard let oidNode = try? c.read(DERTag.oid, "contentType"), let oid = try? c.objectIdentifier(oidNode) else {
            return false
        }
        return oid == .pkcs7SignedData
    }

    static func certificates(_ der: [UInt8]) throws(DecodingError) -> [Certificate] {
        var r = DERReader(der)
        let outer = try r.read(DERTag.sequence, "a PKCS#7 ContentInfo")
        var c = r.reader(inside: outer)
        let oid = try c.objectIdentifier(try c.read(DERTag.oid, "contentType"))
        guard oid == .pkcs7SignedData else { throw c.fail("PKCS#7 content is not SignedData") }
        let explicit = try c.read(DERTag.contextSpecific(0, constructed: true), "[0] content")
        var e = c.reader(inside: explicit)
        let signed = try e.read(DERTag.sequence, "SignedData")
        var s = e.reader(inside: signed)
        _ = try s.read(DERTag.integer, "version")
        _ = try s.read(DERTag.set, "digestAlgorithms")
        _ = try s.read(DERTag.sequence, "contentInfo")
        var certs: [Certificate] = []
        if let bag = try s.readOptional(DERTag.contextSpecific(0, constructed: true)) {
            var b = s.reader(inside: bag)
            while !b.isAtEnd {
                let node = try b.readNode()
                guard node.tag == DERTag.sequence else { continue }
                do {
                    certs.append(try Certificate(der: Array(der[node.fullRange])))
                } catch {
                    throw DecodingError(offset: node.start + error.offset, reason: error.reason)
                }
            }
        }
        if certs.isEmpty { throw DecodingError(offset: 0, reason: "PKCS#7 file holds no certificates") }
        return certs
    }
}
