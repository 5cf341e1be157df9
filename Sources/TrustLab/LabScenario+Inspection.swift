import TrustBuilder
import TrustCore

extension LabScenarioGroup {
    /// A TLS-inspection proxy whose root the device has installed: every host works through it
    /// except the ones Apple pins to its own CAs.
    public static let inspection = LabScenarioGroup(
        id: "inspection", title: "TLS inspection and Apple's pinned hosts", firstPortOffset: 200)
}

extension LabScenario {
    /// A host as an inspection proxy serves it: the real host name (Apple's pinning matches it by
    /// name), reached with `--connect-to`; the proxy's leaf alone, signed by "Inspection Proxy
    /// Root", so without that root the path stops at the leaf (Library Test CA stays the app's
    /// anchor, as everywhere in the lab).
    static func inspected(
        _ name: String, host: String, _ lesson: String, _ expectation: LabExpectation, rule: String,
        variations: [LabVariation]
    ) -> LabScenario {
        LabScenario(
            group: .inspection, name: name, lesson: lesson, host: host, anchor: .libraryTestCA,
            expectation: expectation, rule: rule, networkOnly: nil, variations: variations,
            serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in try p.inspection.chain(host: s.host) }, namesRealHost: true)
    }

    /// The proxy's root installed by a profile and trusted in Settings, the app setting nothing.
    static let inspectionRootOnDevice: [LabSetting] = [
        .noScenarioAnchor, .anchor(.inspectionProxyRoot), .anchorClass(.device),
    ]

    /// The inspection group: the host Apple pins, then one it does not.
    static let inspection: [LabScenario] = [
        inspected(
            "inspection-icloud", host: "gateway.icloud.com",
            "An inspection proxy's certificate for gateway.icloud.com: even with the proxy's root installed, Apple pins its own hosts to its own CAs.",
            // Without the root the path also stops at the leaf (MissingIntermediate, Trust), but
            // the pin is judged on that path too and Pinning outranks Trust: the code never changes.
            .rejectedByDelegate(-67612),
            rule:
                "Apple's system pinning: the MMCS policy wants Apple's roots (AnchorApple: Pinning, -67612 errSecInvalidRoot; docs/steps.md#system-pinning), whatever the app or the device trusts; it outranks the missing issuer (MissingIntermediate: Trust, -25318), so installing the proxy's root changes nothing",
            variations: [
                LabVariation(
                    [.noScenarioAnchor], .rejectedByDefault(-67612),
                    "a device without the proxy's root: the leaf's issuer is unknown too, but the pin is reported first, URLSession refuses (-1202)"
                ),
                LabVariation(
                    inspectionRootOnDevice, .rejectedByDefault(-67612),
                    "the proxy's root installed on the device: the chain is complete, but Apple's pinning of gateway.icloud.com wants Apple's roots (errSecInvalidRoot), URLSession refuses (-1202)"
                ),
                LabVariation(
                    [.anchor(.inspectionProxyRoot)], .rejectedByDelegate(-67612),
                    "the app trusts the proxy's root itself: Apple's pinning holds for any anchor, the delegate cancels (-999)"
                ),
            ]),
        inspected(
            "inspection-example", host: "www.example.com",
            "The same proxy's certificate for www.example.com: with its root installed, every host Apple does not pin is trusted, and the proxy reads it.",
            .rejectedByDelegate(-25318),
            rule:
                "Apple MissingIntermediate until the proxy's root is trusted (Trust, -25318; docs/steps.md#chain); with it installed on the device, trusted: Apple pins no www.example.com (docs/steps.md#system-pinning, docs/steps.md#anchor-classes-app-or-device)",
            variations: [
                LabVariation(
                    [.noScenarioAnchor], .rejectedByDefault(-25318),
                    "a device without the proxy's root: the leaf's issuer is unknown, URLSession refuses (-1202)"),
                LabVariation(
                    inspectionRootOnDevice, .trusted,
                    "the proxy's root installed on the device: trusted, so the proxy reads and changes this host's traffic"
                ),
                LabVariation(
                    inspectionRootOnDevice + [.pin(.libraryTestCA)],
                    LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "an app that pins its server's CA key (Library Test CA's here): the proxy's chain evaluates (0), the pin matches none of its keys, the delegate cancels (-999)"
                ),
            ]),
    ]
}
