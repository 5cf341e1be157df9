import COpenSSL
import Foundation
import TrustCore
import TrustSupport
import TrustX509
import XCTest

@testable import TrustLab

/// One lab with every scenario, shared by the tests of this class (fresh PKI per run).
final class ScenarioExpectationTests: XCTestCase {
    nonisolated(unsafe) static var shared: Lab?
    static let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))

    override class func setUp() {
        super.setUp()
        shared = try? Lab.start(LabOptions(scenarios: lessonsAndATS.map(\.name), now: now))
    }

    /// The lab's own lessons and the ATS lessons: the badssl.com cases have BadSSLCaseTests.
    static let lessonsAndATS = LabScenario.all.filter { $0.group == .lessons || $0.group == .ats }

    override class func tearDown() {
        shared?.stop()
        shared = nil
        super.tearDown()
    }

    var lab: Lab {
        get throws { try XCTUnwrap(Self.shared, "the lab did not start") }
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
        XCTAssertTrue(result.handshake, "\(s.name): \(result.failure)")
        XCTAssertTrue(result.served, "\(s.name): \(result.failure)")
        return try result.chain.map { try Certificate(der: $0) }
    }

    func check(
        _ verdict: Verdict, _ expected: LabExpectation, _ what: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(verdict.trusted, expected.trusted, "\(what): \(verdict.summary)", file: file, line: line)
        XCTAssertEqual(verdict.osstatus, expected.osstatus, "\(what): \(verdict.summary)", file: file, line: line)
        XCTAssertEqual(verdict.urlError, expected.urlError, "\(what): \(verdict.summary)", file: file, line: line)
    }

    func testTheCatalogueHasEveryScenarioTheIssueNames() {
        let names = [
            "good", "wrong-host", "tls12-only", "rogue-ca", "expired", "not-yet-valid", "self-signed",
            "missing-intermediate", "missing-intermediate-aia", "wrong-order", "untrusted-root", "cn-only",
            "client-auth-eku", "rsa-1024", "sha1-signature", "long-validity", "path-length", "name-constraints",
            "rsa-2048", "mtls-required", "smtp-starttls", "key-rotated", "revoked-ocsp", "tls11-only",
            "no-forward-secrecy", "pin-rotated",
        ]
        XCTAssertEqual(Self.lessonsAndATS.map(\.name), names)
        XCTAssertEqual(Set(LabScenario.all.map(\.portOffset)).count, LabScenario.all.count)
        XCTAssertFalse(LabScenario.all.map(\.portOffset).contains(LabScenario.aiaPortOffset))
        for s in Self.lessonsAndATS {
            XCTAssertFalse(s.lesson.contains("\n"), s.name)
            // ATS exempts loopback addresses and local names: its lessons' servers have DNS names.
            let host =
                s.atsCases.isEmpty ? (s.name == "wrong-host" ? "localhost" : "127.0.0.1") : "\(s.name).trustx.test"
            XCTAssertEqual(s.host, host)
            XCTAssertEqual(s.needsConnectTo, !s.atsCases.isEmpty, s.name)
        }
    }

    func testEveryServedChainEvaluatesToTheScenarioExpectation() throws {
        let lab = try self.lab
        XCTAssertEqual(lab.scenarios.count, Self.lessonsAndATS.count)
        let evaluator = Evaluator()
        for s in lab.scenarios {
            let chain = try capturedChain(s)
            XCTAssertEqual(chain.map(\.der), s.served.map(\.der), "\(s.name): the chain is sent as built, in order")
            let evaluation = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: settings(s)))
            let verdict = evaluation.verdict
            // Each scenario breaks exactly one rule, so the lesson is not muddied by a second failure.
            XCTAssertLessThanOrEqual(Set(evaluation.failures.map(\.id)).count, 1, "\(s.name): \(evaluation.failures)")
            switch s.name {
            case "mtls-required":
                // Evaluable part: the server's chain is trusted with errSecSuccess; the -1206 comes
                // from the handshake (testMTLSRequiresTheLabClientIdentity).
                check(verdict, .trusted, s.name)
                XCTAssertEqual(s.expectation.osstatus, 0)
                XCTAssertEqual(s.expectation.urlError, -1206)
            case "missing-intermediate-aia":
                // The served chain alone stops at the leaf; the AIA fetch completes it.
                check(verdict, .rejectedByDelegate(-25318), "\(s.name) without the AIA fetch")
                let url = try XCTUnwrap(
                    chain[0].authorityInfoAccess?.compactMap { d -> String? in
                        if case .uri(let u) = d.location { return u } else { return nil }
                    }.first)
                XCTAssertEqual(url, lab.aiaURL)
                let port = try XCTUnwrap(lab.aiaPort)
                XCTAssertTrue(url.hasPrefix("http://127.0.0.1:\(port)/"))
                let fetched = try XCTUnwrap(TestClient.httpGet(port: port, path: "/intermediate.der"))
                XCTAssertEqual(fetched.status, "HTTP/1.1 200 OK")
                let intermediate = try Certificate(der: fetched.body)
                let completed = try XCTUnwrap(
                    evaluator.evaluate(
                        leaf: chain[0], presented: Array(chain.dropFirst()) + [intermediate],
                        settings: settings(s))
                ).verdict
                check(completed, s.expectation, "\(s.name) with the fetched intermediate")
            case "tls11-only":
                // Evaluable part: the chain is trusted; the -1200 comes from the handshake
                // (testTLS11OnlyRefusesATLS12ClientAndSpeaksTLS11).
                check(verdict, .trusted, s.name)
                XCTAssertEqual(s.expectation, LabExpectation(trusted: false, osstatus: nil, urlError: -1200))
            case "revoked-ocsp":
                // The served chain alone is trusted; the staple in the handshake revokes it.
                check(verdict, .trusted, "\(s.name) without the staple")
                var stapled = try settings(s)
                stapled.stapledOCSPResponse = try XCTUnwrap(capturedStaple(s), "\(s.name) staples nothing")
                let revoked = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: stapled))
                check(revoked.verdict, s.expectation, "\(s.name) with the staple")
                XCTAssertEqual(revoked.verdict.resultType, .fatalTrustFailure)
            default:
                check(verdict, s.expectation, s.name)
            }
        }
    }

    func testEvaluableVariationsGiveTheirExpectations() throws {
        let lab = try self.lab
        let evaluator = Evaluator()
        var checked = 0
        for s in lab.scenarios {
            for v in s.scenario.variations {
                var anchors = v.keepsScenarioAnchor ? [lab.anchor(s.scenario.anchor).certificate] : []
                var policy: TrustPolicy = .ssl(host: s.host)
                var pins: [String] = []
                var anchorClass = CustomAnchorClass.app
                var evaluable = true
                for setting in v.settings {
                    switch setting {
                    case .anchor(let a): anchors.append(lab.anchor(a).certificate)
                    case .noScenarioAnchor: break
                    case .pin(let p): pins.append(try XCTUnwrap(lab.pins[p]))
                    case .policy(let p): policy = p
                    case .minimumTLS, .noAIA, .clientIdentity: evaluable = false  // decided on the network
                    case .anchorClass(let c): anchorClass = c
                    // A lab root as the system store with the lab's logs: CertificateTransparencyLabTests.
                    case .store, .ctLogs: evaluable = false
                    }
                }
                guard evaluable else { continue }
                var chosen = try settings(s, anchors: anchors, policy: policy, pins: pins)
                chosen.customAnchorClass = anchorClass
                if anchors.isEmpty {
                    // No custom anchor: the system store decides (and does not know Library Test CA).
                    chosen.systemStore = EmptyStore()
                }
                let verdict = try XCTUnwrap(evaluator.evaluate(chain: s.served, settings: chosen)).verdict
                check(
                    verdict, v.expectation,
                    "\(s.name) \(lab.arguments(for: v, of: s).dropFirst().joined(separator: " "))")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 15)
    }

    func testTLS12OnlyFailsAClientRequiringTLS13AndPassesByDefault() throws {
        let s = try XCTUnwrap(lab.scenario("tls12-only"))
        let strict = TestClient.run(port: s.port, minimumVersion: TLS1_3_VERSION)
        XCTAssertFalse(strict.handshake, "a TLS 1.2-only server must not complete a TLS 1.3-only handshake")
        XCTAssertEqual(
            s.scenario.variations.first?.expectation, LabExpectation(trusted: false, osstatus: nil, urlError: -1200))
        let normal = TestClient.run(port: s.port)
        XCTAssertTrue(normal.served, normal.failure)
        XCTAssertEqual(normal.protocolVersion, "TLSv1.2")
        let good = TestClient.run(port: try XCTUnwrap(lab.scenario("good")).port)
        XCTAssertEqual(good.protocolVersion, "TLSv1.3")
    }

    func testMTLSRequiresTheLabClientIdentity() throws {
        let lab = try self.lab
        let s = try XCTUnwrap(lab.scenario("mtls-required"))
        let without = TestClient.run(port: s.port)
        XCTAssertFalse(without.served, "served without a client certificate")
        let with = TestClient.run(
            port: s.port, clientCertificatePath: lab.clientIdentity.certificatePath,
            clientKeyPath: lab.clientIdentity.privateKeyPath)
        XCTAssertTrue(with.served, with.failure)
        XCTAssertTrue(with.response.contains("Client certificate: /CN=Library Test Learner"), with.response)
    }

    func testTheLabPKIHasTheWalkthroughsShape() throws {
        let lab = try self.lab
        let ca = lab.anchor(.libraryTestCA).certificate
        XCTAssertEqual(ca.subject.description, "CN=Library Test CA")
        XCTAssertEqual(ca.publicKey.type.label, "EC P-256")
        XCTAssertNil(ca.keyUsage, "Library Test CA is made as openssl req -x509 makes a CA without an extension file")
        let leaf = try XCTUnwrap(lab.scenario("good")).served[0]
        XCTAssertEqual(leaf.ipAddresses, [[127, 0, 0, 1]])
        XCTAssertEqual(leaf.extendedKeyUsage?.map(\.dotted), ["1.3.6.1.5.5.7.3.1"], "EKU serverAuth")
        XCTAssertEqual(leaf.publicKey.type.label, "EC P-256")
        XCTAssertLessThanOrEqual(leaf.notAfter.secondsSinceEpoch - leaf.notBefore.secondsSinceEpoch, 398 * 86_400)
        XCTAssertEqual(try XCTUnwrap(lab.scenario("rogue-ca")).served[0].issuer.description, "CN=Rogue CA")
        XCTAssertEqual(
            lab.pins[.rsa2048Leaf],
            "sha256//" + Base64.encode(try XCTUnwrap(lab.scenario("rsa-2048")).served[0].spkiSHA256))
        XCTAssertNotEqual(
            lab.pins[.rotatedAwayLeaf], "sha256//" + (try XCTUnwrap(lab.scenario("key-rotated")).served[0].spkiPin))
    }

    // MARK: - openssl s_client agrees

    func sClient(_ s: RunningScenario, _ extra: String) throws -> Shell.Result {
        try Shell.run(
            "timeout 20 openssl s_client -connect 127.0.0.1:\(s.port) -verify_return_error -CAfile '\(s.anchorPath)' \(extra)"
        )
    }

    func testOpenSSLAgreesOnGoodWrongHostExpiredAndRogueCA() throws {
        let lab = try self.lab
        let good = try sClient(try XCTUnwrap(lab.scenario("good")), "-verify_ip 127.0.0.1")
        XCTAssertEqual(good.status, 0, good.output)
        XCTAssertTrue(good.output.contains("Verify return code: 0 (ok)"), good.output)

        let wrongHost = try sClient(
            try XCTUnwrap(lab.scenario("wrong-host")), "-servername localhost -verify_hostname localhost")
        XCTAssertNotEqual(wrongHost.status, 0, wrongHost.output)
        XCTAssertTrue(wrongHost.output.contains("hostname mismatch"), wrongHost.output)

        let expired = try sClient(try XCTUnwrap(lab.scenario("expired")), "-verify_ip 127.0.0.1")
        XCTAssertNotEqual(expired.status, 0, expired.output)
        XCTAssertTrue(expired.output.contains("certificate has expired"), expired.output)

        let rogue = try XCTUnwrap(lab.scenario("rogue-ca"))
        let rejected = try sClient(rogue, "-verify_ip 127.0.0.1")
        XCTAssertNotEqual(rejected.status, 0, rejected.output)
        XCTAssertTrue(rejected.output.contains("unable to get local issuer certificate"), rejected.output)
        // The exercise: with both CAs the rogue server is accepted.
        let both = try Shell.run(
            "cat '\(rogue.anchorPath)' '\(lab.anchor(.rogueCA).path)' > '\(lab.directory)/both.pem' && "
                + "timeout 20 openssl s_client -connect 127.0.0.1:\(rogue.port) -verify_return_error "
                + "-CAfile '\(lab.directory)/both.pem' -verify_ip 127.0.0.1; rc=$?; rm -f '\(lab.directory)/both.pem'; exit $rc"
        )
        XCTAssertEqual(both.status, 0, both.output)
    }

    func testTheWalkthroughsOpenSSLPinPipelineGivesTheLabsPins() throws {
        let lab = try self.lab
        for (name, pin) in [("good", LabPin.goodLeaf), ("rsa-2048", .rsa2048Leaf)] {
            let s = try XCTUnwrap(lab.scenario(name))
            let r = try Shell.run(
                "timeout 20 openssl s_client -connect 127.0.0.1:\(s.port) 2>/dev/null | openssl x509 -pubkey -noout"
                    + " | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl enc -base64")
            XCTAssertEqual("sha256//" + r.output.trimmingCharacters(in: .whitespacesAndNewlines), lab.pins[pin], name)
        }
    }

    func testSMTPStartTLSCompletesWithOpenSSL() throws {
        let s = try XCTUnwrap(lab.scenario("smtp-starttls"))
        XCTAssertTrue(s.url.hasPrefix("smtp://127.0.0.1:"))
        let r = try sClient(s, "-starttls smtp -verify_ip 127.0.0.1")
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("Verify return code: 0 (ok)"), r.output)
    }

    func testMTLSWithOpenSSLFailsWithoutAndSucceedsWithTheClientCertificate() throws {
        let lab = try self.lab
        let s = try XCTUnwrap(lab.scenario("mtls-required"))
        let request =
            "printf 'GET / HTTP/1.0\\r\\n\\r\\n' | timeout 20 openssl s_client -quiet -ign_eof"
            + " -connect 127.0.0.1:\(s.port) -CAfile '\(s.anchorPath)' -verify_return_error -verify_ip 127.0.0.1"
        let without = try Shell.run(request)
        XCTAssertFalse(without.output.contains("HTTP/1.1 200 OK"), without.output)
        XCTAssertTrue(without.output.contains("alert"), without.output)
        let with = try Shell.run(
            request + " -cert '\(lab.clientIdentity.certificatePath)' -key '\(lab.clientIdentity.privateKeyPath)'")
        XCTAssertTrue(with.output.contains("HTTP/1.1 200 OK"), with.output)
        XCTAssertTrue(with.output.contains("scenario mtls-required"), with.output)
    }

    func testTheClientPKCS12OpensWithItsPassword() throws {
        let lab = try self.lab
        let certificates = try CertificateLoader.load(
            path: lab.clientIdentity.pkcs12Path, password: Lab.clientIdentityPassword)
        XCTAssertEqual(certificates.first?.subject.description, "CN=Library Test Learner")
        let info = try Shell.run(
            "openssl pkcs12 -in '\(lab.clientIdentity.pkcs12Path)' -passin pass:\(Lab.clientIdentityPassword) -info -noout"
        )
        XCTAssertEqual(info.status, 0, info.output)
        XCTAssertTrue(info.output.contains("MAC: sha1"), info.output)
    }

    // MARK: - Descriptions

    func testTheJSONDescriptionHasTheIssueShapeInOrder() throws {
        let lab = try self.lab
        let text = lab.json()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let anchors = try XCTUnwrap(object["anchors"] as? [String: String])
        XCTAssertEqual(anchors["library-test-ca"], lab.anchor(.libraryTestCA).path)
        let scenarios = try XCTUnwrap(object["scenarios"] as? [[String: Any]])
        XCTAssertEqual(scenarios.count, Self.lessonsAndATS.count)
        let wrongHost = try XCTUnwrap(scenarios.first { $0["name"] as? String == "wrong-host" })
        XCTAssertEqual(wrongHost["host"] as? String, "localhost")
        XCTAssertEqual(
            wrongHost["url"] as? String, "https://localhost:\(try XCTUnwrap(lab.scenario("wrong-host")).port)/")
        let expect = try XCTUnwrap(wrongHost["expect"] as? [String: Any])
        XCTAssertEqual(expect["trusted"] as? Bool, false)
        XCTAssertEqual(expect["osstatus"] as? Int, -67602)
        XCTAssertEqual(expect["urlError"] as? Int, -999)
        // Keys in the order docs/lab.md documents them.
        let keys = ["\"name\"", "\"url\"", "\"port\"", "\"host\"", "\"anchor\"", "\"expect\"", "\"lesson\""]
        let positions = keys.map { text.range(of: $0)!.lowerBound }
        XCTAssertEqual(positions, positions.sorted())
        XCTAssertLessThan(text.range(of: "\"anchors\"")!.lowerBound, text.range(of: "\"scenarios\"")!.lowerBound)
        // The same description is in the lab folder for handouts.
        XCTAssertEqual(try String(contentsOfFile: lab.directory + "/lab.json", encoding: .utf8), text)
    }

    func testTheTableListsEveryScenarioWithURLAndLesson() throws {
        let lab = try self.lab
        let table = lab.table()
        for s in lab.scenarios {
            let row = try XCTUnwrap(table.split(separator: "\n").first { $0.hasPrefix(s.name + " ") }, s.name)
            XCTAssertTrue(row.contains(s.url), String(row))
            XCTAssertTrue(row.hasSuffix(s.lesson), String(row))
        }
        XCTAssertTrue(table.contains(lab.anchor(.libraryTestCA).path))
    }
}

/// A system store without roots: "no custom anchor" without reading /etc/ssl/certs.
struct EmptyStore: IssuerSource {
    func certificates(withSubject name: DistinguishedName) -> [Certificate] { [] }
    func contains(_ certificate: Certificate) -> Bool { false }
    var location: String { "empty test store" }
}
