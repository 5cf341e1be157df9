/// `validity-period-maximum`: Apple ValidityPeriodMaximums on the leaf, by anchor class.
enum ValidityPeriodCheck: PathCheck {
    static let systemFrom2018 = Timestamp(year: 2018, month: 3, day: 1)!
    static let systemFrom2020 = Timestamp(year: 2020, month: 9, day: 1)!
    static let customFrom2019 = Timestamp(year: 2019, month: 6, day: 30, hour: 23)!
    static let day: Int64 = 86_400

    static func run(_ c: CheckContext, into steps: inout [Step]) {
        guard c.isSSL else {
            steps.append(
                Step(
                    .validityPeriodMaximum, 0, .skipped("Basic X.509 has no lifetime maximum"),
                    .periodNoMaximum(reason: "Basic X.509 does not limit certificate lifetimes.")))
            return
        }
        // A self-signed leaf trusted as its own anchor is exempt only if Apple exempts it; it does not.
        let leaf = c.certificates[0]
        let lifetime = leaf.notAfter.secondsSinceEpoch - leaf.notBefore.secondsSinceEpoch
        let days = Int(lifetime / day)
        var maximum: Int64?
        var rule = ""
        switch c.ruleClass {
        case .system:
            if leaf.notBefore >= systemFrom2020 {
                maximum = 398 * day
                rule = "Leaves issued from 2020-09-01 that chain to a system root may be valid for at most 398 days"
            } else if leaf.notBefore >= systemFrom2018 {
                maximum = 825 * day + 3600
                rule = "Leaves issued from 2018-03-01 that chain to a system root may be valid for at most 825 days"
            }
        case .custom:
            if leaf.notBefore >= customFrom2019 {
                maximum = 825 * day + 3600
                rule = "Leaves issued from 2019-07-01 under custom anchors may be valid for at most 825 days"
            }
        }
        guard let maximum else {
            steps.append(
                Step(
                    .validityPeriodMaximum, 0, .notApplicable,
                    .periodNoMaximum(reason: "Leaves issued before Apple's cut-off dates have no lifetime maximum.")))
            return
        }
        let maxDays = Int(maximum / day)
        if lifetime > maximum {
            steps.append(
                Step(.validityPeriodMaximum, 0, .failed, .periodTooLong(days: days, maximumDays: maxDays, rule: rule)))
        } else {
            steps.append(
                Step(.validityPeriodMaximum, 0, .passed, .periodWithin(days: days, maximumDays: maxDays, rule: rule)))
        }
    }
}
