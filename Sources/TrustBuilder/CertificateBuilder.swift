internal import COpenSSL
import TrustSupport
import TrustX509

/// Writes and signs X.509 v3 (or v1) certificates in process, for tests and the lab.
///
/// Everything is a plain field with a sensible default; set what a scenario needs and call
/// `sign(issuerKey:issuer:)` or `selfSign(key:)`:
///
/// ```swift
/// let rootKey = try KeyPair.generate(.ecP256)
/// var root = CertificateBuilder(subject: NameBuilder(commonName: "Lab Root"), publicKey: rootKey,
///     notBefore: start, notAfter: end)
/// root.basicConstraints = .init(isCA: true)
/// root.keyUsage = .init([.keyCertSign, .cRLSign])
/// let rootCert = try root.selfSign(key: rootKey)
/// ```
public struct CertificateBuilder: Sendable {
    /// basicConstraints (RFC 5280 4.2.1.9).
    public struct BasicConstraintsExtension: Hashable, Sendable {
        /// cA (FALSE is omitted from the encoding, as DER requires).
        public var isCA: Bool
        /// pathLenConstraint, if any.
        public var pathLength: Int?
        /// Whether the extension is marked critical (RFC 5280 wants it critical on CAs).
        public var critical: Bool
        /// Creates the extension.
        public init(isCA: Bool, pathLength: Int? = nil, critical: Bool = true) {
            self.isCA = isCA
            self.pathLength = pathLength
            self.critical = critical
        }
    }

    /// keyUsage (RFC 5280 4.2.1.3).
    public struct KeyUsageExtension: Hashable, Sendable {
        /// The bits set.
        public var bits: Set<KeyUsageBit>
        /// Whether the extension is marked critical.
        public var critical: Bool
        /// Creates the extension.
        public init(_ bits: Set<KeyUsageBit>, critical: Bool = true) {
            self.bits = bits
            self.critical = critical
        }
    }

    /// extKeyUsage (RFC 5280 4.2.1.12).
    public struct ExtendedKeyUsageExtension: Hashable, Sendable {
        /// The purposes, in order.
        public var purposes: [KeyPurpose]
        /// Whether the extension is marked critical.
        public var critical: Bool
        /// Creates the extension.
        public init(_ purposes: [KeyPurpose], critical: Bool = false) {
            self.purposes = purposes
            self.critical = critical
        }
    }

    /// subjectAltName (RFC 5280 4.2.1.6).
    public struct SubjectAltNameExtension: Hashable, Sendable {
        /// The names, in order.
        public var names: [GeneralName]
        /// Whether the extension is marked critical (required when the subject is empty).
        public var critical: Bool
        /// Creates the extension.
        public init(_ names: [GeneralName], critical: Bool = false) {
            self.names = names
            self.critical = critical
        }
        /// dNSName entries only.
        public static func dns(_ names: String...) -> SubjectAltNameExtension {
            SubjectAltNameExtension(names.map { .dnsName($0) })
        }
    }

    /// nameConstraints (RFC 5280 4.2.1.10).
    public struct NameConstraintsExtension: Hashable, Sendable {
        /// Permitted subtree bases (none: the field is omitted).
        public var permitted: [GeneralName]
        /// Excluded subtree bases (none: the field is omitted).
        public var excluded: [GeneralName]
        /// Whether the extension is marked critical (RFC 5280 requires it).
        public var critical: Bool
        /// Creates the extension.
        public init(permitted: [GeneralName] = [], excluded: [GeneralName] = [], critical: Bool = true) {
            self.permitted = permitted
            self.excluded = excluded
            self.critical = critical
        }
    }

    /// Any extension, written as given: unknown critical types, duplicates, malformed values.
    public struct RawExtension: Hashable, Sendable {
        /// extnID.
        public var oid: OID
        /// Whether it is marked critical.
        public var critical: Bool
        /// extnValue's content (the DER of the extension's value).
        public var value: [UInt8]
        /// Creates the extension.
        public init(oid: OID, critical: Bool, value: [UInt8]) {
            self.oid = oid
            self.critical = critical
            self.value = value
        }
    }

