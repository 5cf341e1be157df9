import TrustSupport

/// An X.509 certificate with every field decoded, its DER, fingerprints and SPKI pin.
///
/// Immutable; a class so that paths, pools and caches share one decoded copy.
public final class Certificate: Hashable, Sendable, CustomStringConvertible {
    /// The certificate's DER encoding.
    public let der: [UInt8]
    /// Where tbsCertificate lies inside `der`: the bytes the signature covers.
    public let tbsRange: Range<Int>
    /// The X.509 version (1, 2 or 3).
    public let version: Int
    /// The serial number's content octets (two's complement, as encoded).
    public let serialNumber: [UInt8]
    /// The outer signatureAlgorithm.
    public let signatureAlgorithm: AlgorithmIdentifier
    /// The signature field inside tbsCertificate (must equal the outer one).
    public let tbsSignatureAlgorithm: AlgorithmIdentifier
    /// The issuer name.
    public let issuer: DistinguishedName
    /// The subject name.
    public let subject: DistinguishedName
    /// Start of validity.
    public let notBefore: Timestamp
    /// End of validity (inclusive, RFC 5280 4.1.2.5).
    public let notAfter: Timestamp
    /// The subject public key.
    public let publicKey: PublicKeyInfo
    /// Every extension, in encoded order.
    public let extensions: [Extension]
    /// The signature value's octets.
    public let signature: [UInt8]
    /// The signature BIT STRING's unused-bits count; anything but 0 makes the signature fail.
    public let signatureUnusedBits: Int
    /// SHA-256 of the DER.
    public let sha256: [UInt8]
    /// SHA-1 of the DER.
    public let sha1: [UInt8]
    /// SHA-256 of the DER SubjectPublicKeyInfo: the value SPKI pins compare.
    public let spkiSHA256: [UInt8]
    /// `sha256` as a cheap hashing key.
    public let identity: DigestKey
    /// `spkiSHA256` as a cheap hashing key.
    public let keyIdentity: DigestKey
    /// Problems that do not stop decoding but make the certificate non-compliant
    /// (duplicate extensions, malformed known extensions, mismatched signature fields).
    public let complianceIssues: [ComplianceIssue]
    /// The first critical extension trustx does not enforce, if any (decided once here: every
    /// evaluation asks).
    public let firstUnknownCriticalExtension: Extension?
    /// Known extensions whose value Apple's parser could not read (Apple UnparseableExtension).
    public let appleUnparseableExtensions: [Extension]

    // Decoded once here because every evaluation consults them.
    /// basicConstraints, if present.
    public let basicConstraints: BasicConstraints?
    /// keyUsage, if present.
    public let keyUsage: KeyUsage?
    /// extKeyUsage purposes, if present.
    public let extendedKeyUsage: [OID]?
    /// subjectAltName entries, if present.
    public let subjectAltNames: [GeneralName]?
    /// nameConstraints, if present.
    public let nameConstraints: NameConstraints?
    /// authorityKeyIdentifier, if present.
    public let authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// subjectKeyIdentifier, if present.
    public let subjectKeyIdentifier: [UInt8]?
    /// authorityInfoAccess entries, if present.
    public let authorityInfoAccess: [AccessDescription]?
    /// The extensions policy processing reads (RFC 5280 6.1).
    public let policyExtensions: PolicyExtensions

    /// Decodes one DER certificate. Throws a `DecodingError` naming the byte offset; never traps.
    public convenience init(der: [UInt8]) throws(DecodingError) {
        try self.init(decoding: der)
    }

