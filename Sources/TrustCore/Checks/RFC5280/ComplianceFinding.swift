/// A rule of RFC 5280 or the CA/Browser Forum's Baseline Requirements that Apple does not enforce, broken;
/// the webpki profile's checks report it under their own step (Apple would call the certificate not standards
/// compliant).
enum ComplianceFinding: RuleFinding {
    case nonCompliant(detail: String)

    var storage: Finding.Storage { .compliance(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .nonCompliant: AppleFailure("CriticalExtensions", .compliance, -67603)
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .nonCompliant: "Not standards compliant"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .nonCompliant(let d):
            "\(d). Apple reports the certificate as not standards compliant."
        }
    }

    var specifics: String? {
        switch self {
        case .nonCompliant(let detail): detail
        }
    }
}
