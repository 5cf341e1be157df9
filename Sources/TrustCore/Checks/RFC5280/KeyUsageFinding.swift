/// What the `key-usage` step found (KeyUsageCheck).
enum KeyUsageFinding: RuleFinding {
    case keyUsageAbsent
    case keyUsageAllowsCertSign
    case keyUsageLacksCertSign(present: [String])
    case keyUsageMissingOnCA
    case leafKeyUsage(present: [String])
    case leafKeyUsageLacksSignature(present: [String])

    var storage: Finding.Storage { .keyUsage(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .keyUsageLacksCertSign, .keyUsageMissingOnCA, .leafKeyUsageLacksSignature:
            AppleFailure("KeyUsage", .usage, -67608)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .keyUsageAbsent: "No keyUsage extension"
        case .keyUsageAllowsCertSign: "keyUsage allows keyCertSign"
        case .keyUsageLacksCertSign: "keyUsage lacks keyCertSign"
        case .keyUsageMissingOnCA: "CA has no keyUsage extension"
        case .leafKeyUsage(let p): "keyUsage: \(p.isEmpty ? "none" : p.joined(separator: ", "))"
        case .leafKeyUsageLacksSignature: "keyUsage does not allow digitalSignature"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .keyUsageAbsent:
            "Without a keyUsage extension the key is not restricted; Apple checks keyCertSign only when keyUsage is present (Apple KeyUsage)."
        case .keyUsageAllowsCertSign:
            "keyUsage includes keyCertSign, so the key may sign certificates (RFC 5280 4.2.1.3)."
        case .keyUsageMissingOnCA:
            "The webpki profile requires a CA certificate to carry keyUsage with keyCertSign (CA/Browser Forum BR 7.1.2.10.7; RFC 5280 4.2.1.3); Apple checks keyUsage only when present."
        case .keyUsageLacksCertSign(let present):
            "This key signed a certificate but keyUsage (\(present.joined(separator: ", "))) lacks keyCertSign (RFC 5280 6.1.4 (n); Apple KeyUsage, errSecInvalidKeyUsageForPolicy)."
        case .leafKeyUsage:
            "The leaf's keyUsage is shown for reference; Apple's SSL policy does not restrict it."
        case .leafKeyUsageLacksSignature(let present):
            "A TLS server key must allow digitalSignature (or keyEncipherment for RSA key exchange); keyUsage is \(present.joined(separator: ", ")) (RFC 5280 4.2.1.3)."
        }
    }
}