    private init(decoding der: [UInt8]) throws(DecodingError) {
        var top = DERReader(der)
        let certNode = try top.read(DERTag.sequence, "a Certificate SEQUENCE")
        if !top.isAtEnd { throw top.fail("unexpected data after the certificate") }
        var cert = top.reader(inside: certNode)
        let tbsNode = try cert.read(DERTag.sequence, "tbsCertificate")
        let outerAlg = try AlgorithmIdentifier.decode(cert, node: try cert.read(DERTag.sequence, "signatureAlgorithm"))
        let sigNode = try cert.read(DERTag.bitString, "signatureValue")
        try cert.expectEnd("signatureValue")
        // Read as Apple's parser does (libDER DERParseBitString): the unused-bits count must be
        // below 8 and is returned, not refused; a non-zero count makes the signature fail.
        let sigContent = cert.content(sigNode)
        guard let unusedByte = sigContent.first, unusedByte < 8 else {
            throw cert.fail("signatureValue is not a BIT STRING with fewer than 8 unused bits", at: sigNode.start)
        }
        let signature = Array(sigContent.dropFirst())
        let unused = Int(unusedByte)

        var tbs = cert.reader(inside: tbsNode)
        var version = 1
        if let v = try tbs.readOptional(DERTag.contextSpecific(0, constructed: true)) {
            var vr = tbs.reader(inside: v)
            let raw = try vr.smallInteger(try vr.read(DERTag.integer, "version"))
            try vr.expectEnd("version")
            guard (0...2).contains(raw) else { throw tbs.fail("unknown certificate version \(raw)", at: v.start) }
            // RFC 5280 4.1: DER omits the DEFAULT v1, so an explicit v1 is not DER.
            guard raw != 0 else { throw tbs.fail("explicit version v1 is not DER", at: v.start) }
            version = raw + 1
        }
        let serialNode = try tbs.read(DERTag.integer, "serialNumber")
        let serial = try tbs.integerBytes(serialNode)
        let innerAlg = try AlgorithmIdentifier.decode(tbs, node: try tbs.read(DERTag.sequence, "signature"))
        let issuer = try DistinguishedName.decode(tbs, node: try tbs.read(DERTag.sequence, "issuer"))
        let validity = try tbs.read(DERTag.sequence, "validity")
        var vr = tbs.reader(inside: validity)
        let notBefore = try vr.time(try vr.readNode())
        let notAfter = try vr.time(try vr.readNode())
        try vr.expectEnd("validity")
        let subject = try DistinguishedName.decode(tbs, node: try tbs.read(DERTag.sequence, "subject"))
        let spki = try PublicKeyInfo.decode(tbs, node: try tbs.read(DERTag.sequence, "subjectPublicKeyInfo"))
        if let u = try tbs.readOptional(DERTag.contextSpecific(1, constructed: false)) {
            guard version >= 2 else { throw tbs.fail("issuerUniqueID needs version 2 or 3", at: u.start) }
        }
        if let u = try tbs.readOptional(DERTag.contextSpecific(2, constructed: false)) {
            guard version >= 2 else { throw tbs.fail("subjectUniqueID needs version 2 or 3", at: u.start) }
        }
        var extensions: [Extension] = []
        var issues: [ComplianceIssue] = []
        if let e = try tbs.readOptional(DERTag.contextSpecific(3, constructed: true)) {
            guard version == 3 else { throw tbs.fail("extensions need version 3", at: e.start) }
            var er = tbs.reader(inside: e)
            let list = try er.read(DERTag.sequence, "Extensions")
            try er.expectEnd("Extensions")
            var lr = er.reader(inside: list)
            // RFC 5280 4.1.2.9: if present, the sequence holds one or more extensions.
            if lr.isAtEnd { throw er.fail("empty Extensions sequence", at: list.start) }
            var seen = Set<OID>()
            while !lr.isAtEnd {
                let one = try lr.read(DERTag.sequence, "an Extension")
                var x = lr.reader(inside: one)
                let oid = try x.objectIdentifier(try x.read(DERTag.oid, "extnID"))
                var critical = false
                if let c = try x.readOptional(DERTag.boolean) {
                    critical = try x.boolean(c)
                    // DER: a DEFAULT FALSE value is omitted, never encoded.
                    if !critical { issues.append(.encodedCriticalFalse(oid)) }
                }
                let valueNode = try x.read(DERTag.octetString, "extnValue")
                try x.expectEnd("extnValue")
                let value = Array(x.content(valueNode))
                if !seen.insert(oid).inserted {
                    issues.append(.duplicateExtension(oid))
                }
                let decoded = ExtensionDecoder.decode(oid: oid, value: value)
                if case .raw(let error?) = decoded {
                    issues.append(.malformedExtension(oid, reason: error))
                }
                extensions.append(Extension(oid: oid, critical: critical, value: value, decoded: decoded))
            }
        }
        try tbs.expectEnd("tbsCertificate")
        if innerAlg.der != outerAlg.der {
            issues.append(.signatureAlgorithmMismatch)
        }

        self.der = der
        self.tbsRange = tbsNode.fullRange
        self.version = version
        self.serialNumber = serial
        self.signatureAlgorithm = outerAlg
        self.tbsSignatureAlgorithm = innerAlg
        self.issuer = issuer
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.publicKey = spki
        self.extensions = extensions
        self.signature = signature
        self.signatureUnusedBits = unused
        let sha256 = Digest.sha256(der)
        self.sha256 = sha256
        self.sha1 = Digest.sha1(der)
        self.spkiSHA256 = Digest.sha256(spki.der)
        self.identity = DigestKey(sha256)
        self.keyIdentity = DigestKey(spkiSHA256)
        self.complianceIssues = issues
        self.firstUnknownCriticalExtension = extensions.first { $0.critical && !$0.isKnown }
        self.name = Certificate.displayName(subject: subject, sha256: sha256)
        self.appleUnparseableExtensions = extensions.filter(\.isAppleUnparseable)

        var bc: BasicConstraints?
        var ku: KeyUsage?
        var eku: [OID]?
        var san: [GeneralName]?
        var nc: NameConstraints?
        var aki: AuthorityKeyIdentifier?
        var ski: [UInt8]?
        var aia: [AccessDescription]?
        for ext in extensions {
            switch ext.decoded {
            case .basicConstraints(let v): bc = bc ?? v
            case .keyUsage(let v): ku = ku ?? v
            case .extendedKeyUsage(let v): eku = eku ?? v
            case .subjectAltName(let v): san = san ?? v
            case .nameConstraints(let v): nc = nc ?? v
            case .authorityKeyIdentifier(let v): aki = aki ?? v
            case .subjectKeyIdentifier(let v): ski = ski ?? v
            case .authorityInfoAccess(let v): aia = aia ?? v
            default: break
            }
        }
        basicConstraints = bc
        keyUsage = ku
        extendedKeyUsage = eku
        subjectAltNames = san
        nameConstraints = nc
        authorityKeyIdentifier = aki
        subjectKeyIdentifier = ski
        authorityInfoAccess = aia
        policyExtensions = PolicyExtensions(extensions)
    }

