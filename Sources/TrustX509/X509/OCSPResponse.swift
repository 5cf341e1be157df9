import TrustSupport

/// A successful OCSP response carrying a BasicOCSPResponse (RFC 6960 4.2.1), decoded strictly.
public struct OCSPResponse: Sendable {
    /// The DER of the BasicOCSPResponse.
    public let basicDER: [UInt8]
    /// The SHA-256 of `basicDER`: the signature cache's name for this response.
    let identity: DigestKey
    /// Where tbsResponseData lies in `basicDER`: the bytes the signature covers.
    public let tbsRange: Range<Int>
    /// The signature algorithm.
    public let signatureAlgorithm: AlgorithmIdentifier
    /// The signature's octets.
    public let signature: [UInt8]
    /// The certificates the responder included (a delegated responder's, typically).
    public let certificates: [Certificate]
    /// The responses (at most `maximumResponses`).
    public let responses: [OCSPSingleResponse]

    /// More single responses than this are refused: a bound on attacker-sized input.
    public static let maximumResponses = 1024
    package static let basicType = OID(dotted: "1.3.6.1.5.5.7.48.1.1")!
    static let sha1 = OID(dotted: "1.3.14.3.2.26")!
    static let sha256 = OID(dotted: "2.16.840.1.101.3.4.2.1")!

    /// Decodes an OCSPResponse; throws when it is malformed, not successful or not basic.
    public init(der: [UInt8]) throws(DecodingError) {
        var top = DERReader(der)
        let outer = try top.read(DERTag.sequence, "an OCSPResponse")
        if !top.isAtEnd { throw top.fail("unexpected data after the OCSP response") }
        var o = top.reader(inside: outer)
        let status = try o.read(DERTag.enumerated, "responseStatus")
        guard Array(o.content(status)) == [0] else {
            throw o.fail("responseStatus is not successful", at: status.start)
        }
        let wrapper = try o.read(DERTag.contextSpecific(0, constructed: true), "responseBytes")
        var w = o.reader(inside: wrapper)
        var rb = w.reader(inside: try w.read(DERTag.sequence, "ResponseBytes"))
        let type = try rb.objectIdentifier(try rb.read(DERTag.oid, "responseType"))
        guard type == OCSPResponse.basicType else { throw rb.fail("responseType is not id-pkix-ocsp-basic") }
        let basic = Array(rb.content(try rb.read(DERTag.octetString, "response")))

        var b0 = DERReader(basic)
        let basicNode = try b0.read(DERTag.sequence, "a BasicOCSPResponse")
        var b = b0.reader(inside: basicNode)
        let tbsNode = try b.read(DERTag.sequence, "tbsResponseData")
        let algorithm = try AlgorithmIdentifier.decode(b, node: try b.read(DERTag.sequence, "signatureAlgorithm"))
        let (signature, unused) = try b.bitString(try b.read(DERTag.bitString, "signature"))
        guard unused == 0 else { throw b.fail("signature has unused bits") }
        var certificates: [Certificate] = []
        if let certs = try b.readOptional(DERTag.contextSpecific(0, constructed: true)) {
            var c = b.reader(inside: certs)
            var list = c.reader(inside: try c.read(DERTag.sequence, "certs"))
            while !list.isAtEnd {
                guard certificates.count < 16 else { throw list.fail("too many responder certificates") }
                let node = try list.read(DERTag.sequence, "a Certificate")
                certificates.append(try Certificate(der: Array(basic[node.fullRange])))
            }
        }
        var t = b.reader(inside: tbsNode)
        _ = try t.readOptional(DERTag.contextSpecific(0, constructed: true))  // version v1
        _ = try t.readNode()  // responderID: the signature decides who responded
        _ = try t.time(try t.read(DERTag.generalizedTime, "producedAt"))
        var list = t.reader(inside: try t.read(DERTag.sequence, "responses"))
        var responses: [OCSPSingleResponse] = []
        while !list.isAtEnd {
            guard responses.count < OCSPResponse.maximumResponses else { throw list.fail("too many responses") }
            var s = list.reader(inside: try list.read(DERTag.sequence, "a SingleResponse"))
            var id = s.reader(inside: try s.read(DERTag.sequence, "certID"))
            let hash = try AlgorithmIdentifier.decode(id, node: try id.read(DERTag.sequence, "hashAlgorithm"))
            let nameHash = Array(id.content(try id.read(DERTag.octetString, "issuerNameHash")))
            let keyHash = Array(id.content(try id.read(DERTag.octetString, "issuerKeyHash")))
            let serial = try id.integerBytes(try id.read(DERTag.integer, "serialNumber"))
            let statusNode = try s.readNode()
            let certStatus: OCSPSingleResponse.Status
            switch statusNode.tag {
            case DERTag.contextSpecific(0, constructed: false): certStatus = .good
            case DERTag.contextSpecific(1, constructed: true):
                var r = s.reader(inside: statusNode)
                certStatus = .revoked(try r.time(try r.read(DERTag.generalizedTime, "revocationTime")))
            case DERTag.contextSpecific(2, constructed: false): certStatus = .unknown
            default: throw s.fail("unknown certStatus", at: statusNode.start)
            }
            let thisUpdate = try s.time(try s.read(DERTag.generalizedTime, "thisUpdate"))
            var nextUpdate: Timestamp?
            if let n = try s.readOptional(DERTag.contextSpecific(0, constructed: true)) {
                var r = s.reader(inside: n)
                nextUpdate = try r.time(try r.read(DERTag.generalizedTime, "nextUpdate"))
            }
            var single = OCSPSingleResponse(
                hashAlgorithm: hash.oid, issuerNameHash: nameHash, issuerKeyHash: keyHash, serialNumber: serial,
                status: certStatus, thisUpdate: thisUpdate, nextUpdate: nextUpdate)
            single.sctList = OCSPResponse.sctList(in: &s)
            responses.append(single)
        }
        self.basicDER = basic
        self.identity = DigestKey(Digest.sha256(basic))
        self.tbsRange = tbsNode.fullRange
        self.signatureAlgorithm = algorithm
        self.signature = signature
        self.certificates = certificates
        self.responses = responses
    }

