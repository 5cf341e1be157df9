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
