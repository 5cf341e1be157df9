import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustLab

/// The ios26-hello lessons through `trustx check URL` against one lab serving only that group:
/// every scenario and variation gives the verdict the catalogue states (the chain reaches trustx
/// through the front and is trusted), and the apple hello meets what the lesson says. Expected
/// answers: a reset for a hello over 1,024 bytes (it is about 1,520: draft-ietf-tls-ecdhe-mlkem's
/// 1,216-byte share alone passes 1,024), silence for one that does not fit a 1,460-byte segment,
/// and a HelloRetryRequest for x25519, which RFC 8446 4.2.8 makes the client reject.
@Suite(.serialized, .onTestThreads, .fixture(setUp: appleHelloLabTestsSetUp, tearDown: appleHelloLabTestsTearDown))
final class AppleHelloLabTests {
    nonisolated(unsafe) static var lab: Lab?

    static func suiteSetUp() {
        var options = LabOptions()
        options.groups = [LabScenarioGroup.appleHello.id]
        lab = try? Lab.start(options.patient)
    }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    @Test func testEveryScenarioAndVariationGivesItsStatedVerdictThroughCheck() throws {
        let lab = try #require(Self.lab, "the lab did not start")
        #expect(lab.scenarios.map(\.name) == ["large-hello-reset", "split-hello-dropped", "hrr-for-x25519"])
        #expect((try LabCatalogueCheck.checkEveryScenarioAndVariation(of: lab)) == 3)
    }

    @Test func testTheLabsJSONNamesTheAnswerOfTheseLessonsOnly() throws {
        let lab = try #require(Self.lab, "the lab did not start")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any], "lab.json")
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        #expect(scenarios.map { $0["appleHello"] as? String } == ["reset", "timed-out", "hello-retry-request"])
        // What URLSession makes of each on a device (NSURLError.h): a reset mid-load is
        // NetworkConnectionLost, silence until the timeout TimedOut, an aborted handshake
        // SecureConnectionFailed.
        #expect(scenarios.map { $0["deviceURLError"] as? Int } == [-1005, -1001, -1200])
    }

    @Test func testIOS26sHelloMeetsWhatEachLessonSays() throws {
        let lab = try #require(Self.lab, "the lab did not start")
        let expected: [String: (outcome: String, group: String?)] = [
            "large-hello-reset": ("reset", nil), "split-hello-dropped": ("timed-out", nil),
            "hrr-for-x25519": ("hello-retry-request", "x25519"),
        ]
        for s in lab.scenarios {
            let result = try LabCatalogueCheck.check(s.targetArguments + ["--anchor", s.anchorPath])
            let connection = try #require(try result.json()["connection"] as? [String: Any], "\(s.name)")
            let hello = try #require(connection["appleClientHello"] as? [String: Any], "\(s.name): \(result.out)")
            #expect(hello["outcome"] as? String == expected[s.name]?.outcome, "\(s.name): \(hello)")
            #expect(hello["outcome"] as? String == s.scenario.appleHello?.rawValue, "\(s.name): the catalogue")
            if let group = expected[s.name]?.group { #expect(hello["group"] as? String == group, "\(s.name)") }
            #expect(connection["group"] as? String == "x25519", "\(s.name): trustx's own handshake passed")
        }
    }
}

/// AppleHelloLabTests's shared set-up, outside the type so its suite attribute can name it.
private func appleHelloLabTestsSetUp() { AppleHelloLabTests.suiteSetUp() }

/// AppleHelloLabTests's shared tear-down, outside the type so its suite attribute can name it.
private func appleHelloLabTestsTearDown() { AppleHelloLabTests.suiteTearDown() }