    /// 1 or 3. A version 1 certificate is written without extensions.
    public var version: Int = 3
    /// The serial number's big-endian magnitude (a leading zero is added when needed); random
    /// 16 octets by default.
    public var serialNumber: [UInt8]
    /// The subject name.
    public var subject: NameBuilder
    /// Start of validity.
    public var notBefore: Timestamp
    /// End of validity (inclusive).
    public var notAfter: Timestamp
    /// The subject's DER SubjectPublicKeyInfo.
    public var subjectPublicKeyInfo: [UInt8]
    /// The signature algorithm; nil picks `SignatureAlgorithm.standard(for:)` of the issuer key.
    public var signatureAlgorithm: SignatureAlgorithm?
    /// basicConstraints, if written.
    public var basicConstraints: BasicConstraintsExtension?
    /// keyUsage, if written.
    public var keyUsage: KeyUsageExtension?
    /// extKeyUsage, if written.
    public var extendedKeyUsage: ExtendedKeyUsageExtension?
    /// subjectAltName, if written.
    public var subjectAltNames: SubjectAltNameExtension?
    /// nameConstraints, if written.
    public var nameConstraints: NameConstraintsExtension?
    /// subjectKeyIdentifier: from the subject key by default.
    public var subjectKeyIdentifier: KeyIdentifierChoice = .automatic
    /// authorityKeyIdentifier: from the issuer by default.
    public var authorityKeyIdentifier: KeyIdentifierChoice = .automatic
    /// authorityInfoAccess caIssuers URLs (none: no AIA unless `ocspURLs` is set).
    public var caIssuersURLs: [String] = []
    /// authorityInfoAccess OCSP URLs.
    public var ocspURLs: [String] = []
    /// Extensions written after the others, in order.
    public var rawExtensions: [RawExtension] = []

    /// Creates a builder for a certificate about `publicKey`.
    public init(subject: NameBuilder, publicKey: KeyPair, notBefore: Timestamp, notAfter: Timestamp) {
        self.init(subject: subject, subjectPublicKeyInfo: publicKey.spkiDER, notBefore: notBefore, notAfter: notAfter)
    }

    /// Creates a builder for a certificate about the key in `subjectPublicKeyInfo` (DER),
    /// which may be any bytes, for malformed-key labs.
    public init(subject: NameBuilder, subjectPublicKeyInfo: [UInt8], notBefore: Timestamp, notAfter: Timestamp) {
        self.subject = subject
        self.subjectPublicKeyInfo = subjectPublicKeyInfo
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.serialNumber = CertificateBuilder.randomSerial()
    }

    static func randomSerial() -> [UInt8] {
        var serial = [UInt8](repeating: 0, count: 16)
        if serial.withUnsafeMutableBufferPointer({ RAND_bytes($0.baseAddress, Int32($0.count)) }) != 1 {
            // RAND_bytes failing is near impossible; a fixed serial still yields a valid certificate.
            serial = [0x01]
        }
        // A set top bit would need a leading zero: a 17-octet serial surprises people reading
        // `openssl x509 -serial`, so keep 16 positive octets with no leading zero.
        serial[0] = serial[0] & 0x7F | 0x40
        return serial
    }

    // MARK: - Signing

    /// Signs the certificate with `issuerKey`, naming `issuer`'s subject as issuer, and decodes it.
    ///
    /// The key need not be `issuer`'s: signing with another key makes a certificate whose
    /// signature does not verify, which is how bad-signature scenarios are built.
    /// - Throws: `BuilderError`.
    public func sign(issuerKey: KeyPair, issuer: Certificate) throws(BuilderError) -> Certificate {
        try decode(signedDER(issuerKey: issuerKey, issuer: issuer))
    }

    /// Signs the certificate with its own key (issuer = subject) and decodes it.
    /// - Throws: `BuilderError`.
    public func selfSign(key: KeyPair) throws(BuilderError) -> Certificate {
        try decode(selfSignedDER(key: key))
    }

