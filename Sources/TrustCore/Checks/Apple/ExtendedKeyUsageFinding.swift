/// What the `extended-key-usage` step found (ExtendedKeyUsageCheck).
enum ExtendedKeyUsageFinding: RuleFinding {
    case ekuServerAuth
    case ekuMissingRequired(anchorClass: AnchorClass)
    case ekuAbsentAllowed
    case ekuLacks(purpose: String, present: [String])
    case caEKUAllows
    case caEKULacks(purpose: String, present: [String])
    case ekuNotChecked
    /// The path ends at a device-trusted anchor, so the strict serverAuth rule is skipped; `present`
    /// is the leaf's extKeyUsage (empty when it has none).
    case ekuDeviceAnchorExempt(present: [String])
    /// A Server Gated Crypto purpose (Netscape or Microsoft) without serverAuth, which Apple's
    /// loose rule accepts where the strict one does not apply.
    case ekuServerGatedCrypto(present: [String])

    var storage: Finding.Storage { .extendedKeyUsage(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .ekuMissingRequired, .ekuLacks, .caEKULacks: AppleFailure("ExtendedKeyUsage", .usage, -67609)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .ekuServerAuth: "Extended key usage includes serverAuth"
        case .ekuMissingRequired: "No extended key usage, serverAuth required"
        case .ekuAbsentAllowed: "No extended key usage (allowed for this certificate)"
        case .ekuLacks(let purpose, _): "Extended key usage lacks \(purpose)"
        case .caEKUAllows: "Issuer's extended key usage allows the purpose"
        case .caEKULacks(let purpose, _): "Issuer's extended key usage excludes \(purpose)"
        case .ekuNotChecked: "Extended key usage not checked"
        case .ekuDeviceAnchorExempt(let p):
            p.isEmpty
                ? "No extended key usage, allowed under a device-trusted anchor"
                : "Extended key usage \(p.joined(separator: ", ")), allowed under a device-trusted anchor"
        case .ekuServerGatedCrypto: "Extended key usage names Server Gated Crypto, which Apple accepts here"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .ekuServerAuth:
            "extKeyUsage contains id-kp-serverAuth (RFC 5280 4.2.1.12; Apple ExtendedKeyUsage)."
        case .ekuMissingRequired(let cls):
            cls == .system
                ? "Chains to system roots need a leaf whose extKeyUsage explicitly contains serverAuth; a missing EKU fails (Apple ExtendedKeyUsage, errSecInvalidExtendedKeyUsage)."
                : "Leaves issued after 2019-06-30 under custom anchors must carry extKeyUsage with serverAuth (Apple, HT210176; errSecInvalidExtendedKeyUsage)."
        case .ekuAbsentAllowed:
            "No extKeyUsage: leaves issued before 2019-07-01 under custom anchors are not required to carry one (Apple HT210176)."
        case .ekuLacks(let purpose, let present):
            "extKeyUsage (\(present.joined(separator: ", "))) does not include \(purpose) (RFC 5280 4.2.1.12; Apple ExtendedKeyUsage, errSecInvalidExtendedKeyUsage)."
        case .caEKUAllows:
            "An issuer's extKeyUsage, when present, must include the purpose or anyExtendedKeyUsage (Apple ExtendedKeyUsage)."
        case .caEKULacks(let purpose, let present):
            "This issuer's extKeyUsage (\(present.joined(separator: ", "))) excludes \(purpose), which constrains everything below it (Apple ExtendedKeyUsage, errSecInvalidExtendedKeyUsage)."
        case .ekuNotChecked:
            "Basic X.509 does not check extended key usage (SecPolicyCreateBasicX509)."
        case .ekuDeviceAnchorExempt:
            "The path ends at an anchor the device trusts (a configuration profile's root, trusted in Settings), and Apple's strict rule that the leaf's extKeyUsage name serverAuth explicitly (ServerAuthEKU) skips such chains. The looser rule still holds: an extKeyUsage, when present, must include serverAuth, anyExtendedKeyUsage or a Server Gated Crypto purpose (Apple ExtendedKeyUsage)."
        case .ekuServerGatedCrypto(let present):
            "extKeyUsage (\(present.joined(separator: ", "))) has no serverAuth but a Server Gated Crypto purpose (Netscape 2.16.840.1.113730.4.1 or Microsoft 1.3.6.1.4.1.311.10.3.3), which Apple's SSL policy still accepts (ExtendedKeyUsage, set_ssl_ekus); only its strict rule (ServerAuthEKU) refuses it, for system-anchored chains and for custom-anchored leaves issued after 2019-06-30."
        }
    }
}
