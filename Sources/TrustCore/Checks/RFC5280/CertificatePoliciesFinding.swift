import PathRules
/// What the `certificate-policies` step found (CertificatePoliciesCheck).
enum CertificatePoliciesFinding: RuleFinding {
    case policySet(policies: [String])
    case policyFailed(PolicyFailure)

    var storage: Finding.Storage { .certificatePolicies(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .policyFailed: AppleFailure("PolicyConstraints", .compliance, -67835)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .policySet(let p):
            p.isEmpty
                ? "No certificate policy valid for the whole path (none required)"
                : "Valid policies: \(p.joined(separator: ", "))"
        case .policyFailed(.explicitPolicyRequired): "Explicit policy required, but no policy is valid"
        case .policyFailed(.anyPolicyMapped): "policyMappings maps anyPolicy"
        case .policyFailed(.tooLarge): "Certificate policies too large to process"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .policySet(let p):
            p.isEmpty
                ? "Policy processing (RFC 5280 6.1) with Apple's inputs (any policy acceptable, explicit policy not required, mapping and anyPolicy allowed) leaves no policy valid for every certificate of the path; that is acceptable because no CA required an explicit policy (RFC 5280 4.2.1.11)."
                : "Policy processing (RFC 5280 6.1) with Apple's inputs (any policy acceptable, explicit policy not required, mapping and anyPolicy allowed) leaves these policies valid from the anchor down to the leaf, after any policyMappings; anyPolicy means every policy."
        case .policyFailed(.explicitPolicyRequired(let index)):
            "A requireExplicitPolicy count ran out (at certificate \(index)) while no certificate policy was valid for the whole path, so the path is rejected (RFC 5280 4.2.1.11, 6.1.3 (f), 6.1.5; Apple PolicyConstraints, errSecInvalidPolicyIdentifiers)."
        case .policyFailed(.anyPolicyMapped(let index)):
            "Certificate \(index)'s policyMappings names anyPolicy as an issuer or subject domain policy, which RFC 5280 forbids (4.2.1.5, 6.1.4 (a); Apple PolicyConstraints, errSecInvalidPolicyIdentifiers)."
        case .policyFailed(.tooLarge(let limit)):
            "The certificates' policies and mappings need more than \(limit) units of work to process; trustx stops there rather than let a crafted chain consume unbounded time (Apple PolicyConstraints, errSecInvalidPolicyIdentifiers)."
        }
    }
}

extension Finding {
    /// The policies valid for the whole path, when this is the certificate-policies step's
    /// result: the JSON report carries them as data beside the title that lists them for people.
    public var validPolicies: [String]? {
        if case .policySet(let p)? = self.as(CertificatePoliciesFinding.self) { return p }
        return nil
    }
}
