import ATSModel
import COpenSSL
import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustSupport
import TrustX509

@testable import TrustLab

/// The ATS lessons' servers over real TLS: what they speak, checked with the test client and the
/// openssl CLI, and the Info.plists and pins their lessons hand out.
@Suite(.serialized, .onTestThreads, .fixture(setUp: aTSScenarioTestsSetUp, tearDown: aTSScenarioTestsTearDown))
final class ATSScenarioTests {
    nonisolated(unsafe) static var shared: Lab?
    static let names = ["tls11-only", "no-forward-secrecy", "pin-rotated"]
    static let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))

    static func suiteSetUp() {
        shared = try? Lab.start(LabOptions(scenarios: names, now: now).patient)
    }

    static func suiteTearDown() {
        shared?.stop()
        shared = nil
    }

    func scenario(_ name: String) throws -> (Lab, RunningScenario) {
        let lab = try #require(Self.shared, "the lab did not start")
        return (lab, try #require(lab.scenario(name)))
    }

    /// `openssl s_client` to the scenario, verifying the chain and the host name against its anchor.
    func sClient(_ s: RunningScenario, _ extra: String) throws -> Shell.Result {
        try Shell.run(
            "echo | timeout 20 openssl s_client -connect 127.0.0.1:\(s.port) -servername \(s.host)"
                + " -verify_return_error -CAfile '\(s.anchorPath)' -verify_hostname \(s.host) \(extra)")
    }

    @Test func testTheServersAreNamedByDNSAndReachedThroughConnectTo() throws {
        for name in Self.names {
            let (_, s) = try scenario(name)
            #expect(s.host == ("\(name).trustx.test"))
            #expect(s.url == ("https://\(name).trustx.test:\(s.port)/"))
            #expect(s.connectTo == ("127.0.0.1:\(s.port)"))
            #expect(s.targetArguments == ([s.url, "--connect-to", "127.0.0.1:\(s.port)"]))
            #expect((s.served[0].dnsNames) == [s.host], "the SAN names the host ATS sees")
        }
    }

    @Test func testTLS11OnlyRefusesATLS12ClientAndSpeaksTLS11() throws {
        let (_, s) = try scenario("tls11-only")
        let modern = TestClient.run(port: s.port, minimumVersion: TLS1_2_VERSION)
        #expect(!modern.handshake, "a TLS 1.2 client must be refused")
        let old = TestClient.run(port: s.port, minimumVersion: TLS1_VERSION)
        #expect(old.served, "\(old.failure)")
        #expect(old.protocolVersion == "TLSv1.1")
        let refused = try sClient(s, "-tls1_2")
        #expect(refused.status != 0, "\(refused.output)")
        // TLS 1.1 signs the handshake with SHA-1: the client needs security level 0 too.
        let accepted = try sClient(s, "-tls1_1 -cipher DEFAULT:@SECLEVEL=0")
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(accepted.output.contains("Verify return code: 0 (ok)"), "\(accepted.output)")
        #expect(accepted.output.contains("Protocol  : TLSv1.1"), "\(accepted.output)")
    }

    @Test func testNoForwardSecrecyNegotiatesRSAKeyExchangeOnly() throws {
        let (_, s) = try scenario("no-forward-secrecy")
        let leaf = s.served[0]
        #expect(leaf.publicKey.type.label == "RSA")
        #expect(leaf.publicKey.bits == 2048)
        #expect(
            leaf.keyUsage?.setNames.contains("keyEncipherment") == true, "RSA key exchange encrypts to the leaf's key")
        let ecdhe = try sClient(s, "-tls1_2 -cipher 'ECDHE:@SECLEVEL=0'")
        #expect(ecdhe.status != 0, "\(ecdhe.output)")
        let plain = try sClient(s, "")
        #expect(plain.status == 0, "\(plain.output)")
        #expect(plain.output.contains("Verify return code: 0 (ok)"), "\(plain.output)")
        #expect(plain.output.contains("Protocol  : TLSv1.2"), "\(plain.output)")
        let cipher = try #require(
            plain.output.split(separator: "\n").first { $0.contains("Cipher    :") }, "\(plain.output)")
        #expect(
            ["AES256-GCM-SHA384", "AES128-GCM-SHA256", "AES256-SHA", "AES128-SHA"].contains(
                String(cipher.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespaces)),
            "\(String(cipher))")
        #expect(!(plain.output.contains("Server Temp Key")), "no ephemeral key: \(plain.output)")
    }

    /// SHA-256 of the DER SPKI, as the openssl pipeline of docs/training.md computes it.
    func opensslPin(_ pemCommand: String) throws -> String {
        let r = try Shell.run(
            "\(pemCommand) | openssl x509 -pubkey -noout | openssl pkey -pubin -outform der"
                + " | openssl dgst -sha256 -binary | openssl enc -base64")
        #expect(r.status == 0, "\(r.output)")
        return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func testPinRotatedExposesTheOldLeafPinAndTheCAPin() throws {
        let (lab, s) = try scenario("pin-rotated")
        let served = try opensslPin(
            "echo | timeout 20 openssl s_client -connect 127.0.0.1:\(s.port) -servername \(s.host) 2>/dev/null")
        let old = try #require(lab.pins[.pinRotatedOldLeaf])
        #expect(("sha256//" + served) != old, "the server's key has rotated away from the pinned one")
        #expect(("sha256//" + served) == ("sha256//" + s.served[0].spkiPin))
        let ca = try opensslPin("cat '\(s.anchorPath)'")
        #expect(("sha256//" + ca) == lab.pins[.libraryTestCA])
        let json = try #require(JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any])
        let pins = try #require(json["pins"] as? [String: String])
        #expect(pins["pin-rotated-old-leaf"] == old)
        #expect(pins["library-test-ca"] == ("sha256//" + ca))
    }

    /// NSPinnedDomains's rule: each category present must match (a leaf identity the leaf, a CA
    /// identity any certificate above the leaf in the built path), OR within a category, AND
    /// between them.
    @Test func testEachPinCaseFollowsTheNSPinnedDomainsRuleOnTheBuiltPath() throws {
        let (lab, s) = try scenario("pin-rotated")
        let settings = TrustSettings(
            anchors: [lab.anchor(.libraryTestCA).certificate], policy: .ssl(host: s.host), time: Self.now)
        let evaluation = try #require(Evaluator().evaluate(chain: s.served, settings: settings))
        #expect(evaluation.verdict.trusted, "\(evaluation.verdict.summary)")
        let path = evaluation.path.certificates
        #expect(path.count >= 2, "the anchor is part of the built path")
        #expect(s.atsCases.count == 3)
        for c in s.atsCases {
            let domain = try #require(c.configuration.pinnedDomains.first)
            #expect(domain.domain == s.host)
            func matches(_ identities: [PinnedIdentity]?, _ certificates: ArraySlice<Certificate>) -> Bool {
                guard let identities else { return true }
                return identities.contains { id in certificates.contains { id.digest == $0.spkiSHA256 } }
            }
            let leafOK = matches(domain.leafIdentities, path.prefix(1))
            let caOK = matches(domain.caIdentities, path.dropFirst())
            #expect(c.atsCase.expectation.trusted == (leafOK && caOK), "\(c.atsCase.label)")
            if !c.atsCase.expectation.trusted {
                // Apple's LeafSPKISHA256/CAspkiSHA256 checks: errSSLATSCertificateTrustViolation,
                // and the task fails with secureConnectionFailed.
                #expect(c.atsCase.expectation.osstatus == -9886, "\(c.atsCase.label)")
                #expect(c.atsCase.expectation.urlError == -1200, "\(c.atsCase.label)")
            }
        }
    }

    @Test func testEveryATSCaseIsAnInfoPlistFoundationReadsBack() throws {
        let lab = try #require(Self.shared)
        var count = 0
        for s in lab.scenarios {
            for c in s.atsCases {
                #expect(c.plistPath == ("\(lab.directory)/\(s.name).\(c.atsCase.label).plist"))
                let data = try Data(contentsOf: URL(fileURLWithPath: c.plistPath))
                let plist = try #require(
                    PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any], "\(c.plistPath)")
                let ats = try #require(plist["NSAppTransportSecurity"] as? [String: Any], "\(c.plistPath)")
                let exceptions = (ats["NSExceptionDomains"] as? [String: [String: Any]])?[s.host]
                #expect(
                    (exceptions?["NSExceptionMinimumTLSVersion"] as? String) == c.atsCase.minimumTLSVersion,
                    "\(c.plistPath)")
                #expect(
                    (exceptions?["NSExceptionRequiresForwardSecrecy"] as? Bool) == c.atsCase.requiresForwardSecrecy,
                    "\(c.plistPath)")
                let pinned = (ats["NSPinnedDomains"] as? [String: [String: Any]])?[s.host]
                for (key, expected) in [
                    ("NSPinnedLeafIdentities", c.atsCase.leafPins), ("NSPinnedCAIdentities", c.atsCase.caPins),
                ] {
                    let values = (pinned?[key] as? [[String: String]])?.map { $0["SPKI-SHA256-BASE64"] }
                    #expect(
                        values == (expected?.map { lab.pins[$0].map { String($0.dropFirst("sha256//".count)) } }),
                        "\(c.plistPath) \(key)")
                }
                // NSPinnedDomains lessons trust the lab's CA as a device anchor: no delegate decides.
                let anchorClass =
                    c.atsCase.leafPins != nil || c.atsCase.caPins != nil ? ["--anchor-class", "device"] : []
                #expect(
                    (lab.arguments(for: c, of: s))
                        == (s.targetArguments + ["--anchor", s.anchorPath] + anchorClass + ["--ats-plist", c.plistPath])
                )
                count += 1
            }
        }
        #expect(count == 10)
    }

    @Test func testTheJSONCarriesConnectToAndTheATSCases() throws {
        let lab = try #require(Self.shared)
        let json = try #require(JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any])
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        let tls11 = try #require(scenarios.first { $0["name"] as? String == "tls11-only" })
        let s = try #require(lab.scenario("tls11-only"))
        #expect((tls11["connectTo"] as? String) == ("127.0.0.1:\(s.port)"))
        let cases = try #require(tls11["ats"] as? [[String: Any]])
        #expect((cases.map { $0["label"] as? String }) == ["ats-default", "tls-1.1", "tls-1.0", "tls-1.1-misspelt"])
        let lowered = cases[1]
        #expect(((lowered["expect"] as? [String: Any])?["trusted"] as? Bool) == true)
        #expect((lowered["fragment"] as? String)?.contains("<string>TLSv1.1</string>") ?? false)
        let refused = try #require(cases[0]["expect"] as? [String: Any])
        #expect((refused["urlError"] as? Int) == -1200)
        #expect(refused["osstatus"] is NSNull, "a handshake failure: no evaluation")
    }
}

/// ATSScenarioTests's shared set-up, outside the type so its suite attribute can name it.
private func aTSScenarioTestsSetUp() { ATSScenarioTests.suiteSetUp() }

/// ATSScenarioTests's shared tear-down, outside the type so its suite attribute can name it.
private func aTSScenarioTestsTearDown() { ATSScenarioTests.suiteTearDown() }
