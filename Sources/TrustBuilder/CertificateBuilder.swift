internal import COpenSSL
import TrustSupport
import TrustX509

/// An X.501 name to write into a certificate, most significant RDN first (`C`, `O`, then `CN`,
/// as the openssl CLI shows it).
public struct NameBuilder: Hashable, Sendable, ExpressibleByArrayLiteral {
    /// How an attribute value is encoded.
    public enum StringEncoding: Hashable, Sendable {
        /// UTF8String, what RFC 5280 4.1.2.4 asks of new certificates.
        case utf8
        /// PrintableString (countryName and serialNumber must use it).
        case printable
        /// IA5String (domainComponent and emailAddress).
        case ia5
    }

    /// One attribute: a type and a value.
    public struct Attribute: Hashable, Sendable {
        /// The attribute type.
        public var type: OID
        /// The value.
        public var value: String
        /// How the value is encoded.
        public var encoding: StringEncoding

        /// Creates an attribute of any type.
        public init(type: OID, value: String, encoding: StringEncoding = .utf8) {
            self.type = type
            self.value = value
            self.encoding = encoding
        }

        /// `CN=`
        public static func commonName(_ value: String) -> Attribute { Attribute(type: .commonName, value: value) }
        /// `O=`
        public static func organization(_ value: String) -> Attribute {
            Attribute(type: .organizationName, value: value)
        }
        /// `OU=`
        public static func organizationalUnit(_ value: String) -> Attribute {
            Attribute(type: .organizationalUnitName, value: value)
        }
        /// `C=` (PrintableString, two letters).
        public static func country(_ value: String) -> Attribute {
            Attribute(type: .countryName, value: value, encoding: .printable)
        }
        /// `L=`
        public static func locality(_ value: String) -> Attribute { Attribute(type: .localityName, value: value) }
        /// `ST=`
        public static func state(_ value: String) -> Attribute { Attribute(type: .stateOrProvinceName, value: value) }
        /// `DC=` (IA5String).
        public static func domainComponent(_ value: String) -> Attribute {
            Attribute(type: .domainComponent, value: value, encoding: .ia5)
        }
        /// `emailAddress=` (IA5String; deprecated in favour of SAN rfc822Name, still seen).
        public static func emailAddress(_ value: String) -> Attribute {
            Attribute(type: .emailAddress, value: value, encoding: .ia5)
        }
        /// `serialNumber=` (PrintableString).
        public static func serialNumber(_ value: String) -> Attribute {
            Attribute(type: .serialNumberAttribute, value: value, encoding: .printable)
        }
    }

    /// The relative distinguished names, each a set of attributes (usually one).
    public var rdns: [[Attribute]]

    /// Creates a name with one attribute per RDN, in the order given.
    public init(_ attributes: [Attribute]) { rdns = attributes.map { [$0] } }

    /// Creates a name with one attribute per RDN, in the order given.
    public init(arrayLiteral elements: Attribute...) { self.init(elements) }

    /// Creates a name from explicit RDNs (multi-valued ones included).
    public init(rdns: [[Attribute]]) { self.rdns = rdns }

    /// A name holding only `CN=commonName`.
    public init(commonName: String) { self.init([.commonName(commonName)]) }

    /// Creates a name from `(type, value)` pairs, the type a short name (`CN`, `O`, `OU`, `C`,
    /// `L`, `ST`, `DC`, `emailAddress`, `serialNumber`) or a dotted OID; nil for an unknown type.
    public init?(pairs: [(String, String)]) {
        var attributes: [Attribute] = []
        for (type, value) in pairs {
            switch type {
            case "CN": attributes.append(.commonName(value))
            case "O": attributes.append(.organization(value))
            case "OU": attributes.append(.organizationalUnit(value))
            case "C": attributes.append(.country(value))
            case "L": attributes.append(.locality(value))
            case "ST": attributes.append(.state(value))
            case "DC": attributes.append(.domainComponent(value))
            case "emailAddress": attributes.append(.emailAddress(value))
            case "serialNumber": attributes.append(.serialNumber(value))
            default:
                guard let oid = OID(dotted: type) else { return nil }
                attributes.append(Attribute(type: oid, value: value))
            }
        }
        self.init(attributes)
    }

    /// The empty name (for empty-subject tests).
    public static let empty = NameBuilder(rdns: [])

