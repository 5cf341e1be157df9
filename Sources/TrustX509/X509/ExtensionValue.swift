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
