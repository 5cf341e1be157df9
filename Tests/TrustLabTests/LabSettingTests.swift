import ATSModel
import SuiteFixtures
import Testing
import TrustCore

@testable import TrustLab

/// A variation's settings spelled as `trustx check` options, checked against the options'
/// documented spelling (docs/cli.md); that the spelled commands parse and give the listed
/// expectations is `LabCheckTests.testEveryVariationGivesItsListedExpectationThroughCheck`.
@Suite(.serialized, .onTestThreads) final class LabSettingTests {
    /// Paths and pins as a running lab would give them.
    static let values = LabArgumentValues(
        anchorPaths: [.libraryTestCA: "/lab/library-test-ca.pem", .rogueCA: "/lab/rogue-ca.pem"],
        pins: [.goodLeaf: "sha256//R09PRA=="], clientIdentityPath: "/lab/client.p12", clientIdentityPassword: "pw")

    @Test func testEachSettingIsSpelledAsTheOptionThatMakesIt() {
        let cases: [(LabSetting, [String])] = [
            (.policy(.basicX509), ["--policy", "basic"]),
            (.policy(.ssl(host: nil)), ["--policy", "ssl-no-host"]),
            (.policy(.ssl(host: "example.com")), ["--policy", "ssl", "--host", "example.com"]),
            (.anchor(.rogueCA), ["--anchor", "/lab/rogue-ca.pem"]),
            (.noScenarioAnchor, []),
            (.pin(.goodLeaf), ["--pin", "sha256//R09PRA=="]),
            (.minimumTLS(.tls1_3), ["--tls-min", "1.3"]),
            (.minimumTLS(.tls1_0), ["--tls-min", "1.0"]),
            (.noAIA, ["--no-aia"]),
            (.clientIdentity, ["--client-cert", "/lab/client.p12", "--password", "pw"]),
        ]
        for (setting, expected) in cases {
            #expect(setting.arguments(Self.values) == expected, "\(setting)")
        }
    }

    @Test func testEveryMinimumVersionIsOneTheCheckOptionReadsBack() {
        for version in TLSVersion.allCases {
            let arguments = LabSetting.minimumTLS(version).arguments(Self.values)
            #expect(arguments.first == "--tls-min")
            #expect(arguments.last.flatMap(TLSVersion.init) == version)
        }
    }

    @Test func testTheScenarioAnchorComesFirstUnlessAVariationLeavesItOut() {
        let target = ["https://127.0.0.1:8400/"]
        let kept = LabVariation([.anchor(.rogueCA), .pin(.goodLeaf)], .trusted, "")
        #expect(kept.keepsScenarioAnchor)
        #expect(
            (kept.checkArguments(target: target, scenarioAnchor: "/lab/library-test-ca.pem", Self.values))
                == (target + [
                    "--anchor", "/lab/library-test-ca.pem", "--anchor", "/lab/rogue-ca.pem", "--pin",
                    "sha256//R09PRA==",
                ]))
        let replaced = LabVariation([.noScenarioAnchor, .anchor(.selfSigned)], .trusted, "")
        #expect(!replaced.keepsScenarioAnchor)
        let names = replaced.checkArguments(target: target, scenarioAnchor: "ca.pem", .names)
        #expect(names == (target + ["--anchor", "self-signed.pem"]))
    }

    @Test func testEverySettingKindIsUsedSoTheCheckTestsRunItThroughTheCLI() {
        func kind(_ setting: LabSetting) -> String {
            switch setting {
            case .policy: "policy"
            case .anchor: "anchor"
            case .noScenarioAnchor: "noScenarioAnchor"
            case .pin: "pin"
            case .minimumTLS: "minimumTLS"
            case .noAIA: "noAIA"
            case .clientIdentity: "clientIdentity"
            case .anchorClass: "anchorClass"
            case .store: "store"
            case .ctLogs: "ctLogs"
            case .dateConstraints: "dateConstraints"
            case .client: "client"
            }
        }
        let used = Set(LabScenario.all.flatMap(\.variations).flatMap(\.settings).map(kind))
        #expect(
            used
                == ([
                    "policy", "anchor", "noScenarioAnchor", "pin", "minimumTLS", "noAIA", "clientIdentity",
                    "anchorClass",
                    "store", "ctLogs", "dateConstraints", "client",
                ]))
    }

    @Test func testEachGroupIsOneRunOfTheCatalogueAndTheATSGroupHoldsTheATSLessons() {
        #expect(
            LabScenario.groups
                == ([
                    .lessons, .ats, .badsslCertificates, .badsslKnownBad, .badsslClient, .inspection,
                    .certificateTransparency,
                    .badsslCipherSuites,
                    .badsslKeyExchange, .badsslProtocols, .fleet, .distrust, .appleHello, .client,
                ]))
        // Teaching order keeps a group together: the groups in order give the catalogue back.
        let regrouped = LabScenario.groups.flatMap { g in LabScenario.all.filter { $0.group == g } }
        #expect(regrouped.map(\.name) == LabScenario.all.map(\.name))
        for s in LabScenario.all {
            // ATS exempts loopback addresses, so the ATS lessons have DNS names, the badssl.com
            // cases keep badssl.com's and the inspection lessons the real hosts, all reached with
            // --connect-to, as the pool's one name for three nodes is (the rotating server is on
            // 127.0.0.1); the ATS lessons and badssl.com's TLS cases (Apple's verdict is their
            // ATS default) have Info.plists.
            #expect((s.group != .lessons && s.name != "rotating") == s.needsConnectTo, "\(s.name)")
            let withATS: [LabScenarioGroup] = [.ats, .badsslCipherSuites, .badsslKeyExchange, .badsslProtocols]
            #expect(withATS.contains(s.group) == !s.atsCases.isEmpty, "\(s.name)")
        }
    }
}