    /// Signs with `issuerKey` under an explicit issuer name and decodes the result.
    /// - Parameters:
    ///   - issuerKey: the signing key.
    ///   - issuerName: the issuer field.
    ///   - issuerKeyIdentifier: what `.automatic` puts in authorityKeyIdentifier; nil omits it.
    /// - Throws: `BuilderError`.
    public func sign(issuerKey: KeyPair, issuerName: NameBuilder, issuerKeyIdentifier: [UInt8]?) throws(BuilderError)
        -> Certificate
    {
        try decode(
            signedDER(issuerKey: issuerKey, issuerNameDER: issuerName.der, issuerKeyIdentifier: issuerKeyIdentifier))
    }

    /// The DER of the certificate signed by `issuerKey` under `issuer`'s subject, undecoded.
    /// - Throws: `BuilderError`.
    public func signedDER(issuerKey: KeyPair, issuer: Certificate) throws(BuilderError) -> [UInt8] {
        try signedDER(
            issuerKey: issuerKey, issuerNameDER: issuer.subject.der,
            issuerKeyIdentifier: issuer.subjectKeyIdentifier ?? issuerKey.keyIdentifier)
    }

    /// The DER of the certificate signed by its own key, undecoded.
    /// - Throws: `BuilderError`.
    public func selfSignedDER(key: KeyPair) throws(BuilderError) -> [UInt8] {
        try signedDER(issuerKey: key, issuerNameDER: subject.der, issuerKeyIdentifier: nil)
    }

    /// The DER of the certificate signed by `issuerKey` with issuer name `issuerNameDER` (a DER
    /// Name), undecoded: the general form the other signing methods use.
    /// - Throws: `BuilderError`.
    public func signedDER(issuerKey: KeyPair, issuerNameDER: [UInt8], issuerKeyIdentifier: [UInt8]?)
        throws(BuilderError) -> [UInt8]
    {
        let algorithm = signatureAlgorithm ?? SignatureAlgorithm.standard(for: issuerKey.kind)
        guard algorithm.fits(issuerKey.kind) else {
            throw .unsupported("a \(issuerKey.kind) key cannot sign \(algorithm.oid.name)")
        }
        let tbs = tbsDER(algorithm: algorithm, issuerNameDER: issuerNameDER, issuerKeyIdentifier: issuerKeyIdentifier)
        let signature = try issuerKey.sign(tbs, hash: algorithm.hash)
        return DERWriter.encode { w in
            w.sequence { w in
                w.raw(tbs)
                w.raw(algorithm.der)
                w.bitString(signature)
            }
        }
    }

    private func decode(_ der: [UInt8]) throws(BuilderError) -> Certificate {
        do {
            return try Certificate(der: der)
        } catch {
            throw .undecodable(error)
        }
    }

    // MARK: - Encoding

    /// tbsCertificate (RFC 5280 4.1).
    func tbsDER(algorithm: SignatureAlgorithm, issuerNameDER: [UInt8], issuerKeyIdentifier: [UInt8]?) -> [UInt8] {
        DERWriter.encode { w in
            w.sequence { w in
                if version != 1 {
                    w.contextSpecific(0) { $0.integer(version - 1) }
                }
                w.integer(magnitude: serialNumber)
                w.raw(algorithm.der)
                w.raw(issuerNameDER)
                w.sequence { w in
                    w.time(notBefore)
                    w.time(notAfter)
                }
                w.raw(subject.der)
                w.raw(subjectPublicKeyInfo)
                let extensions = version == 3 ? encodedExtensions(issuerKeyIdentifier: issuerKeyIdentifier) : []
                // RFC 5280 4.1.2.9: when present, Extensions holds at least one extension.
                if !extensions.isEmpty {
                    w.contextSpecific(3) { w in
                        w.sequence { w in
                            for e in extensions { w.raw(e) }
                        }
                    }
                }
            }
        }
    }