    /// The DER Name (a SEQUENCE of SETs).
    public var der: [UInt8] {
        DERWriter.encode { w in
            w.sequence { w in
                for rdn in rdns {
                    let members = rdn.map { attribute in
                        DERWriter.encode { w in
                            w.sequence { w in
                                w.oid(attribute.type)
                                switch attribute.encoding {
                                case .utf8: w.utf8String(attribute.value)
                                case .printable: w.printableString(attribute.value)
                                case .ia5: w.ia5String(attribute.value)
                                }
                            }
                        }
                    }
                    w.setOf(members)
                }
            }
        }
    }
}

/// Signature algorithms `CertificateBuilder` can sign with, weak ones included for labs.
public enum SignatureAlgorithm: Hashable, Sendable, CaseIterable {
    /// sha256WithRSAEncryption.
    case sha256WithRSA
    /// sha384WithRSAEncryption.
    case sha384WithRSA
    /// sha512WithRSAEncryption.
    case sha512WithRSA
    /// sha1WithRSAEncryption (refused by Apple's SSL policy below self-signed certificates).
    case sha1WithRSA
    /// md5WithRSAEncryption (refused by every Apple policy below self-signed certificates).
    case md5WithRSA
    /// ecdsa-with-SHA256.
    case ecdsaWithSHA256
    /// ecdsa-with-SHA384.
    case ecdsaWithSHA384
    /// ecdsa-with-SHA512.
    case ecdsaWithSHA512
    /// ecdsa-with-SHA1.
    case ecdsaWithSHA1
    /// Ed25519 (RFC 8410).
    case ed25519
    /// Ed448 (RFC 8410).
    case ed448

    /// The algorithm's OID.
    public var oid: OID {
        switch self {
        case .sha256WithRSA: .sha256WithRSA
        case .sha384WithRSA: .sha384WithRSA
        case .sha512WithRSA: .sha512WithRSA
        case .sha1WithRSA: .sha1WithRSA
        case .md5WithRSA: .md5WithRSA
        case .ecdsaWithSHA256: .ecdsaWithSHA256
        case .ecdsaWithSHA384: .ecdsaWithSHA384
        case .ecdsaWithSHA512: .ecdsaWithSHA512
        case .ecdsaWithSHA1: .ecdsaWithSHA1
        case .ed25519: .ed25519
        case .ed448: .ed448
        }
    }

    /// The digest signed (nil for EdDSA).
    public var hash: HashKind? {
        switch self {
        case .sha256WithRSA, .ecdsaWithSHA256: .sha256
        case .sha384WithRSA, .ecdsaWithSHA384: .sha384
        case .sha512WithRSA, .ecdsaWithSHA512: .sha512
        case .sha1WithRSA, .ecdsaWithSHA1: .sha1
        case .md5WithRSA: .md5
        case .ed25519, .ed448: nil
        }
    }

    /// The AlgorithmIdentifier DER: RSA with NULL parameters (RFC 4055 5), ECDSA and EdDSA
    /// without (RFC 5758 3.2, RFC 8410 3).
    public var der: [UInt8] {
        DERWriter.encode { w in
            w.sequence { w in
                w.oid(oid)
                if isRSA { w.null() }
            }
        }
    }

    var isRSA: Bool {
        switch self {
        case .sha256WithRSA, .sha384WithRSA, .sha512WithRSA, .sha1WithRSA, .md5WithRSA: true
        default: false
        }
    }

    /// Whether a key of `kind` can make this signature.
    public func fits(_ kind: KeyKind) -> Bool {
        switch (self, kind) {
        case (.ed25519, .ed25519), (.ed448, .ed448): true
        case (.ecdsaWithSHA256, .ecP256), (.ecdsaWithSHA256, .ecP384), (.ecdsaWithSHA256, .ecP521),
            (.ecdsaWithSHA384, .ecP256), (.ecdsaWithSHA384, .ecP384), (.ecdsaWithSHA384, .ecP521),
            (.ecdsaWithSHA512, .ecP256), (.ecdsaWithSHA512, .ecP384), (.ecdsaWithSHA512, .ecP521),
            (.ecdsaWithSHA1, .ecP256), (.ecdsaWithSHA1, .ecP384), (.ecdsaWithSHA1, .ecP521):
            true
        case (_, .rsa): isRSA
        default: false
        }
    }

