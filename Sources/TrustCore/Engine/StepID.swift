/// The stable identifiers of evaluation steps (docs/steps.md describes each).
public enum StepID: String, Hashable, Sendable, CaseIterable {
    case chain
    case signature
    case validity
    case basicConstraints = "basic-constraints"
    case keyUsage = "key-usage"
    case extendedKeyUsage = "extended-key-usage"
    case nameConstraints = "name-constraints"
    case certificatePolicies = "certificate-policies"
    case criticalExtensions = "critical-extensions"
    case compliance
    case anchor
    case hostname
    case keySize = "key-size"
    case signatureAlgorithm = "signature-algorithm"
    case validityPeriodMaximum = "validity-period-maximum"
    case certificateTransparency = "certificate-transparency"
    case revocation
    case pin
    case budget
    case atsTLSVersion = "ats-tls-version"
    case atsCipher = "ats-cipher"
    case atsForwardSecrecy = "ats-forward-secrecy"
    case atsKeySize = "ats-key-size"
    case atsSignatureHash = "ats-signature-hash"
    case pinnedDomains = "pinned-domains"
    case systemPinning = "system-pinning"
}
