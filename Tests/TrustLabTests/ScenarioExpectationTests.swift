import COpenSSL
import Foundation
import PathRules
import SuiteFixtures
import Testing
import TrustCore
import TrustSupport
import TrustX509

@testable import TrustLab

/// One lab with every scenario, shared by the tests of this class (fresh PKI per run).
@Suite(
    .serialized, .onTestThreads,
    .fixture(setUp: scenarioExpectationTestsSetUp, tearDown: scenarioExpectationTestsTearDown))
final class ScenarioExpectationTests {
    nonisolated(unsafe) static var shared: Lab?
    static let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))

    static func suiteSetUp() {
        shared = try? Lab.start(LabOptions(scenarios: lessonsAndATS.map(\.name), now: now).patient)
    }

    /// The lab's own lessons and the ATS lessons: the badssl.com cases have BadSSLCaseTests.
    static let lessonsAndATS = LabScenario.all.filter { $0.group == .lessons || $0.group == .ats }

    static func suiteTearDown() {
        shared?.stop()
        shared = nil
    }

    var lab: Lab {
        get throws { try #require(Self.shared, "the lab did not start") }
    }

    /// Settings as the scenario's default: SSL with the URL's host, the scenario's anchor only.
    func settings(
        _ s: RunningScenario, anchors: [Certificate]? = nil, policy: TrustPolicy? = nil,
        pins: [String] = []
    ) throws -> TrustSettings {
        let lab = try self.lab
        return TrustSettings(
            anchors: anchors ?? [lab.anchor(s.scenario.anchor).certificate], policy: policy ?? .ssl(host: s.host),
            pins: PinSet(digests: pins.compactMap(PinSet.parse)), time: Self.now)
    }

    /// The OCSP response the server really staples, captured with the test client.
    func capturedStaple(_ s: RunningScenario) -> [UInt8]? {
        TestClient.run(port: s.port, sni: nil, clientCertificatePath: nil, clientKeyPath: nil, smtp: false).ocspResponse
    }

    /// The chain the server really sends, captured with the test client.
    func capturedChain(_ s: RunningScenario) throws -> [Certificate] {
        let lab = try self.lab
        let result = TestClient.run(
            port: s.port, sni: nil, minimumVersion: TestClient.minimumVersion(for: s.name),
            clientCertificatePath: s.name == "mtls-required" ? lab.clientIdentity.certificatePath : nil,
            clientKeyPath: s.name == "mtls-required" ? lab.clientIdentity.privateKeyPath : nil,
            smtp: s.scenario.serviceProtocol == .smtpStartTLS)
        #expect(result.handshake, "\(s.name): \(result.failure)")
        #expect(result.served, "\(s.name): \(result.failure)")
        return try result.chain.map { try Certificate(der: $0) }
    }

    func check(
        _ verdict: Verdict, _ expected: LabExpectation, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(verdict.trusted == expected.trusted, "\(what): \(verdict.summary)", sourceLocation: sourceLocation)
        #expect(verdict.osstatus == expected.osstatus, "\(what): \(verdict.summary)", sourceLocation: sourceLocation)
        #expect(verdict.urlError == expected.urlError, "\(what): \(verdict.summary)", sourceLocation: sourceLocation)
    }

    @Test func testTheCatalogueHasEveryScenarioTheIssueNames() {
        let names = [
            "good", "wrong-host", "tls12-only", "rogue-ca", "expired", "not-yet-valid", "self-signed",
            "missing-intermediate", "missing-intermediate-aia", "wrong-order", "untrusted-root", "cn-only",
            "client-auth-eku", "rsa-1024", "sha1-signature", "long-validity", "path-length", "name-constraints",
            "rsa-2048", "mtls-required", "smtp-starttls", "key-rotated", "revoked-ocsp", "tls11-only",
            "no-forward-secrecy", "pin-rotated",
        ]
        #expect(Self.lessonsAndATS.map(\.name) == names)
        #expect((Set(LabScenario.all.map(\.portOffset)).count) == LabScenario.all.count)
        #expect(!LabScenario.all.map(\.portOffset).contains(LabScenario.aiaPortOffset))
        for s in Self.lessonsAndATS {
            #expect(!s.lesson.contains("\n"), "\(s.name)")
            // ATS exempts loopback addresses and local names: its lessons' servers have DNS names.
            let host =
                s.atsCases.isEmpty ? (s.name == "wrong-host" ? "localhost" : "127.0.0.1") : "\(s.name).trustx.test"
            #expect(s.host == host)
            #expect(s.needsConnectTo == !s.atsCases.isEmpty, "\(s.name)")
        }
    }

    @Test func testEveryServedChainEvaluatesToTheScenarioExpectation() throws {
        let lab = try self.lab
        #expect(lab.scenarios.count == Self.lessonsAndATS.count)
        let evaluator = Evaluator()
        for s in lab.scenarios {
            let chain = try capturedChain(s)
            #expect(chain.map(\.der) == s.served.map(\.der), "\(s.name): the chain is sent as built, in order")
            let evaluation = try #require(evaluator.evaluate(chain: chain, settings: settings(s)))
            let verdict = evaluation.verdict
            // Each scenario breaks exactly one rule, so the lesson is not muddied by a second failure.
            #expect((Set(evaluation.failures.map(\.id)).count) <= 1, "\(s.name): \(evaluation.failures)")
            switch s.name {
            case "mtls-required":
                // Evaluable part: the server's chain is trusted with errSecSuccess; the -1206 comes
                // from the handshake (testMTLSRequiresTheLabClientIdentity).
                check(verdict, .trusted, s.name)
                #expect(s.expectation.osstatus == 0)
                #expect(s.expectation.urlError == -1206)
            case "missing-intermediate-aia":
                // The served chain alone stops at the leaf; the AIA fetch completes it.
                check(verdict, .rejectedByDelegate(-25318), "\(s.name) without the AIA fetch")
                let url = try #require(
                    chain[0].authorityInfoAccess?.compactMap { d -> String? in
                        if case .uri(let u) = d.location { return u } else { return nil }
                    }.first)
                #expect(url == lab.aiaURL)
                let port = try #require(lab.aiaPort)
                #expect(url.hasPrefix("http://127.0.0.1:\(port)/"))
                let fetched = try #require(TestClient.httpGet(port: port, path: "/intermediate.der"))
                #expect(fetched.status == "HTTP/1.1 200 OK")
                let intermediate = try Certificate(der: fetched.body)
                let completed = try evaluator.evaluate(
                    leaf: chain[0], presented: Array(chain.dropFirst()) + [intermediate], settings: settings(s)
                ).verdict
                check(completed, s.expectation, "\(s.name) with the fetched intermediate")
            case "tls11-only":
                // Evaluable part: the chain is trusted; the -1200 comes from the handshake
                // (testTLS11OnlyRefusesATLS12ClientAndSpeaksTLS11).
                check(verdict, .trusted, s.name)
                #expect(s.expectation == (LabExpectation(trusted: false, osstatus: nil, urlError: -1200)))
            case "revoked-ocsp":
                // The served chain alone is trusted; the staple in the handshake revokes it.
                check(verdict, .trusted, "\(s.name) without the staple")
                var stapled = try settings(s)
                let staple = try #require(capturedStaple(s), "\(s.name) staples nothing")
                stapled.stapledOCSPResponse = staple
                let revoked = try #require(evaluator.evaluate(chain: chain, settings: stapled))
                check(revoked.verdict, s.expectation, "\(s.name) with the staple")
                #expect(revoked.verdict.resultType == .fatalTrustFailure)
            default:
                check(verdict, s.expectation, s.name)
            }
        }
    }

    @Test func testEvaluableVariationsGiveTheirExpectations() throws {
        let lab = try self.lab
        let evaluator = Evaluator()
        var checked = 0
        for s in lab.scenarios {
            for v in s.scenario.variations {
                var anchors = v.keepsScenarioAnchor ? [lab.anchor(s.scenario.anchor).certificate] : []
                var policy: TrustPolicy = .ssl(host: s.host)
                var pins: [String] = []
                var anchorClass = CustomAnchorClass.app
                var client = TrustClient.app
                var evaluable = true
                for setting in v.settings {
                    switch setting {
                    case .anchor(let a): anchors.append(lab.anchor(a).certificate)
                    case .noScenarioAnchor: break
                    case .pin(let p): pins.append(try #require(lab.pins[p]))
                    case .policy(let p): policy = p
                    case .minimumTLS, .noAIA, .clientIdentity: evaluable = false  // decided on the network
                    case .anchorClass(let c): anchorClass = c
                    case .client(let c): client = c
                    // A lab root as the system store with the lab's logs, or the lab's date
                    // constraints: CertificateTransparencyLabTests, DistrustLabTests.
                    case .store, .ctLogs, .dateConstraints: evaluable = false
                    }
                }
                guard evaluable else { continue }
                var chosen = try settings(s, anchors: anchors, policy: policy, pins: pins)
                chosen.customAnchorClass = anchorClass
                chosen.client = client
                if anchors.isEmpty {
                    // No custom anchor: the system store decides (and does not know Library Test CA).
                    chosen.systemStore = EmptyStore()
                }
                let verdict = try #require(evaluator.evaluate(chain: s.served, settings: chosen)).verdict
                check(
                    verdict, v.expectation,
                    "\(s.name) \(lab.arguments(for: v, of: s).dropFirst().joined(separator: " "))")
                checked += 1
            }
        }
        #expect(checked >= 15)
    }

    @Test func testTLS12OnlyFailsAClientRequiringTLS13AndPassesByDefault() throws {
        let s = try #require(lab.scenario("tls12-only"))
        let strict = TestClient.run(port: s.port, minimumVersion: TLS1_3_VERSION)
        #expect(!strict.handshake, "a TLS 1.2-only server must not complete a TLS 1.3-only handshake")
        #expect(
            s.scenario.variations.first?.expectation == (LabExpectation(trusted: false, osstatus: nil, urlError: -1200))
        )
        let normal = TestClient.run(port: s.port)
        #expect(normal.served, "\(normal.failure)")
        #expect(normal.protocolVersion == "TLSv1.2")
        let good = TestClient.run(port: try #require(lab.scenario("good")).port)
        #expect(good.protocolVersion == "TLSv1.3")
    }

    @Test func testMTLSRequiresTheLabClientIdentity() throws {
        let lab = try self.lab
        let s = try #require(lab.scenario("mtls-required"))
        let without = TestClient.run(port: s.port)
        #expect(!without.served, "served without a client certificate")
        let with = TestClient.run(
            port: s.port, clientCertificatePath: lab.clientIdentity.certificatePath,
            clientKeyPath: lab.clientIdentity.privateKeyPath)
        #expect(with.served, "\(with.failure)")
        #expect(with.response.contains("Client certificate: /CN=Library Test Learner"), "\(with.response)")
    }

    @Test func testTheLabPKIHasTheWalkthroughsShape() throws {
        let lab = try self.lab
        let ca = lab.anchor(.libraryTestCA).certificate
        #expect(ca.subject.description == "CN=Library Test CA")
        #expect(ca.publicKey.type.label == "EC P-256")
        #expect(ca.keyUsage == nil, "Library Test CA is made as openssl req -x509 makes a CA without an extension file")
        let leaf = try #require(lab.scenario("good")).served[0]
        #expect(leaf.ipAddresses == ([[127, 0, 0, 1]]))
        #expect(leaf.extendedKeyUsage?.map(\.dotted) == ["1.3.6.1.5.5.7.3.1"], "EKU serverAuth")
        #expect(leaf.publicKey.type.label == "EC P-256")
        #expect((leaf.notAfter.secondsSinceEpoch - leaf.notBefore.secondsSinceEpoch) <= (398 * 86_400))
        #expect((try #require(lab.scenario("rogue-ca")).served[0].issuer.description) == "CN=Rogue CA")
        #expect(
            lab.pins[.rsa2048Leaf]
                == ("sha256//" + Base64.encode(try #require(lab.scenario("rsa-2048")).served[0].spkiSHA256)))
        #expect(
            lab.pins[.rotatedAwayLeaf] != ("sha256//" + (try #require(lab.scenario("key-rotated")).served[0].spkiPin)))
    }

    // MARK: - openssl s_client agrees

    func sClient(_ s: RunningScenario, _ extra: String) throws -> Shell.Result {
        try Shell.run(
            "timeout 20 openssl s_client -connect 127.0.0.1:\(s.port) -verify_return_error -CAfile '\(s.anchorPath)' \(extra)"
        )
    }

    @Test func testOpenSSLAgreesOnGoodWrongHostExpiredAndRogueCA() throws {
        let lab = try self.lab
        let good = try sClient(try #require(lab.scenario("good")), "-verify_ip 127.0.0.1")
        #expect(good.status == 0, "\(good.output)")
        #expect(good.output.contains("Verify return code: 0 (ok)"), "\(good.output)")

        let wrongHost = try sClient(
            try #require(lab.scenario("wrong-host")), "-servername localhost -verify_hostname localhost")
        #expect(wrongHost.status != 0, "\(wrongHost.output)")
        #expect(wrongHost.output.contains("hostname mismatch"), "\(wrongHost.output)")

        let expired = try sClient(try #require(lab.scenario("expired")), "-verify_ip 127.0.0.1")
        #expect(expired.status != 0, "\(expired.output)")
        #expect(expired.output.contains("certificate has expired"), "\(expired.output)")

        let rogue = try #require(lab.scenario("rogue-ca"))
        let rejected = try sClient(rogue, "-verify_ip 127.0.0.1")
        #expect(rejected.status != 0, "\(rejected.output)")
        #expect(rejected.output.contains("unable to get local issuer certificate"), "\(rejected.output)")
        // The exercise: with both CAs the rogue server is accepted.
        let both = try Shell.run(
            "cat '\(rogue.anchorPath)' '\(lab.anchor(.rogueCA).path)' > '\(lab.directory)/both.pem' && "
                + "timeout 20 openssl s_client -connect 127.0.0.1:\(rogue.port) -verify_return_error "
                + "-CAfile '\(lab.directory)/both.pem' -verify_ip 127.0.0.1; rc=$?; rm -f '\(lab.directory)/both.pem'; exit $rc"
        )
        #expect(both.status == 0, "\(both.output)")
    }

    @Test func testTheWalkthroughsOpenSSLPinPipelineGivesTheLabsPins() throws {
        let lab = try self.lab
        for (name, pin) in [("good", LabPin.goodLeaf), ("rsa-2048", .rsa2048Leaf)] {
            let s = try #require(lab.scenario(name))
            let r = try Shell.run(
                "timeout 20 openssl s_client -connect 127.0.0.1:\(s.port) 2>/dev/null | openssl x509 -pubkey -noout"
                    + " | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl enc -base64")
            #expect(("sha256//" + r.output.trimmingCharacters(in: .whitespacesAndNewlines)) == lab.pins[pin], "\(name)")
        }
    }

    @Test func testSMTPStartTLSCompletesWithOpenSSL() throws {
        let s = try #require(lab.scenario("smtp-starttls"))
        #expect(s.url.hasPrefix("smtp://127.0.0.1:"))
        let r = try sClient(s, "-starttls smtp -verify_ip 127.0.0.1")
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
    }

    @Test func testMTLSWithOpenSSLFailsWithoutAndSucceedsWithTheClientCertificate() throws {
        let lab = try self.lab
        let s = try #require(lab.scenario("mtls-required"))
        let request =
            "printf 'GET / HTTP/1.0\\r\\n\\r\\n' | timeout 20 openssl s_client -quiet -ign_eof"
            + " -connect 127.0.0.1:\(s.port) -CAfile '\(s.anchorPath)' -verify_return_error -verify_ip 127.0.0.1"
        let without = try Shell.run(request)
        #expect(!(without.output.contains("HTTP/1.1 200 OK")), "\(without.output)")
        #expect(without.output.contains("alert"), "\(without.output)")
        let with = try Shell.run(
            request + " -cert '\(lab.clientIdentity.certificatePath)' -key '\(lab.clientIdentity.privateKeyPath)'")
        #expect(with.output.contains("HTTP/1.1 200 OK"), "\(with.output)")
        #expect(with.output.contains("scenario mtls-required"), "\(with.output)")
    }

    @Test func testTheClientPKCS12OpensWithItsPassword() throws {
        let lab = try self.lab
        let certificates = try CertificateLoader.load(
            path: lab.clientIdentity.pkcs12Path, password: Lab.clientIdentityPassword)
        #expect(certificates.first?.subject.description == "CN=Library Test Learner")
        let info = try Shell.run(
            "openssl pkcs12 -in '\(lab.clientIdentity.pkcs12Path)' -passin pass:\(Lab.clientIdentityPassword) -info -noout"
        )
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("MAC: sha1"), "\(info.output)")
    }

    // MARK: - Descriptions

    @Test func testTheJSONDescriptionHasTheIssueShapeInOrder() throws {
        let lab = try self.lab
        let text = lab.json()
        let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let anchors = try #require(object["anchors"] as? [String: String])
        #expect(anchors["library-test-ca"] == (lab.anchor(.libraryTestCA).path))
        let scenarios = try #require(object["scenarios"] as? [[String: Any]])
        #expect(scenarios.count == Self.lessonsAndATS.count)
        let wrongHost = try #require(scenarios.first { $0["name"] as? String == "wrong-host" })
        #expect((wrongHost["host"] as? String) == "localhost")
        #expect(
            (wrongHost["url"] as? String) == ("https://localhost:\(try #require(lab.scenario("wrong-host")).port)/"))
        let expect = try #require(wrongHost["expect"] as? [String: Any])
        #expect((expect["trusted"] as? Bool) == false)
        #expect((expect["osstatus"] as? Int) == -67602)
        #expect((expect["urlError"] as? Int) == -999)
        // Keys in the order docs/lab.md documents them.
        let keys = ["\"name\"", "\"url\"", "\"port\"", "\"host\"", "\"anchor\"", "\"expect\"", "\"lesson\""]
        let positions = keys.map { text.range(of: $0)!.lowerBound }
        #expect(positions == positions.sorted())
        #expect((text.range(of: "\"anchors\"")!.lowerBound) < (text.range(of: "\"scenarios\"")!.lowerBound))
        // The same description is in the lab folder for handouts.
        #expect((try String(contentsOfFile: lab.directory + "/lab.json", encoding: .utf8)) == text)
    }

    @Test func testTheTableListsEveryScenarioWithURLAndLesson() throws {
        let lab = try self.lab
        let table = lab.table()
        for s in lab.scenarios {
            let row = try #require(table.split(separator: "\n").first { $0.hasPrefix(s.name + " ") }, "\(s.name)")
            #expect(row.contains(s.url), "\(String(row))")
            #expect(row.hasSuffix(s.lesson), "\(String(row))")
        }
        #expect(table.contains(lab.anchor(.libraryTestCA).path))
    }
}

/// A system store without roots: "no custom anchor" without reading /etc/ssl/certs.
struct EmptyStore: IssuerSource {
    func certificates(withSubject name: DistinguishedName) -> [Certificate] { [] }
    func contains(_ certificate: Certificate) -> Bool { false }
    var location: String { "empty test store" }
}

/// ScenarioExpectationTests's shared set-up, outside the type so its suite attribute can name it.
private func scenarioExpectationTestsSetUp() { ScenarioExpectationTests.suiteSetUp() }

/// ScenarioExpectationTests's shared tear-down, outside the type so its suite attribute can name it.
private func scenarioExpectationTestsTearDown() { ScenarioExpectationTests.suiteTearDown() }