    /// What a key of `kind` signs with unless told otherwise: the curve's hash for EC,
    /// SHA-256 for RSA, the scheme itself for EdDSA.
    public static func standard(for kind: KeyKind) -> SignatureAlgorithm {
        switch kind {
        case .ecP256: .ecdsaWithSHA256
        case .ecP384: .ecdsaWithSHA384
        case .ecP521: .ecdsaWithSHA512
        case .rsa: .sha256WithRSA
        case .ed25519: .ed25519
        case .ed448: .ed448
        }
    }
}

/// keyUsage bits (RFC 5280 4.2.1.3).
public enum KeyUsageBit: Int, Hashable, Sendable, CaseIterable {
    /// Bit 0: signatures other than on certificates and CRLs (TLS server keys need it).
    case digitalSignature = 0
    /// Bit 1: non-repudiation (contentCommitment).
    case nonRepudiation
    /// Bit 2: key transport (RSA key exchange).
    case keyEncipherment
    /// Bit 3: direct data encryption.
    case dataEncipherment
    /// Bit 4: key agreement.
    case keyAgreement
    /// Bit 5: signing certificates; an issuer whose keyUsage lacks it fails Apple's KeyUsage check.
    case keyCertSign
    /// Bit 6: signing CRLs.
    case cRLSign
    /// Bit 7: encipher only (with keyAgreement).
    case encipherOnly
    /// Bit 8: decipher only (with keyAgreement).
    case decipherOnly
}

/// Extended key usage purposes (RFC 5280 4.2.1.12).
public enum KeyPurpose: Hashable, Sendable {
    /// id-kp-serverAuth.
    case serverAuth
    /// id-kp-clientAuth.
    case clientAuth
    /// id-kp-codeSigning.
    case codeSigning
    /// id-kp-emailProtection.
    case emailProtection
    /// id-kp-timeStamping.
    case timeStamping
    /// id-kp-OCSPSigning.
    case ocspSigning
    /// anyExtendedKeyUsage.
    case any
    /// Any other purpose.
    case custom(OID)

    /// The purpose's OID.
    public var oid: OID {
        switch self {
        case .serverAuth: .serverAuth
        case .clientAuth: .clientAuth
        case .codeSigning: .codeSigning
        case .emailProtection: .emailProtection
        case .timeStamping: .timeStamping
        case .ocspSigning: .ocspSigning
        case .any: .anyExtendedKeyUsage
        case .custom(let oid): oid
        }
    }
}

/// How a key identifier extension is produced.
public enum KeyIdentifierChoice: Hashable, Sendable {
    /// From the key (SHA-1 of the subjectPublicKey bits, RFC 5280 4.2.1.2 method 1); for the
    /// authority key identifier, the issuer certificate's subjectKeyIdentifier when it has one.
    /// Self-signed certificates get no authority key identifier (RFC 5280 4.2.1.1 allows that).
    case automatic
    /// Not written.
    case omitted
    /// Exactly these bytes (for mismatch tests).
    case explicit([UInt8])
}

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

extension GeneralName {
    /// An iPAddress entry from IPv4 or IPv6 text (brackets allowed).
    /// - Throws: `BuilderError.unsupported` when the text is not an IP address.
    public static func ip(_ text: String) throws(BuilderError) -> GeneralName {
        guard let bytes = parseIPAddress(text) else { throw .unsupported("\(text) is not an IP address") }
        return .ipAddress(bytes)
    }

    /// A name-constraint iPAddress subtree (address then mask, RFC 5280 4.2.1.10) from CIDR
    /// text such as `10.0.0.0/8` or `fd00::/8`.
    /// - Throws: `BuilderError.unsupported` when the text is not a CIDR block.
    public static func ipSubnet(_ cidr: String) throws(BuilderError) -> GeneralName {
        let parts = cidr.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let address = parseIPAddress(String(parts[0])), let prefix = Int(parts[1]),
            prefix >= 0, prefix <= address.count * 8
        else { throw .unsupported("\(cidr) is not a CIDR block") }
        var mask = [UInt8](repeating: 0, count: address.count)
        for bit in 0..<prefix { mask[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        return .ipAddress(address + mask)
    }
}