    /// Each Extension's DER, in a fixed order, raw extensions last.
    func encodedExtensions(issuerKeyIdentifier: [UInt8]?) -> [[UInt8]] {
        var out: [[UInt8]] = []
        func add(_ oid: OID, _ critical: Bool, _ value: [UInt8]) {
            out.append(
                DERWriter.encode { w in
                    w.sequence { w in
                        w.oid(oid)
                        // DER omits a DEFAULT FALSE (X.690 11.5).
                        if critical { w.boolean(true) }
                        w.octetString(value)
                    }
                })
        }
        if let bc = basicConstraints {
            add(
                .basicConstraints, bc.critical,
                DERWriter.encode { w in
                    w.sequence { w in
                        if bc.isCA { w.boolean(true) }
                        if let p = bc.pathLength { w.integer(p) }
                    }
                })
        }
        if let ku = keyUsage {
            add(.keyUsage, ku.critical, DERWriter.encode { $0.namedBits(Set(ku.bits.map(\.rawValue))) })
        }
        if let eku = extendedKeyUsage {
            add(
                .extKeyUsage, eku.critical,
                DERWriter.encode { w in
                    w.sequence { w in for p in eku.purposes { w.oid(p.oid) } }
                })
        }
        if let san = subjectAltNames {
            add(
                .subjectAltName, san.critical,
                DERWriter.encode { w in
                    w.sequence { w in for n in san.names { w.generalName(n) } }
                })
        }
        if let nc = nameConstraints {
            add(
                .nameConstraints, nc.critical,
                DERWriter.encode { w in
                    w.sequence { w in
                        for (number, bases) in [(UInt8(0), nc.permitted), (1, nc.excluded)] where !bases.isEmpty {
                            w.contextSpecific(number) { w in
                                for base in bases { w.sequence { $0.generalName(base) } }
                            }
                        }
                    }
                })
        }
        switch subjectKeyIdentifier {
        case .automatic:
            if let id = keyIdentifier(ofSPKI: subjectPublicKeyInfo) {
                add(.subjectKeyIdentifier, false, DERWriter.encode { $0.octetString(id) })
            }
        case .explicit(let id): add(.subjectKeyIdentifier, false, DERWriter.encode { $0.octetString(id) })
        case .omitted: break
        }
        let aki: [UInt8]?
        switch authorityKeyIdentifier {
        case .automatic: aki = issuerKeyIdentifier
        case .explicit(let id): aki = id
        case .omitted: aki = nil
        }
        if let aki {
            add(
                .authorityKeyIdentifier, false,
                DERWriter.encode { w in
                    w.sequence { $0.element(tag: 0x80, content: aki) }
                })
        }
        if !caIssuersURLs.isEmpty || !ocspURLs.isEmpty {
            add(
                .authorityInfoAccess, false,
                DERWriter.encode { w in
                    w.sequence { w in
                        for url in ocspURLs {
                            w.sequence { w in
                                w.oid(.ocsp)
                                w.generalName(.uri(url))
                            }
                        }
                        for url in caIssuersURLs {
                            w.sequence { w in
                                w.oid(.caIssuers)
                                w.generalName(.uri(url))
                            }
                        }
                    }
                })
        }
        for raw in rawExtensions { add(raw.oid, raw.critical, raw.value) }
        return out
    }

    /// SHA-1 of the subjectPublicKey bits of a DER SPKI; nil when it does not parse.
    func keyIdentifier(ofSPKI spki: [UInt8]) -> [UInt8]? {
        var r = DERReader(spki)
        guard let outer = try? r.read(DERTag.sequence, "SubjectPublicKeyInfo") else { return nil }
        var s = r.reader(inside: outer)
        guard (try? s.read(DERTag.sequence, "algorithm")) != nil,
            let bits = try? s.read(DERTag.bitString, "subjectPublicKey"),
            let (key, _) = try? s.bitString(bits)
        else { return nil }
        return Digest.sha1(key)
    }
}
