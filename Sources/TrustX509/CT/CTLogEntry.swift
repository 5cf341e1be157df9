/// What a log signs an SCT over (RFC 6962 3.2): the certificate itself for SCTs delivered beside
/// it (TLS extension, OCSP response), or, for SCTs embedded in it, the precertificate rebuilt
/// from the certificate with the issuer's key hash.
public struct CTLogEntry: Hashable, Sendable {
    /// 0 for x509_entry, 1 for precert_entry.
    public let type: UInt8
    /// The entry as signed: a 24-bit length and the certificate, or the issuer key hash, a 24-bit
    /// length and the precertificate's TBSCertificate.
    public let bytes: [UInt8]

    /// The x509_entry for SCTs delivered beside `certificate`.
    public static func certificate(_ certificate: Certificate) -> CTLogEntry {
        CTLogEntry(type: 0, bytes: length24(certificate.der.count) + certificate.der)
    }

    /// The precert_entry for SCTs embedded in `certificate` issued by the key `issuerSPKI` (DER
    /// SubjectPublicKeyInfo); nil when the certificate's TBSCertificate cannot be rebuilt.
    public static func precertificate(_ certificate: Certificate, issuerSPKI: [UInt8]) -> CTLogEntry? {
        guard let tbs = precertificateTBS(of: certificate) else { return nil }
        return precertificate(tbs: tbs, issuerKeyHash: Digest.sha256(issuerSPKI))
    }

    /// The precert_entry for a precertificate's TBSCertificate and its issuer's key hash.
    public static func precertificate(tbs: [UInt8], issuerKeyHash: [UInt8]) -> CTLogEntry {
        CTLogEntry(type: 1, bytes: issuerKeyHash + length24(tbs.count) + tbs)
    }

    /// The TBSCertificate the log saw: `certificate`'s with the SCT list extension taken out,
    /// everything else as encoded (Security, OSX/sec/Security/SecCertificate.c,
    /// SecCertificateCopyPrecertTBS). Nil when the TBSCertificate does not decode.
    public static func precertificateTBS(of certificate: Certificate) -> [UInt8]? {
        let bytes = Array(certificate.der[certificate.tbsRange])
        var top = DERReader(bytes)
        guard let tbsNode = try? top.read(DERTag.sequence, "tbsCertificate") else { return nil }
        var fields = top.reader(inside: tbsNode)
        var content: [UInt8] = []
        let extensionsTag = DERTag.contextSpecific(3, constructed: true)
        while !fields.isAtEnd {
            guard let node = try? fields.readNode() else { return nil }
            guard node.tag == extensionsTag else {
                content += bytes[node.fullRange]
                continue
            }
            var wrapper = fields.reader(inside: node)
            guard let list = try? wrapper.read(DERTag.sequence, "extensions") else { return nil }
            var items = wrapper.reader(inside: list)
            var kept: [UInt8] = []
            while !items.isAtEnd {
                guard let ext = try? items.read(DERTag.sequence, "an extension") else { return nil }
                var e = items.reader(inside: ext)
                guard let oidNode = try? e.read(DERTag.oid, "extnID") else { return nil }
                if Array(e.content(oidNode)) == OID.sctList.bytes { continue }
                kept += bytes[ext.fullRange]
            }
            content += DERWriter.encode { w in
                w.constructed(tag: extensionsTag) { w in w.element(tag: DERTag.sequence, content: kept) }
            }
        }
        return DERWriter.encode { $0.element(tag: DERTag.sequence, content: content) }
    }

    private static func length24(_ n: Int) -> [UInt8] {
        [UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }
}

extension SignedCertificateTimestamp {
    /// Whether `key` (a log's DER SubjectPublicKeyInfo) signed this SCT over `entry`.
    public func verify(over entry: CTLogEntry, key: PublicKeyInfo) -> SignatureCheckResult {
        guard let algorithm = signatureAlgorithmIdentifier else {
            return .unsupported(
                "signature algorithm \(signatureAlgorithm) with hash \(hashAlgorithm) is not one trustd accepts")
        }
        return SignatureVerifier.verify(
            algorithm: algorithm, signed: ArraySlice(signedData(over: entry)), signature: signature, key: key)
    }
}

extension PublicKeyInfo {
    /// Decodes a DER SubjectPublicKeyInfo on its own (a CT log's key, say).
    public init(spkiDER: [UInt8]) throws(DecodingError) {
        var r = DERReader(spkiDER)
        let node = try r.read(DERTag.sequence, "a SubjectPublicKeyInfo")
        try r.expectEnd("the SubjectPublicKeyInfo")
        self = try PublicKeyInfo.decode(r, node: node)
    }
}

extension DetachedSignature {
    /// A signature over `signed`, named `identity` in the signature cache (an SCT's, say).
    package static func over(
        _ signed: ArraySlice<UInt8>, identity: DigestKey, algorithm: AlgorithmIdentifier, signature: [UInt8]
    ) -> DetachedSignature {
        DetachedSignature(identity: identity, algorithm: algorithm, signed: signed, signature: signature)
    }
}
