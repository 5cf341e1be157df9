import TrustBuilder
import TrustCore

extension LabScenarioGroup {
    /// A root Apple trusts only for certificates issued before a cut-off, as it does Entrust's.
    public static let distrust = LabScenarioGroup(
        id: "distrust", title: "Roots distrusted by issuance date", firstPortOffset: 240)
}

extension LabScenario {
    /// A leaf of "Lab Distrusted Root" issued `daysAgo` days ago with SCTs from three operators'
    /// logs, served alone, for `NAME.trustx.test` (reached with `--connect-to`).
    static func distrustLesson(
        _ name: String, _ lesson: String, issuedDaysAgo daysAgo: Int64, rule: String, variations: [LabVariation]
    ) -> LabScenario {
        LabScenario(
            group: .distrust, name: name, lesson: lesson, host: "\(name).trustx.test", anchor: .distrustedRoot,
            expectation: .trusted, rule: rule, networkOnly: nil, variations: variations, serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in
                try p.distrust.chain(
                    host: s.host, issuedDaysAgo: daysAgo, logs: [p.ct.sameOperator[0], p.ct.others[0], p.ct.others[1]])
            })
    }

    /// The lab root as the whole system store, the lab's log list and its date constraints.
    static let distrustSystemRoot: [LabSetting] = [
        .noScenarioAnchor, .store(.distrustedRoot), .ctLogs, .dateConstraints,
    ]

    /// The distrust group: a leaf issued after the root's cut-off, and one issued before it.
    static let distrust: [LabScenario] = [
        distrustLesson(
            "distrusted-after-date",
            "A leaf issued after its root's cut-off: trusted until the device's Valid database constrains the root by date (--date-constraints), then refused whoever anchors it, as Apple refuses Entrust's certificates issued after 2024-11-15.",
            issuedDaysAgo: 1,
            rule:
                "trusted while no date constraint names the root; with the lab's constraint, Apple GrayListedKey and GrayListedLeaf (errSecNotTrusted -67843, recoverable, as the entry is overridable): the leaf's notBefore and its earliest SCT lie after the cut-off (trustd SecRVCProcessValidDateConstraints, SecPVCCheckRequireCTConstraints; docs/steps.md#revocation)",
            variations: [
                LabVariation(
                    [.dateConstraints, .ctLogs], .rejectedByDelegate(-67843),
                    "the root constrained by date, the app's own anchor: the constraint is looked up by the CA's SHA-256 whatever anchors the path, GrayListedKey, and the app's delegate cancels (-999)"
                ),
                LabVariation(
                    distrustSystemRoot, .rejectedByDefault(-67843),
                    "the root installed as a system root and constrained by date: GrayListedKey, URLSession refuses (-1202)"
                ),
            ]),
        distrustLesson(
            "issued-before-distrust",
            "A leaf issued before its root's cut-off: still trusted once the root is constrained, as long as it is CT-qualified, since a passed cut-off makes trustd require Certificate Transparency.",
            issuedDaysAgo: 20,
            rule:
                "trusted: the leaf's notBefore and its SCTs lie before the cut-off; once the cut-off has passed trustd requires CT of the path (SecPVCCheckRequireCTConstraints), so without the lab's log list the SCTs prove nothing and Apple CTRequired fails (errSecNotTrusted -67843; docs/steps.md#revocation)",
            variations: [
                LabVariation(
                    [.dateConstraints, .ctLogs], .trusted,
                    "the root constrained by date with the lab's logs: issued within the constraint, CT-qualified"),
                LabVariation(
                    [.dateConstraints], .rejectedByDelegate(-67843),
                    "the root constrained by date, Apple's own log list: the cut-off has passed, so CT is required and none of the SCTs' logs is known, CTRequired (-999)"
                ),
                LabVariation(
                    distrustSystemRoot, .trusted,
                    "the root installed as a system root and constrained by date: issued before the cut-off and CT-qualified"
                ),
            ]),
    ]
}
