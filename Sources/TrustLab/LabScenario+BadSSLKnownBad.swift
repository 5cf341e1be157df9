import TrustBuilder
import TrustCore

extension LabScenarioGroup {
    /// badssl.com's known-bad roots (its domains/known-bad folder): roots software installed on
    /// users' machines together with their private keys.
    public static let badsslKnownBad = LabScenarioGroup(
        id: "badssl-known-bad", title: "badssl.com: known bad", firstPortOffset: 130)
}

extension LabScenario {
    /// A known-bad root's server: its leaf alone, issued by the lab's root of that name.
    static func knownBad(_ name: String, _ root: LabAnchor, _ lesson: String) -> LabScenario {
        badsslCase(
            name, group: .badsslKnownBad, lesson,
            // The leaf's issuer is neither sent nor an anchor: MissingIntermediate.
            .rejectedByDelegate(-25318),
            rule:
                "Apple MissingIntermediate until the root is installed (Trust, -25318; docs/steps.md#chain); installed by a profile and turned on in Certificate Trust Settings, any custom anchor is trusted, and trustd's blocked-key lists skip the anchor (docs/lab.md#the-known-bad-roots)",
            variations: [
                LabVariation(
                    [.noScenarioAnchor], .rejectedByDefault(-25318),
                    "an iPhone without the root: the issuer is unknown, URLSession refuses (-1202)"),
                LabVariation(
                    [.anchor(root), .anchorClass(.device)], .trusted,
                    "the root installed by a profile and trusted in Settings: every site its key signs is trusted, and that key is public"
                ),
            ],
            chain: LabChain { p, s throws(BuilderError) in
                // The server sends its leaf alone, as badssl.com's do.
                let issuer = p.badssl.knownBadRoots[root]!
                let leaf = try p.badssl.template.leaf(
                    key: p.badssl.mainKey, dnsNames: [s.host], commonName: s.host, issuer: issuer)
                return LabServedChain(chain: [leaf], key: p.badssl.mainKey)
            })
    }

    /// The known-bad group, in badssl.com's order.
    static let badsslKnownBad: [LabScenario] = [
        knownBad(
            "superfish", .superfish,
            "Superfish's root: adware installed it with its private key to inject ads into HTTPS pages."),
        knownBad(
            "edellroot", .eDellRoot,
            "eDellRoot: Dell installed it with its private key on laptops; anyone could sign for any site."),
        knownBad(
            "dsdtestprovider", .dsdTestProvider,
            "DSDTestProvider: a second Dell root shipped with its private key."),
        knownBad(
            "preact-cli", .preactCLI,
            "preact-cli's development root (\"Acme Co\"): a tool asked developers to trust a root whose key is in a public package."
        ),
        knownBad(
            "webpack-dev-server", .webpackDevServer,
            "webpack-dev-server's development root (CN=localhost): trusted by developers, its key in every copy of the package."
        ),
    ]
}
