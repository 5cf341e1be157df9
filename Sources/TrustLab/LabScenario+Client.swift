import TrustBuilder
import TrustCore

extension LabScenarioGroup {
    /// Who is asking: a root that an app trusts and Safari, judging it 60 days early, refuses.
    public static let client = LabScenarioGroup(
        id: "client", title: "Safari and an app: early anchor expiry", firstPortOffset: 280)
}

extension LabScenario {
    /// The lab root as the whole system store with the lab's log list, as a public CA's root is.
    static let expiringSystemRoot: [LabSetting] = [.noScenarioAnchor, .store(.expiringRoot), .ctLogs]

    /// The client group: one site under a root 30 days from its notAfter.
    static let client: [LabScenario] = [
        LabScenario(
            group: .client, name: "works-in-app-fails-in-safari",
            lesson:
                "A root 30 days from its expiry: every app trusts the site until the root's last day, while Safari and Apple's other programs refuse it now, since trustd judges their roots 60 days early.",
            host: "works-in-app-fails-in-safari.trustx.test", anchor: .expiringRoot, expectation: .trusted,
            rule:
                "trusted for an app; for Safari, Mail and other Apple programs trustd judges a root valid for more than 120 days, unless a user or administrator trusted it, 60 days after the evaluation time (Security, trust/trustd/SecPolicyServer.c, _ShouldApplyEarlyExpirationCheck): Apple TemporalValidity (Expired, -67818 errSecCertificateExpired; docs/steps.md#validity, which says why customer devices may not apply it yet)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    expiringSystemRoot, .trusted,
                    "the root installed as a system root with the lab's logs, an app: 30 days left, and the leaf is CT-qualified"
                ),
                LabVariation(
                    expiringSystemRoot + [.client(.safari)], .rejectedByDefault(-67818),
                    "the same system root, Safari: judged 60 days on, after the root's notAfter, TemporalValidity; Safari shows its warning page (URLSession's default handling: -1202)"
                ),
                LabVariation(
                    [.client(.safari)], .rejectedByDelegate(-67818),
                    "the root as an Apple program's own anchor (SecTrustSetAnchorCertificates): only a user's or administrator's trust exempts a root, so it expires early too, and the delegate cancels (-999)"
                ),
                LabVariation(
                    [.anchorClass(.device), .client(.safari)], .trusted,
                    "the root installed by a configuration profile and trusted in Certificate Trust Settings, Safari: a device-trusted root is judged at the evaluation time itself"
                ),
            ],
            serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in
                try p.expiring.chain(host: s.host, logs: [p.ct.sameOperator[0], p.ct.others[0], p.ct.others[1]])
            })
    ]
}
