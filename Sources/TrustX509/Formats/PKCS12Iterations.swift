/// The iteration counts of a PKCS#12 file's password-based MAC and encryption, read with the DER
/// reader before OpenSSL sees the file: a 1 KB file can otherwise ask for 2^31 - 1 rounds of key
/// derivation, minutes of work before "wrong password" (D46).
enum PKCS12Iterations {
    /// The most rounds of key derivation one file may ask for, all counts together. Export tools
    /// use 2,000 to 10,000 per count and OWASP's recommendation for PBKDF2 is 600,000; on the
    /// 2-core development machine 1,000,000 rounds take about a third of a second.
    static let maximumTotal = 3_000_000

    /// 1.2.840.113549.1.12.1, the PKCS#12 PBE algorithms (RFC 7292 Appendix C).
    static let pkcs12PBEPrefix: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01]
    /// 1.2.840.113549.1.5, PKCS#5: PBES1 algorithms, PBKDF2 and PBES2 (RFC 8018 Appendix A).
    static let pbes1Prefix: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05]
    static let pbes2 = OID(dotted: "1.2.840.113549.1.5.13")!
    static let pbkdf2 = OID(dotted: "1.2.840.113549.1.5.12")!
    static let data = OID(dotted: "1.2.840.113549.1.7.1")!
    static let encryptedData = OID(dotted: "1.2.840.113549.1.7.6")!
    static let shroudedKeyBag = OID(dotted: "1.2.840.113549.1.12.10.1.2")!

    static let safeContentsBag = OID(dotted: "1.2.840.113549.1.12.10.1.6")!
    /// Safe contents nested in bags deeper than this are refused.
    static let maximumBagNesting = 4

    /// What the reader saw of a file's key derivation before decryption.
    struct Inspection: Equatable {
        /// Every count read, added up (a MAC without a count counts 1, its default).
        var total: Int
        /// Whether the file has a MAC.
        var hasMAC: Bool
    }

    /// The counts of `file` (DER or BER) outside its encrypted parts, or why they cannot all be
    /// read.
    static func inspect(_ file: [UInt8]) -> Result<Inspection, DecodingError> {
        var inspection = Inspection(total: 0, hasMAC: false)
        do throws(DecodingError) {
            let der = try BERNormalizer.normalized(file[...])
            // RFC 7292 4: PFX ::= SEQUENCE { version, authSafe ContentInfo, macData MacData OPTIONAL }
            var r = DERReader(der)
            let pfx = try r.read(DERTag.sequence, "PFX")
            var p = r.reader(inside: pfx)
            _ = try p.read(DERTag.integer, "version")
            let authSafe = try p.read(DERTag.sequence, "authSafe")
            if let macData = try p.readOptional(DERTag.sequence) {
                // MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }
                inspection.hasMAC = true
                var m = p.reader(inside: macData)
                _ = try m.read(DERTag.sequence, "mac")
                _ = try m.read(DERTag.octetString, "macSalt")
                if let node = try m.readOptional(DERTag.integer) {
                    inspection.total += try count(m, node)
                } else {
                    inspection.total += 1
                }
            }
            inspection.total += try encryptionCounts(authSafe: authSafe, in: p)
        } catch {
            return .failure(error)
        }
        return .success(inspection)
    }

    /// Why the file is refused, or nil when every count outside its encrypted parts was read and
    /// they are within the bound. The counts inside the encrypted parts are read after decrypting
    /// them (`PKCS12.open`), with `bagCounts`.
    static func refusal(_ der: [UInt8]) -> String? {
        switch inspect(der) {
        case .success(let inspection): refusal(total: inspection.total)
        case .failure(let error):
            // Whatever the MAC, OpenSSL would run the counts it can read and trustx cannot.
            "PKCS#12: the key-derivation parameters cannot all be read, so the file is refused (byte \(error.offset): \(error.reason))"
        }
    }

    /// Why `total` rounds are refused, or nil.
    static func refusal(total: Int) -> String? {
        guard total > maximumTotal else { return nil }
        return
            "PKCS#12: the file asks for \(total) rounds of password-based key derivation, over the bound of \(maximumTotal); no export tool uses this many"
    }

    /// An iteration count; a number too large for `Int` counts as over the bound.
    static func count(_ r: DERReader, _ node: DERNode) throws(DecodingError) -> Int {
        let bytes = try r.integerBytes(node)
        guard bytes.first.map({ $0 & 0x80 == 0 }) ?? false else { throw r.fail("negative iteration count") }
        let magnitude = bytes.drop { $0 == 0 }
        guard magnitude.count <= 4 else { return maximumTotal + 1 }
        return magnitude.reduce(0) { $0 << 8 | Int($1) }
    }

    /// The counts of every encrypted ContentInfo and every shrouded key bag visible without
    /// decrypting (RFC 7292 4.1 and 4.2).
    static func encryptionCounts(authSafe: DERNode, in parent: DERReader) throws(DecodingError) -> Int {
        var c = parent.reader(inside: authSafe)
        guard try c.objectIdentifier(try c.read(DERTag.oid, "contentType")) == data else { return 0 }
        var safes = try octets(in: c)
        let list = try safes.read(DERTag.sequence, "AuthenticatedSafe")
        var l = safes.reader(inside: list)
        var total = 0
        while !l.isAtEnd {
            let info = try l.read(DERTag.sequence, "ContentInfo")
            var i = l.reader(inside: info)
            let type = try i.objectIdentifier(try i.read(DERTag.oid, "contentType"))
            if type == data {
                var bags = try octets(in: i)
                total += try bagCounts(&bags, depth: 0)
            } else if type == encryptedData {
                var e = i.reader(inside: try i.read(DERTag.contextSpecific(0, constructed: true), "content"))
                var d = e.reader(inside: try e.read(DERTag.sequence, "EncryptedData"))
                _ = try d.read(DERTag.integer, "version")
                var info = d.reader(inside: try d.read(DERTag.sequence, "EncryptedContentInfo"))
                _ = try info.read(DERTag.oid, "contentType")
                total += try algorithmCount(&info)
            } else {
                // envelopedData (public-key encryption) and anything else: OpenSSL's parser
                // skips them; they are refused here rather than guessed at.
                throw i.fail("a ContentInfo of type \(type.name) that trustx cannot inspect")
            }
        }
        return total
    }

    /// The counts of the shrouded key bags in a SafeContents (RFC 7292 4.2), nested safe
    /// contents included, read from `r` (one SEQUENCE OF SafeBag, DER or BER).
    static func bagCounts(_ r: inout DERReader, depth: Int) throws(DecodingError) -> Int {
        guard depth <= maximumBagNesting else { throw r.fail("safe contents nested too deep") }
        let contents = try r.read(DERTag.sequence, "SafeContents")
        var b = r.reader(inside: contents)
        var total = 0
        while !b.isAtEnd {
            let bag = try b.read(DERTag.sequence, "SafeBag")
            var s = b.reader(inside: bag)
            let id = try s.objectIdentifier(try s.read(DERTag.oid, "bagId"))
            guard id == shroudedKeyBag || id == safeContentsBag else { continue }
            var v = s.reader(inside: try s.read(DERTag.contextSpecific(0, constructed: true), "bagValue"))
            if id == safeContentsBag {
                total += try bagCounts(&v, depth: depth + 1)
            } else {
                var k = v.reader(inside: try v.read(DERTag.sequence, "EncryptedPrivateKeyInfo"))
                total += try algorithmCount(&k)
            }
        }
        return total
    }

    /// The counts of the bags of one decrypted SafeContents (its DER or BER).
    static func bagCounts(decrypted: [UInt8]) throws(DecodingError) -> Int {
        var r = DERReader(try BERNormalizer.normalized(decrypted[...]))
        return try bagCounts(&r, depth: 0)
    }

    /// A reader over the OCTET STRING in `[0] EXPLICIT` content of a ContentInfo, whose octets
    /// are themselves DER or BER.
    static func octets(in r: DERReader) throws(DecodingError) -> DERReader {
        var r = r
        var e = r.reader(inside: try r.read(DERTag.contextSpecific(0, constructed: true), "content"))
        return DERReader(try BERNormalizer.normalized(e.content(try e.read(DERTag.octetString, "data"))))
    }

    /// The count in the next AlgorithmIdentifier: PKCS#12 PBE and PBES1 parameters
    /// (`SEQUENCE { salt, iterations }`) or PBES2 with PBKDF2 (RFC 8018 A.2, A.4). Other key
    /// derivations are refused as unreadable.
    static func algorithmCount(_ r: inout DERReader) throws(DecodingError) -> Int {
        var a = r.reader(inside: try r.read(DERTag.sequence, "AlgorithmIdentifier"))
        let oid = try a.objectIdentifier(try a.read(DERTag.oid, "algorithm"))
        if oid.bytes.starts(with: pkcs12PBEPrefix) || (oid.bytes.starts(with: pbes1Prefix) && oid != pbes2) {
            var params = a.reader(inside: try a.read(DERTag.sequence, "PBEParameter"))
            _ = try params.read(DERTag.octetString, "salt")
            return try count(params, try params.read(DERTag.integer, "iterations"))
        }
        guard oid == pbes2 else { throw a.fail("unknown encryption algorithm") }
        var params = a.reader(inside: try a.read(DERTag.sequence, "PBES2-params"))
        var kdf = params.reader(inside: try params.read(DERTag.sequence, "keyDerivationFunc"))
        guard try kdf.objectIdentifier(try kdf.read(DERTag.oid, "kdf")) == pbkdf2 else {
            throw kdf.fail("key derivation other than PBKDF2")
        }
        var p = kdf.reader(inside: try kdf.read(DERTag.sequence, "PBKDF2-params"))
        _ = try p.readNode()  // salt
        return try count(p, try p.read(DERTag.integer, "iterationCount"))
    }
}
