import PathRules
import TrustSupport

/// What the `validity` step found (ValidityCheck); trustd's adjustments are worded by PathRules.
enum ValidityFinding: RuleFinding {
    case withinValidity(notBefore: Timestamp, notAfter: Timestamp)
    case expired(notAfter: Timestamp)
    case notYetValid(notBefore: Timestamp)
    indirect case appleAnchorNeverExpires(AnchorExpiryRules.Outcome)
    indirect case withinEarlyExpiry(AnchorExpiryRules.Outcome)
    indirect case expiresEarly(AnchorExpiryRules.Outcome)

    var storage: Finding.Storage { .validity(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .expired, .notYetValid, .expiresEarly: AppleFailure("TemporalValidity", .expired, -67818)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .withinValidity: "Valid at the evaluation time"
        case .expired(let t): "Expired on \(t.rfc3339)"
        case .notYetValid(let t): "Not valid before \(t.rfc3339)"
        case .appleAnchorNeverExpires(let o), .withinEarlyExpiry(let o), .expiresEarly(let o):
            AnchorExpiryRules.title(o)
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .withinValidity(let nb, let na):
            "Valid from \(nb.rfc3339) to \(na.rfc3339) (RFC 5280 4.1.2.5; Apple TemporalValidity)."
        case .expired(let na):
            "The evaluation time is after notAfter \(na.rfc3339). Apple reports TemporalValidity: errSecCertificateExpired (-67818)."
        case .notYetValid(let nb):
            "The evaluation time is before notBefore \(nb.rfc3339). Apple reports this as TemporalValidity too: errSecCertificateExpired (-67818), not errSecCertificateNotValidYet."
        case .appleAnchorNeverExpires(let o), .withinEarlyExpiry(let o), .expiresEarly(let o):
            AnchorExpiryRules.detail(o)
        }
    }
}
