/// What the `basic-constraints` step found (BasicConstraintsCheck).
enum BasicConstraintsFinding: RuleFinding {
    case leafNeedsNoCA
    case isCA(pathLength: Int?)
    case missingBasicConstraints
    case notCA
    case pathLengthExceeded(limit: Int, actual: Int)
    case leafIsCA
    case v1Issuer

    var storage: Finding.Storage { .basicConstraints(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .missingBasicConstraints, .v1Issuer: AppleFailure("BasicConstraints", .compliance, -67604)
        case .notCA: AppleFailure("BasicConstraintsCA", .compliance, -67605)
        case .leafIsCA: AppleFailure("BasicConstraintsCA", .compliance, -67605)
        case .pathLengthExceeded: AppleFailure("BasicConstraintsPathLen", .compliance, -67611)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .leafNeedsNoCA: "Leaf: no CA constraint needed"
        case .isCA(let p): p.map { "CA, path length at most \($0)" } ?? "CA"
        case .missingBasicConstraints: "Issuer has no basicConstraints"
        case .notCA: "Issuer is not a CA (cA = FALSE)"
        case .pathLengthExceeded(let limit, let actual): "Path length \(actual) exceeds the limit \(limit)"
        case .leafIsCA: "Leaf is a CA certificate"
        case .v1Issuer: "Version 1 certificate used as an issuer"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .leafNeedsNoCA:
            "basicConstraints matters for issuers; a leaf is not required to carry it."
        case .isCA:
            "basicConstraints cA = TRUE lets this certificate issue others (RFC 5280 4.2.1.9)."
        case .missingBasicConstraints:
            "A version 3 issuer must assert basicConstraints cA = TRUE (RFC 5280 4.2.1.9; Apple BasicConstraints, errSecNoBasicConstraints)."
        case .notCA:
            "This certificate signed another but basicConstraints says it is not a CA (RFC 5280 6.1.4 (k); Apple BasicConstraintsCA, errSecNoBasicConstraintsCA)."
        case .pathLengthExceeded(let limit, let actual):
            "pathLenConstraint \(limit) allows at most \(limit) intermediates below this CA; \(actual) follow (RFC 5280 6.1.4 (l)-(m); Apple BasicConstraintsPathLen)."
        case .leafIsCA:
            "A server certificate must not be a CA certificate (CA/Browser Forum BR 7.1.2.7.8)."
        case .v1Issuer:
            "A version 1 certificate has no basicConstraints, so it cannot be shown to be a CA (RFC 5280 6.1.4 (k))."
        }
    }
}
