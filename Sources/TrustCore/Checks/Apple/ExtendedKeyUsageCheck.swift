import TrustSupport
import TrustX509

/// `extended-key-usage`: the leaf may be used for TLS servers (Apple ExtendedKeyUsage, by anchor class).
struct ExtendedKeyUsageCheck: PathCheck {
    /// Whether the leaf's purpose is checked at all (Basic X.509 does not check it).
    let enforced: Bool
    /// Apple's rules by anchor class: an explicit serverAuth for system roots and for custom
    /// anchors' leaves issued after mid-2019, anyExtendedKeyUsage before that, and the strict rule
    /// skipped below a device-trusted anchor. Without them RFC 5280 4.2.1.12 applies: no
    /// extension, no restriction.
    let appleAnchorRules: Bool
    /// CA/Browser Forum BR 7.1.2.7.6 and 7.1.2.7.10: a subscriber certificate for TLS servers
    /// carries a non-critical extKeyUsage without anyExtendedKeyUsage.
    let subscriberRules: Bool
    /// CA/Browser Forum BR 7.1.2.1.2: a root carries no extKeyUsage.
    let rootMustNotCarryEKU: Bool

    var enforcedExtensions: Set<OID> { [.extKeyUsage] }

    /// Netscape's and Microsoft's Server Gated Crypto purposes, which Apple's SSL policy still lists
    /// beside serverAuth and anyExtendedKeyUsage (set_ssl_ekus in SecPolicy.c); only the strict
    /// serverAuth rule (ServerAuthEKU) refuses them.
    static let serverGatedCrypto: Set<OID> = [
        OID(dotted: "2.16.840.1.113730.4.1")!, OID(dotted: "1.3.6.1.4.1.311.10.3.3")!,
    ]

    /// Apple requires an explicit serverAuth EKU on leaves issued after this under custom anchors.
    static let customAnchorEKUCutoff = Timestamp(year: 2019, month: 6, day: 30, hour: 23)!

