/// What the `system-pinning` step found (SystemPinningCheck). Every case names Apple's policy
/// (`MMCS`, `IDS`, ...) that pins the host.
enum SystemPinningFinding: RuleFinding {
    /// One of the policy's rules holds for the path (`rule` counts from 1).
    case pinnedRuleMet(policy: String, rule: Int, rules: Int)
    /// The anchor is not one of Apple's own roots (AnchorApple).
    case anchorNotApple(policy: String, anchor: String)
    /// The anchor's SHA-256 is not one the rule lists (AnchorSHA256).
    case anchorNotListed(policy: String, anchor: String)
    /// The path has another number of certificates than the rule asks (ChainLength).
    case chainLengthMismatch(policy: String, expected: Int, actual: Int)
    /// No intermediate carries the rule's marker extension (IntermediateMarkerOid).
    case intermediateMarkerMissing(policy: String, oid: String)
    /// An intermediate's subject has not exactly one C equal to the rule's (IntermediateCountry).
    case intermediateCountryMismatch(policy: String, expected: String)
    /// An intermediate's subject has not exactly one O equal to the rule's (IntermediateOrganization).
    case intermediateOrganizationMismatch(policy: String, expected: String)
    /// The leaf carries none of the rule's markers (LeafMarkerOid).
    case leafMarkerMissing(policy: String, oids: [String])
    /// The leaf carries none of the rule's production markers (LeafMarkersProdAndQA).
    case leafProductionMarkerMissing(policy: String, oids: [String])
    /// The leaf's subject has not exactly one O equal to the rule's (SubjectOrganization).
    case subjectOrganizationMismatch(policy: String, expected: String)
    /// No certificate of the path asserts the rule's policy OID (CertificatePolicy).
    case certificatePolicyMissing(policy: String, oid: String)

    var storage: Finding.Storage { .systemPinning(self) }

    /// Apple's check key, subtype and OSStatus (SecPolicyChecks.list: all of subtype Pinning).
    var appleFailure: AppleFailure? {
        switch self {
        case .pinnedRuleMet: nil
        case .anchorNotApple: AppleFailure("AnchorApple", .pinning, -67612)
        case .anchorNotListed: AppleFailure("AnchorSHA256", .pinning, -67612)
        case .chainLengthMismatch: AppleFailure("ChainLength", .pinning, -67611)
        case .intermediateMarkerMissing: AppleFailure("IntermediateMarkerOid", .pinning, -67880)
        case .intermediateCountryMismatch: AppleFailure("IntermediateCountry", .pinning, -67655)
        case .intermediateOrganizationMismatch: AppleFailure("IntermediateOrganization", .pinning, -67655)
        case .leafMarkerMissing: AppleFailure("LeafMarkerOid", .pinning, -67880)
        case .leafProductionMarkerMissing: AppleFailure("LeafMarkersProdAndQA", .pinning, -67880)
        case .subjectOrganizationMismatch: AppleFailure("SubjectOrganization", .pinning, -67655)
        case .certificatePolicyMissing: AppleFailure("CertificatePolicy", .pinning, -67835)
        }
    }

