/// What the `validity-period-maximum` step found (ValidityPeriodCheck).
enum ValidityPeriodFinding: RuleFinding {
    case periodWithin(days: Int, maximumDays: Int, rule: String)
    case periodTooLong(days: Int, maximumDays: Int, rule: String)
    case periodNoMaximum(reason: String)
    /// The leaf is itself a device-trusted anchor, so no lifetime maximum applies.
    case periodDeviceAnchorExempt(days: Int)

    var storage: Finding.Storage { .validityPeriod(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .periodTooLong: AppleFailure("ValidityPeriodMaximums", .compliance, -67901)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .periodWithin(let days, let max, _): "Lifetime \(days) days, within \(max)"
        case .periodTooLong(let days, let max, _): "Lifetime \(days) days, over the \(max)-day maximum"
        case .periodNoMaximum: "No lifetime maximum applies"
        case .periodDeviceAnchorExempt(let days): "Lifetime \(days) days, no maximum for a device-trusted leaf"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .periodWithin(_, _, let rule), .periodTooLong(_, _, let rule):
            "\(rule) (Apple ValidityPeriodMaximums, errSecCertificateValidityPeriodTooLong)."
        case .periodNoMaximum(let reason):
            reason
        case .periodDeviceAnchorExempt:
            "Apple applies no lifetime maximum to a leaf that is itself an anchor the device trusts (ValidityPeriodMaximums); a leaf below a device-trusted CA keeps the 825-day maximum."
        }
    }
}
