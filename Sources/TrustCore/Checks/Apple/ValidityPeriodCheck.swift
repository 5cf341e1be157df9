import TrustSupport
import TrustX509

/// `validity-period-maximum`: Apple ValidityPeriodMaximums on the leaf, by anchor class.
struct ValidityPeriodCheck: PathCheck {
    /// Whether a lifetime maximum applies (Apple's SSL policy; Basic X.509 has none).
    let enforced: Bool
    /// Apple: no maximum for a leaf the device trusts itself.
    let deviceAnchoredLeafExempt: Bool

    static let systemFrom2018 = Timestamp(year: 2018, month: 3, day: 1)!
    static let systemFrom2020 = Timestamp(year: 2020, month: 9, day: 1)!
    static let customFrom2019 = Timestamp(year: 2019, month: 6, day: 30, hour: 23)!
    static let day: Int64 = 86_400
    /// CA/Browser Forum ballot SC-081 (BR 6.3.2): maximum days for certificates issued from each date.
    static let sc081: [(from: Timestamp, days: Int64)] = [
        (Timestamp(year: 2026, month: 3, day: 15)!, 200),
        (Timestamp(year: 2027, month: 3, day: 15)!, 100),
        (Timestamp(year: 2029, month: 3, day: 15)!, 47),
    ]

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        guard enforced else {
            steps.append(
                Step(
                    .validityPeriodMaximum, 0, .skipped("Basic X.509 has no lifetime maximum"),
                    ValidityPeriodFinding.periodNoMaximum(reason: "Basic X.509 does not limit certificate lifetimes.")))
            return
        }
        // A leaf trusted as its own anchor is exempt only when the device trusts it (trustd skips
        // the maximum for a leaf in the user anchor source); as an app anchor it is not.
        let leaf = c.certificates[0]
        let lifetime = leaf.notAfter.secondsSinceEpoch - leaf.notBefore.secondsSinceEpoch
        let days = Int(lifetime / Self.day)
        if deviceAnchoredLeafExempt && c.leafIsDeviceAnchor {
            steps.append(
                Step(
                    .validityPeriodMaximum, 0,
                    CheckContext.deviceAnchorReason("no lifetime maximum for a leaf the device trusts itself"),
                    ValidityPeriodFinding.periodDeviceAnchorExempt(days: days)))
            return
        }
        var maximum: Int64?
        var rule = ""
        switch c.ruleClass {
        case .system:
            if leaf.notBefore >= Self.systemFrom2020 {
                maximum = 398 * Self.day
                rule = "Leaves issued from 2020-09-01 that chain to a system root may be valid for at most 398 days"
            } else if leaf.notBefore >= Self.systemFrom2018 {
                maximum = 825 * Self.day + 3600
                rule = "Leaves issued from 2018-03-01 that chain to a system root may be valid for at most 825 days"
            }
        case .custom, .device:
            // Below a device-trusted CA the leaf keeps the custom-anchor maximum.
            if leaf.notBefore >= Self.customFrom2019 {
                maximum = 825 * Self.day + 3600
                rule = "Leaves issued from 2019-07-01 under custom anchors may be valid for at most 825 days"
            }
        }
        guard let maximum else {
            steps.append(
                Step(
                    .validityPeriodMaximum, 0, .notApplicable,
                    ValidityPeriodFinding.periodNoMaximum(
                        reason: "Leaves issued before Apple's cut-off dates have no lifetime maximum.")))
            return
        }
        let maxDays = Int(maximum / Self.day)
        // Whether Apple enforces SC-081's shorter maximums is UNCONFIRMED (absent from the 2025-10
        // source): they are not enforced here, but a leaf beyond them says so.
        if c.ruleClass == .system, let limit = Self.sc081.last(where: { leaf.notBefore >= $0.from }),
            lifetime > limit.days * Self.day, lifetime <= maximum
        {
            rule +=
                "; the CA/Browser Forum's SC-081 allows \(limit.days) days for certificates issued from \(limit.from.rfc3339.prefix(10)), which trustx does not enforce because Apple's enforcement is unconfirmed"
        }
        if lifetime > maximum {
            steps.append(
                Step(
                    .validityPeriodMaximum, 0, .failed,
                    ValidityPeriodFinding.periodTooLong(days: days, maximumDays: maxDays, rule: rule)))
        } else {
            steps.append(
                Step(
                    .validityPeriodMaximum, 0, .passed,
                    ValidityPeriodFinding.periodWithin(days: days, maximumDays: maxDays, rule: rule)))
        }
    }
}