    /// The policy's name.
    var policy: String {
        switch self {
        case .pinnedRuleMet(let p, _, _), .anchorNotApple(let p, _), .anchorNotListed(let p, _),
            .chainLengthMismatch(let p, _, _), .intermediateMarkerMissing(let p, _),
            .intermediateCountryMismatch(let p, _), .intermediateOrganizationMismatch(let p, _),
            .leafMarkerMissing(let p, _), .leafProductionMarkerMissing(let p, _),
            .subjectOrganizationMismatch(let p, _), .certificatePolicyMissing(let p, _):
            p
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .pinnedRuleMet(let p, let rule, let rules): "Apple's \(p) pinning rule \(rule) of \(rules) holds"
        case .anchorNotApple(let p, _): "Anchor is not an Apple root (Apple's \(p) pinning)"
        case .anchorNotListed(let p, _): "Anchor is not one Apple's \(p) pinning lists"
        case .chainLengthMismatch(let p, let expected, let actual):
            "\(actual) certificates, Apple's \(p) pinning wants \(expected)"
        case .intermediateMarkerMissing(let p, let oid): "No intermediate carries marker \(oid) (Apple's \(p) pinning)"
        case .intermediateCountryMismatch(let p, let expected):
            "Intermediate's country is not \(expected) (Apple's \(p) pinning)"
        case .intermediateOrganizationMismatch(let p, let expected):
            "Intermediate's organization is not \(expected) (Apple's \(p) pinning)"
        case .leafMarkerMissing(let p, _), .leafProductionMarkerMissing(let p, _):
            "Leaf lacks Apple's \(p) marker extension"
        case .subjectOrganizationMismatch(let p, let expected):
            "Leaf's organization is not \(expected) (Apple's \(p) pinning)"
        case .certificatePolicyMissing(let p, let oid): "No certificate asserts policy \(oid) (Apple's \(p) pinning)"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        // Every step of this rule opens with the same sentence, which is what the report and the
        // explorer's Detail pane show first.
        let lead =
            "Apple pins this host to its own CAs: its \(policy) pinning policy (security_certificates Pinning/CertificatePinning.plist, applied by trustd's SecPinningDb.m) holds for any anchor the app or the device trusts, so a TLS-inspection proxy's root does not satisfy it."
        let rule: String
        switch self {
        case .pinnedRuleMet(_, let n, let count):
            rule =
                "Rule \(n) of \(count) holds for this path (a chain must meet one rule; the others are alternatives)."
        case .anchorNotApple(_, let anchor):
            rule =
                "The path's anchor, \(anchor), is not one of Apple's roots (Apple Root CA, - G2, - G3, the Platform Backport roots; AnchorApple, errSecInvalidRoot)."
        case .anchorNotListed(_, let anchor):
            rule =
                "The path's anchor, \(anchor), is not among the certificates the rule lists by SHA-256 (AnchorSHA256, errSecInvalidRoot)."
        case .chainLengthMismatch(_, let expected, let actual):
            rule =
                "The rule wants a path of exactly \(expected) certificates, anchor included; this one has \(actual) (ChainLength, errSecPathLengthConstraintExceeded)."
        case .intermediateMarkerMissing(_, let oid):
            rule =
                "One intermediate must carry Apple's marker extension \(oid) (IntermediateMarkerOid, errSecMissingRequiredExtension)."
        case .intermediateCountryMismatch(_, let expected):
            rule =
                "Every intermediate's subject must have exactly one countryName, \(expected) (IntermediateCountry, errSecInvalidSubjectName)."
        case .intermediateOrganizationMismatch(_, let expected):
            rule =
                "Every intermediate's subject must have exactly one organizationName, \(expected) (IntermediateOrganization, errSecInvalidSubjectName)."
        case .leafMarkerMissing(_, let oids):
            rule =
                "The leaf must carry one of Apple's marker extensions (\(oids.joined(separator: ", "))) (LeafMarkerOid, errSecMissingRequiredExtension)."
        case .leafProductionMarkerMissing(_, let oids):
            rule =
                "The leaf must carry one of Apple's production marker extensions (\(oids.joined(separator: ", "))) (LeafMarkersProdAndQA, errSecMissingRequiredExtension)."
        case .subjectOrganizationMismatch(_, let expected):
            rule =
                "The leaf's subject must have exactly one organizationName, \(expected) (SubjectOrganization, errSecInvalidSubjectName)."
        case .certificatePolicyMissing(_, let oid):
            rule =
                "Some certificate of the path must assert certificate policy \(oid) (CertificatePolicy, errSecInvalidPolicyIdentifiers)."
        }
        return lead + " " + rule
    }
}
