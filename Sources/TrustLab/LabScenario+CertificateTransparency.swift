import TrustBuilder
import TrustCore

extension LabScenarioGroup {
    /// A lab root installed among the system roots, where Apple requires Certificate Transparency.
    public static let certificateTransparency = LabScenarioGroup(
        id: "ct", title: "Certificate Transparency", firstPortOffset: 210)
}

extension LabScenario {
    /// A leaf of "Lab CT Root", served alone, for `NAME.trustx.test` (reached with `--connect-to`).
    static func ctLesson(
        _ name: String, _ lesson: String, rule: String, variations: [LabVariation],
        logs: @escaping @Sendable (CTPKI) -> [CTTestLog] = { _ in [] }
    ) -> LabScenario {
        LabScenario(
            group: .certificateTransparency, name: name, lesson: lesson, host: "\(name).trustx.test",
            anchor: .ctLabRoot,
            expectation: .trusted, rule: rule, networkOnly: nil, variations: variations, serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in try p.ct.chain(host: s.host, logs: logs(p.ct)) })
    }

    /// The lab root as the whole system store, and the lab's log list as the logs Apple trusts.
    static let ctSystemRoot: [LabSetting] = [.noScenarioAnchor, .store(.ctLabRoot), .ctLogs]

    /// The CT group: no SCT, SCTs from one operator's logs, SCTs from three operators.
    static let certificateTransparency: [LabScenario] = [
        ctLesson(
            "ct-none",
            "A leaf with no SCTs: fine below a root the app trusts, refused once the same root is a system root, where Apple requires Certificate Transparency.",
            rule:
                "Apple SystemTrustedCTRequired (Compliance, -67825 errSecVerifyActionFailed; docs/steps.md#certificate-transparency): enforced only for a path anchored at a system root; an app's own anchor is exempt",
            variations: [
                LabVariation(
                    ctSystemRoot, .rejectedByDefault(-67825),
                    "the root installed as a system root with the lab's logs: no SCT at all, so the leaf is not CT-qualified, URLSession refuses (-1202)"
                )
            ]),
        ctLesson(
            "ct-one-operator",
            "A leaf with SCTs from three logs that one company runs: trustd counts logs, not operators, so it is trusted at a system root.",
            rule:
                "trusted: a 397-day leaf issued after 2021-04-21 needs embedded SCTs from 3 trusted logs, and trustd's code counts distinct logs only (docs/steps.md#certificate-transparency); without the lab's list the logs are unknown, SystemTrustedCTRequired (-67825)",
            variations: [
                LabVariation(
                    ctSystemRoot, .trusted,
                    "the root installed as a system root with the lab's logs: three logs of one operator are enough for trustd"
                ),
                LabVariation(
                    [.noScenarioAnchor, .store(.ctLabRoot)], .rejectedByDefault(-67825),
                    "the root installed as a system root, Apple's own log list: none of the SCTs' logs is in it, URLSession refuses (-1202)"
                ),
            ],
            logs: { $0.sameOperator }),
        ctLesson(
            "ct-valid",
            "A leaf with SCTs from three logs of three companies: Certificate Transparency as Apple wants it, trusted at a system root.",
            rule:
                "trusted: embedded SCTs from 3 trusted logs qualify a 397-day leaf (docs/steps.md#certificate-transparency); without the lab's list the logs are unknown, SystemTrustedCTRequired (-67825)",
            variations: [
                LabVariation(
                    ctSystemRoot, .trusted,
                    "the root installed as a system root with the lab's logs: three verified SCTs, the leaf is CT-qualified"
                ),
                LabVariation(
                    [.noScenarioAnchor, .store(.ctLabRoot)], .rejectedByDefault(-67825),
                    "the root installed as a system root, Apple's own log list: a log the device does not trust proves nothing, URLSession refuses (-1202)"
                ),
            ],
            logs: { [$0.sameOperator[0], $0.others[0], $0.others[1]] }),
    ]
}