    /// trustd's strict serverAuth rule (ServerAuthEKU) returns early for a chain whose root is in
    /// the user anchor source; the loose rule (ExtendedKeyUsage) accepts no EKU or anyEKU.
    static let serverAuthSkipped = CheckContext.deviceAnchorReason(
        "chains to a root the device trusts need no explicit serverAuth")

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        let purpose = c.settings.requiredLeafPurpose ?? .serverAuth
        guard enforced else {
            steps.append(
                Step(
                    .extendedKeyUsage, 0, .skipped("Basic X.509 does not check extended key usage"),
                    ExtendedKeyUsageFinding.ekuNotChecked))
            return
        }
        let leaf = c.certificates[0]
        let names = leaf.extendedKeyUsage?.map(\.name) ?? []
        let subscriber = subscriberRules && c.leafIsForServerAuth && c.count > 1
        // Apple's loose rule (ExtendedKeyUsage) accepts an SGC purpose wherever it accepts anyEKU.
        func looselyAllowed(_ eku: [OID]) -> Bool {
            eku.contains(.anyExtendedKeyUsage)
                || (appleAnchorRules && c.leafIsForServerAuth && !Self.serverGatedCrypto.isDisjoint(with: eku))
        }
        if subscriber, let eku = leaf.extendedKeyUsage, eku.contains(.anyExtendedKeyUsage) {
            // CA/Browser Forum BR 7.1.2.7.10 (subscriber extKeyUsage): "anyExtendedKeyUsage MUST
            // NOT" be present.
            steps.append(
                Step(
                    .extendedKeyUsage, 0, .failed,
                    ComplianceFinding.nonCompliant(
                        detail:
                            "subscriber extKeyUsage (\(names.joined(separator: ", "))) contains anyExtendedKeyUsage (CA/Browser Forum BR 7.1.2.7.10)"
                    )))
        } else if subscriber, leaf.extension(.extKeyUsage)?.critical == true {
            // CA/Browser Forum BR 7.1.2.7.6 (subscriber extensions): extKeyUsage "MUST" be present,
            // critical "N".
            steps.append(
                Step(
                    .extendedKeyUsage, 0, .failed,
                    ComplianceFinding.nonCompliant(
                        detail: "subscriber extKeyUsage is marked critical (CA/Browser Forum BR 7.1.2.7.6)")))
        } else if subscriber, leaf.extendedKeyUsage == nil {
            // CA/Browser Forum BR 7.1.2.7.6 (subscriber extensions): extKeyUsage "MUST" be present.
            steps.append(
                Step(
                    .extendedKeyUsage, 0, .failed,
                    ComplianceFinding.nonCompliant(
                        detail: "subscriber certificate has no extKeyUsage (CA/Browser Forum BR 7.1.2.7.6)")))
        } else if let eku = leaf.extendedKeyUsage {
            if eku.contains(purpose) {
                steps.append(Step(.extendedKeyUsage, 0, .passed, ExtendedKeyUsageFinding.ekuServerAuth))
            } else if appleAnchorRules && c.endsAtDeviceAnchor && looselyAllowed(eku) {
                // Only the loose rule applies below a device-trusted root, and it accepts anyEKU.
                steps.append(
                    Step(
                        .extendedKeyUsage, 0, Self.serverAuthSkipped,
                        ExtendedKeyUsageFinding.ekuDeviceAnchorExempt(present: names)))
            } else if eku.contains(.anyExtendedKeyUsage) && appleAnchorRules && c.ruleClass == .custom
                && leaf.notBefore <= Self.customAnchorEKUCutoff
            {
                steps.append(Step(.extendedKeyUsage, 0, .passed, ExtendedKeyUsageFinding.caEKUAllows))
            } else if looselyAllowed(eku) && appleAnchorRules && c.ruleClass == .custom
                && leaf.notBefore <= Self.customAnchorEKUCutoff
            {
                steps.append(
                    Step(.extendedKeyUsage, 0, .passed, ExtendedKeyUsageFinding.ekuServerGatedCrypto(present: names)))
            } else {
                steps.append(
                    Step(
                        .extendedKeyUsage, 0, .failed,
                        ExtendedKeyUsageFinding.ekuLacks(purpose: purpose.name, present: names)))
            }
        } else if !appleAnchorRules {
            // RFC 5280 4.2.1.12: without the extension the key is not restricted.
            steps.append(Step(.extendedKeyUsage, 0, .passed, ExtendedKeyUsageFinding.ekuAbsentAllowed))
        } else if c.endsAtDeviceAnchor {
            steps.append(
                Step(
                    .extendedKeyUsage, 0, Self.serverAuthSkipped,
                    ExtendedKeyUsageFinding.ekuDeviceAnchorExempt(present: [])))
        } else if c.ruleClass == .system || leaf.notBefore > Self.customAnchorEKUCutoff {
            steps.append(
                Step(
                    .extendedKeyUsage, 0, .failed, ExtendedKeyUsageFinding.ekuMissingRequired(anchorClass: c.ruleClass))
            )
        } else {
            steps.append(Step(.extendedKeyUsage, 0, .passed, ExtendedKeyUsageFinding.ekuAbsentAllowed))
        }
        // CA/Browser Forum BR 7.1.2.1.2 (Root CA extensions): "extKeyUsage MUST NOT" be present.
        if rootMustNotCarryEKU, c.count > 1, c.isAnchor(c.count - 1), c.certificates[c.count - 1].isSelfIssued,
            let eku = c.certificates[c.count - 1].extendedKeyUsage
        {
            steps.append(
                Step(
                    .extendedKeyUsage, c.count - 1, .failed,
                    ComplianceFinding.nonCompliant(
                        detail:
                            "root certificate carries extKeyUsage (\(eku.map(\.name).joined(separator: ", "))) (CA/Browser Forum BR 7.1.2.1.2)"
                    )))
        }
        // An intermediate's EKU, when present, constrains what it may issue.
        for i in 1..<c.count where !c.isAnchor(i) {
            guard let eku = c.certificates[i].extendedKeyUsage else { continue }
            if eku.contains(purpose) || eku.contains(.anyExtendedKeyUsage) {
                steps.append(Step(.extendedKeyUsage, i, .passed, ExtendedKeyUsageFinding.caEKUAllows))
            } else if looselyAllowed(eku) && c.ruleClass != .system {
                // The strict rule that refuses SGC on a sub-CA applies to system-anchored chains only.
                steps.append(
                    Step(
                        .extendedKeyUsage, i, .passed,
                        ExtendedKeyUsageFinding.ekuServerGatedCrypto(present: eku.map(\.name))))
            } else {
                steps.append(
                    Step(
                        .extendedKeyUsage, i, .failed,
                        ExtendedKeyUsageFinding.caEKULacks(purpose: purpose.name, present: eku.map(\.name))))
            }
        }
    }
}