    /// The bytes the issuer signed (tbsCertificate).
    public var tbsBytes: ArraySlice<UInt8> { der[tbsRange] }

    /// The first extension of type `oid`.
    public func `extension`(_ oid: OID) -> Extension? { extensions.first { $0.oid == oid } }

    /// Whether subject and issuer names match (self-issued, RFC 5280 6.1).
    public var isSelfIssued: Bool { subject.matches(issuer) }

    /// The SPKI pin as base64 (`openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`).
    public var spkiPin: String { Base64.encode(spkiSHA256) }

    /// The SAN dNSName entries.
    public var dnsNames: [String] {
        (subjectAltNames ?? []).compactMap { if case .dnsName(let n) = $0 { return n } else { return nil } }
    }

    /// The SAN iPAddress entries.
    public var ipAddresses: [[UInt8]] {
        (subjectAltNames ?? []).compactMap { if case .ipAddress(let a) = $0 { return a } else { return nil } }
    }

    /// A short label: the first CN, else the whole subject, else the SHA-256 prefix.
    public var displayName: String { name }

    /// `displayName`, made once: findings and reports ask for it on every evaluation.
    private let name: String

    static func displayName(subject: DistinguishedName, sha256: [UInt8]) -> String {
        if let cn = subject.attributes.first(where: { $0.type == .commonName }), !cn.value.isEmpty {
            return cn.displayValue
        }
        if !subject.isEmpty { return subject.description }
        return "certificate " + hexString(sha256.prefix(8))
    }

    /// The subject in one line.
    public var description: String { subject.description }

    /// Certificates are equal when their DER is.
    public static func == (a: Certificate, b: Certificate) -> Bool { a === b || a.identity == b.identity }

    /// Hashes the fingerprint.
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}
