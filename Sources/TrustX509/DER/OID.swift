import TrustSupport

/// An ASN.1 object identifier, held as its DER content octets.
public struct OID: Hashable, Sendable, CustomStringConvertible {
    /// The DER content octets (without tag and length).
    public let bytes: [UInt8]

    /// Creates an identifier from DER content octets.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    // Written out and inlinable so that the engine's sets and dictionaries of OIDs, in another
    // module, compare and hash them without a call (what the synthesized ones would do).
    /// Whether two identifiers have the same encoding.
    @inlinable public static func == (a: OID, b: OID) -> Bool { a.bytes == b.bytes }

    /// Hashes the encoding.
    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Creates an identifier from its dotted form; nil when the text is not one.
    public init?(dotted: String) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false).map { UInt64($0) }
        guard parts.count >= 2, parts.allSatisfy({ $0 != nil }) else { return nil }
        let arcs = parts.map { $0! }
        guard arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        var out: [UInt8] = []
        func encode(_ value: UInt64) {
            var stack: [UInt8] = [UInt8(value & 0x7F)]
            var v = value >> 7
            while v > 0 {
                stack.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            out.append(contentsOf: stack.reversed())
        }
        encode(arcs[0] * 40 + arcs[1])
        for arc in arcs.dropFirst(2) { encode(arc) }
        self.bytes = out
    }

    /// The dotted decimal form, e.g. `2.5.29.19`.
    public var dotted: String {
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for byte in bytes {
            // Saturate rather than overflow on absurd arcs: the text is for display only.
            value = value > (UInt64.max >> 8) ? UInt64.max : (value << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if arcs.isEmpty {
                    let first: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                    arcs.append(first)
                    arcs.append(value - first * 40)
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }

    /// The dotted form.
    public var description: String { dotted }

    /// A short name for well-known identifiers, otherwise the dotted form (cut short, as input
    /// quoted in a message is: an identifier can be as long as the certificate that carries it).
    public var name: String { OID.names[self] ?? InputExcerpt.quote(dotted) }
}

extension OID {
    private static func known(_ s: String) -> OID { OID(dotted: s)! }

    // Signature and key algorithms
    package static let rsaEncryption = known("1.2.840.113549.1.1.1")
    package static let md2WithRSA = known("1.2.840.113549.1.1.2")
    package static let md4WithRSA = known("1.2.840.113549.1.1.3")
    package static let md5WithRSA = known("1.2.840.113549.1.1.4")
    package static let sha1WithRSA = known("1.2.840.113549.1.1.5")
    package static let rsassaPSS = known("1.2.840.113549.1.1.10")
    package static let sha256WithRSA = known("1.2.840.113549.1.1.11")
    package static let sha384WithRSA = known("1.2.840.113549.1.1.12")
    package static let sha512WithRSA = known("1.2.840.113549.1.1.13")
    package static let sha224WithRSA = known("1.2.840.113549.1.1.14")
    package static let ecPublicKey = known("1.2.840.10045.2.1")
    package static let ecdsaWithSHA1 = known("1.2.840.10045.4.1")
    package static let ecdsaWithSHA224 = known("1.2.840.10045.4.3.1")
    package static let ecdsaWithSHA256 = known("1.2.840.10045.4.3.2")
    package static let ecdsaWithSHA384 = known("1.2.840.10045.4.3.3")
    package static let ecdsaWithSHA512 = known("1.2.840.10045.4.3.4")
    package static let ed25519 = known("1.3.101.112")
    package static let ed448 = known("1.3.101.113")
    package static let dsa = known("1.2.840.10040.4.1")
    package static let dsaWithSHA1 = known("1.2.840.10040.4.3")
    package static let dsaWithSHA256 = known("2.16.840.1.101.3.4.3.2")
    package static let sha1 = known("1.3.14.3.2.26")
    package static let sha224 = known("2.16.840.1.101.3.4.2.4")
    package static let sha256 = known("2.16.840.1.101.3.4.2.1")
    package static let sha384 = known("2.16.840.1.101.3.4.2.2")
    package static let sha512 = known("2.16.840.1.101.3.4.2.3")
    package static let mgf1 = known("1.2.840.113549.1.1.8")
    // Curves
    package static let prime256v1 = known("1.2.840.10045.3.1.7")
    package static let secp384r1 = known("1.3.132.0.34")
    package static let secp521r1 = known("1.3.132.0.35")
    package static let secp224r1 = known("1.3.132.0.33")
    package static let secp256k1 = known("1.3.132.0.10")
    package static let prime192v1 = known("1.2.840.10045.3.1.1")
    // Extensions
    package static let subjectKeyIdentifier = known("2.5.29.14")
    package static let keyUsage = known("2.5.29.15")
    package static let subjectAltName = known("2.5.29.17")
    package static let issuerAltName = known("2.5.29.18")
    package static let basicConstraints = known("2.5.29.19")
    package static let nameConstraints = known("2.5.29.30")
    package static let crlDistributionPoints = known("2.5.29.31")
    package static let certificatePolicies = known("2.5.29.32")
    package static let policyMappings = known("2.5.29.33")
    package static let authorityKeyIdentifier = known("2.5.29.35")
    package static let policyConstraints = known("2.5.29.36")
    package static let extKeyUsage = known("2.5.29.37")
    package static let inhibitAnyPolicy = known("2.5.29.54")
    package static let authorityInfoAccess = known("1.3.6.1.5.5.7.1.1")
    package static let subjectInfoAccess = known("1.3.6.1.5.5.7.1.11")
    package static let sctList = known("1.3.6.1.4.1.11129.2.4.2")
    package static let ctPoison = known("1.3.6.1.4.1.11129.2.4.3")
    // Access methods
    package static let ocsp = known("1.3.6.1.5.5.7.48.1")
    package static let caIssuers = known("1.3.6.1.5.5.7.48.2")
    // Extended key usages
    package static let anyExtendedKeyUsage = known("2.5.29.37.0")
    package static let serverAuth = known("1.3.6.1.5.5.7.3.1")
    package static let clientAuth = known("1.3.6.1.5.5.7.3.2")
    package static let codeSigning = known("1.3.6.1.5.5.7.3.3")
    package static let emailProtection = known("1.3.6.1.5.5.7.3.4")
    package static let timeStamping = known("1.3.6.1.5.5.7.3.8")
    package static let ocspSigning = known("1.3.6.1.5.5.7.3.9")
    package static let anyPolicy = known("2.5.29.32.0")
    // Attribute types
    package static let commonName = known("2.5.4.3")
    package static let surname = known("2.5.4.4")
    package static let serialNumberAttribute = known("2.5.4.5")
    package static let countryName = known("2.5.4.6")
    package static let localityName = known("2.5.4.7")
    package static let stateOrProvinceName = known("2.5.4.8")
    package static let streetAddress = known("2.5.4.9")
    package static let organizationName = known("2.5.4.10")
    package static let organizationalUnitName = known("2.5.4.11")
    package static let title = known("2.5.4.12")
    package static let givenName = known("2.5.4.42")
    package static let domainComponent = known("0.9.2342.19200300.100.1.25")
    package static let emailAddress = known("1.2.840.113549.1.9.1")
    package static let userID = known("0.9.2342.19200300.100.1.1")
    // Containers
    package static let pkcs7SignedData = known("1.2.840.113549.1.7.2")

    static let names: [OID: String] = [
        rsaEncryption: "rsaEncryption", md2WithRSA: "md2WithRSAEncryption", md4WithRSA: "md4WithRSAEncryption",
        md5WithRSA: "md5WithRSAEncryption", sha1WithRSA: "sha1WithRSAEncryption", rsassaPSS: "rsassaPss",
        sha256WithRSA: "sha256WithRSAEncryption", sha384WithRSA: "sha384WithRSAEncryption",
        sha512WithRSA: "sha512WithRSAEncryption", sha224WithRSA: "sha224WithRSAEncryption",
        ecPublicKey: "id-ecPublicKey", ecdsaWithSHA1: "ecdsa-with-SHA1", ecdsaWithSHA224: "ecdsa-with-SHA224",
        ecdsaWithSHA256: "ecdsa-with-SHA256", ecdsaWithSHA384: "ecdsa-with-SHA384",
        ecdsaWithSHA512: "ecdsa-with-SHA512", ed25519: "Ed25519", ed448: "Ed448", dsa: "dsaEncryption",
        dsaWithSHA1: "dsa-with-SHA1", dsaWithSHA256: "dsa-with-SHA256",
        prime256v1: "P-256", secp384r1: "P-384", secp521r1: "P-521", secp224r1: "P-224",
        secp256k1: "secp256k1", prime192v1: "P-192",
        subjectKeyIdentifier: "subjectKeyIdentifier", keyUsage: "keyUsage", subjectAltName: "subjectAltName",
        issuerAltName: "issuerAltName", basicConstraints: "basicConstraints", nameConstraints: "nameConstraints",
        crlDistributionPoints: "cRLDistributionPoints", certificatePolicies: "certificatePolicies",
        policyMappings: "policyMappings", authorityKeyIdentifier: "authorityKeyIdentifier",
        policyConstraints: "policyConstraints", extKeyUsage: "extKeyUsage", inhibitAnyPolicy: "inhibitAnyPolicy",
        authorityInfoAccess: "authorityInfoAccess", subjectInfoAccess: "subjectInfoAccess",
        sctList: "signedCertificateTimestampList", ctPoison: "ctPoison",
        ocsp: "OCSP", caIssuers: "caIssuers",
        anyExtendedKeyUsage: "anyExtendedKeyUsage", serverAuth: "serverAuth", clientAuth: "clientAuth",
        codeSigning: "codeSigning", emailProtection: "emailProtection", timeStamping: "timeStamping",
        ocspSigning: "OCSPSigning", anyPolicy: "anyPolicy",
        commonName: "CN", surname: "SN", serialNumberAttribute: "serialNumber", countryName: "C",
        localityName: "L", stateOrProvinceName: "ST", streetAddress: "street", organizationName: "O",
        organizationalUnitName: "OU", title: "title", givenName: "GN", domainComponent: "DC",
        emailAddress: "emailAddress", userID: "UID",
    ]
}
