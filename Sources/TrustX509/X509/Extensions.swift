/// basicConstraints (RFC 5280 4.2.1.9).
public struct BasicConstraints: Hashable, Sendable {
    /// Whether the subject is a CA.
    public var isCA: Bool
    /// The maximum number of non-self-issued intermediates that may follow, if limited.
    public var pathLength: Int?
}

/// keyUsage bits (RFC 5280 4.2.1.3), bit 0 = digitalSignature.
public struct KeyUsage: Hashable, Sendable {
    /// The bits as a mask, bit n at `1 << n`.
    public var bits: UInt16

    /// The RFC 5280 names, in bit order.
    public static let names = [
        "digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment", "keyAgreement",
        "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly",
    ]

    /// Whether bit `n` is set.
    public func has(_ n: Int) -> Bool { bits & (1 << n) != 0 }
    /// keyCertSign (bit 5).
    public var keyCertSign: Bool { has(5) }
    /// The names of the set bits.
    public var setNames: [String] { (0..<9).filter { has($0) }.map { KeyUsage.names[$0] } }
}

/// One subtree of nameConstraints.
public struct GeneralSubtree: Hashable, Sendable {
    /// The base name.
    public var base: GeneralName
}

/// nameConstraints (RFC 5280 4.2.1.10).
public struct NameConstraints: Hashable, Sendable {
    /// Permitted subtrees; nil when the field is absent.
    public var permitted: [GeneralSubtree]?
    /// Excluded subtrees; nil when the field is absent.
    public var excluded: [GeneralSubtree]?
}

/// authorityKeyIdentifier (RFC 5280 4.2.1.1).
public struct AuthorityKeyIdentifier: Hashable, Sendable {
    /// The key identifier, when present.
    public var keyIdentifier: [UInt8]?
    /// authorityCertIssuer names, when present.
    public var issuer: [GeneralName]?
    /// authorityCertSerialNumber, when present.
    public var serialNumber: [UInt8]?
}

/// One authorityInfoAccess entry (RFC 5280 4.2.2.1).
public struct AccessDescription: Hashable, Sendable {
    /// caIssuers or OCSP, or another method.
    public var method: OID
    /// Where.
    public var location: GeneralName
}

/// One Signed Certificate Timestamp from the embedded list (RFC 6962 3.3).
public struct EmbeddedSCT: Hashable, Sendable {
    /// SCT version (0 = v1).
    public var version: UInt8
    /// The log's ID (SHA-256 of its key).
    public var logID: [UInt8]
    /// Milliseconds since the epoch.
    public var timestampMilliseconds: UInt64
}

/// A decoded extension value, raw when the type is not one trustx knows.
public enum ExtensionValue: Hashable, Sendable {
    case basicConstraints(BasicConstraints)
    case keyUsage(KeyUsage)
    case extendedKeyUsage([OID])
    case subjectAltName([GeneralName])
    case issuerAltName([GeneralName])
    case nameConstraints(NameConstraints)
    case authorityKeyIdentifier(AuthorityKeyIdentifier)
    case subjectKeyIdentifier([UInt8])
    case authorityInfoAccess([AccessDescription])
    case crlDistributionPoints([GeneralName])
    case certificatePolicies([OID])
    case policyConstraints(requireExplicit: Int?, inhibitMapping: Int?)
    case inhibitAnyPolicy(Int)
    case policyMappings(count: Int)
    case signedCertificateTimestamps([EmbeddedSCT])
    case ctPoison
    /// An extension trustx does not decode, or one whose value did not parse (`error` says why).
    case raw(error: String?)
}

/// One certificate extension.
public struct Extension: Hashable, Sendable {
    /// The extension's type.
    public var oid: OID
    /// Whether it is marked critical.
    public var critical: Bool
    /// The extnValue octets.
    public var value: [UInt8]
    /// The decoded value.
    public var decoded: ExtensionValue
    /// Whether a critical one is understood (an unknown critical type fails evaluation): every
    /// type decoded here except the CT poison and the SCT list, which are decoded for display
    /// only. Apple's parser has no parser for them, so a critical one is an unknown critical
    /// extension (a precertificate is not a certificate to trust; RFC 6962 3.1). The engine's
    /// checks enforce exactly these types, which its tests hold equal (D131).
    public var isKnown: Bool { Extension.understood.contains(oid) }
    /// Why a known extension's value failed to decode, if it did.
    public var decodeError: String? {
        if case .raw(let error) = decoded { return error }
        return nil
    }

    static let decodable: Set<OID> = [
        .basicConstraints, .keyUsage, .extKeyUsage, .subjectAltName, .issuerAltName, .nameConstraints,
        .authorityKeyIdentifier, .subjectKeyIdentifier, .authorityInfoAccess, .crlDistributionPoints,
        .certificatePolicies, .policyConstraints, .inhibitAnyPolicy, .policyMappings, .sctList, .ctPoison,
    ]

    /// The types a critical instance of passes: decided here, at parse time, because every
    /// evaluation asks for each certificate.
    package static let understood: Set<OID> = decodable.subtracting([.sctList, .ctPoison])
}