    /// The response about `certificate` issued by `issuer`, matched by CertID (RFC 6960 4.1.1:
    /// hash of the issuer's name and key, and the serial number), or nil.
    public func response(for certificate: Certificate, issuer: Certificate) -> OCSPSingleResponse? {
        // Each digest is computed once, not once per single response (there may be 1,024).
        var sha1: (name: [UInt8], key: [UInt8])?
        var sha256: (name: [UInt8], key: [UInt8])?
        return responses.first { r in
            guard r.serialNumber == certificate.serialNumber else { return false }
            let expected: (name: [UInt8], key: [UInt8])
            switch r.hashAlgorithm {
            case OCSPResponse.sha1:
                if sha1 == nil { sha1 = (Digest.sha1(issuer.subject.der), Digest.sha1(issuer.publicKey.keyBytes)) }
                expected = sha1!
            case OCSPResponse.sha256:
                if sha256 == nil {
                    sha256 = (Digest.sha256(issuer.subject.der), Digest.sha256(issuer.publicKey.keyBytes))
                }
                expected = sha256!
            default: return false
            }
            return r.issuerNameHash == expected.name && r.issuerKeyHash == expected.key
        }
    }

    /// Who signed the response, when it is the issuer itself or a responder certificate the
    /// issuer signed that carries id-kp-OCSPSigning (RFC 6960 4.2.2.2); nil when no such key
    /// verifies the signature.
    public func signer(issuer: Certificate) -> String? {
        let found = signer(
            issuer: issuer,
            verifyResponse: { key, _ in
                SignatureVerifier.verify(
                    algorithm: detachedSignature.algorithm, signed: detachedSignature.signed,
                    signature: signature, key: key)
            },
            verifyCertificate: { SignatureVerifier.verify($0, signedBy: issuer.publicKey) })
        if case .signer(let name) = found { return name }
        return nil
    }

    /// What the search for the response's signer found.
    package enum SignerSearch: Equatable {
        /// The signer's description.
        case signer(String)
        /// No key verifies it; `refusal` says why a signer's key was refused, when one was.
        case none(refusal: String?)
        /// A verification was not allowed (the evaluation's budget or deadline ran out).
        case stopped
    }

    /// The signer search, each verification made by the caller (through a cache, charged to a
    /// budget): `verifyResponse` checks the response's signature with a key (and that key's
    /// identity), `verifyCertificate` a responder certificate's signature by the issuer; either
    /// returns nil to stop the search.
    package func signer(
        issuer: Certificate, verifyResponse: (PublicKeyInfo, DigestKey) -> SignatureCheckResult?,
        verifyCertificate: (Certificate) -> SignatureCheckResult?
    ) -> SignerSearch {
        guard let direct = verifyResponse(issuer.publicKey, issuer.keyIdentity) else { return .stopped }
        if direct == .valid { return .signer(issuer.displayName) }
        var refusal: String?
        if case .refused(let why) = direct { refusal = why }
        for responder in certificates
        where responder.issuer.matches(issuer.subject)
            && responder.extendedKeyUsage?.contains(.ocspSigning) == true
        {
            guard let delegation = verifyCertificate(responder) else { return .stopped }
            guard delegation == .valid else { continue }
            guard let signed = verifyResponse(responder.publicKey, responder.keyIdentity) else { return .stopped }
            if case .refused(let why) = signed, refusal == nil { refusal = why }
            if signed == .valid {
                return .signer("\(responder.displayName), a responder delegated by \(issuer.displayName)")
            }
        }
        return .none(refusal: refusal)
    }

    /// The signature, for the signature cache.
    package var detachedSignature: DetachedSignature {
        DetachedSignature(
            identity: identity, algorithm: signatureAlgorithm, signed: basicDER[tbsRange], signature: signature)
    }
}

extension OCSPResponse {
    static let sctExtension = OID(dotted: "1.3.6.1.4.1.11129.2.4.5")!

    /// The SCT list of a SingleResponse's singleExtensions, read after nextUpdate; nil when there
    /// is none or it does not decode (which leaves the response's status as it was: the SCTs are
    /// what is lost).
    static func sctList(in s: inout DERReader) -> [UInt8]? {
        guard let wrapper = try? s.readOptional(DERTag.contextSpecific(1, constructed: true)) else { return nil }
        var w = s.reader(inside: wrapper)
        guard let list = try? w.read(DERTag.sequence, "singleExtensions") else { return nil }
        var items = w.reader(inside: list)
        var count = 0
        while !items.isAtEnd, count < 64 {
            count += 1
            guard let node = try? items.read(DERTag.sequence, "an extension") else { return nil }
            var e = items.reader(inside: node)
            guard let oidNode = try? e.read(DERTag.oid, "extnID") else { return nil }
            guard Array(e.content(oidNode)) == sctExtension.bytes else { continue }
            _ = try? e.readOptional(DERTag.boolean)
            guard let value = try? e.read(DERTag.octetString, "extnValue") else { return nil }
            var v = DERReader(Array(e.content(value)))
            guard let inner = try? v.read(DERTag.octetString, "SignedCertificateTimestampList") else { return nil }
            return Array(v.content(inner))
        }
        return nil
    }
}
