import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustLab

/// Every lab scenario, checked the way a learner does it: the built `trustx check URL --anchor
/// FILE` against the lab's real servers on loopback. Expectations come from the scenario
/// catalogue, which cites Apple's rule for each.
@Suite(.serialized, .onTestThreads, .fixture(setUp: labCheckTestsSetUp, tearDown: labCheckTestsTearDown))
final class LabCheckTests {
    nonisolated(unsafe) static var lab: Lab?

    static func suiteSetUp() {
        lab = try? Lab.start(LabOptions(scenarios: lessonsAndATS.map(\.name)).patient)
    }

    /// The lab's own lessons and the ATS lessons: the badssl.com cases have BadSSLCaseTests.
    static let lessonsAndATS = LabScenario.all.filter { $0.group == .lessons || $0.group == .ats }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    func running() throws -> Lab { try #require(Self.lab, "the lab did not start") }

    /// The verdict of a JSON report: trusted, OSStatus (nil when nothing was evaluated), URLError.
    func verdict(_ result: RunResult, _ label: String) throws -> (Bool, Int32?, Int?) {
        let json = try result.json()
        let v = try #require(json["verdict"] as? [String: Any], "\(label): no verdict in \(result.out)")
        let trusted = try #require(v["trusted"] as? Bool, "\(label)")
        let osstatus = (v["osstatus"] as? Int).map(Int32.init)
        let urlError = v["urlError"] as? Int
        return (trusted, osstatus, urlError)
    }

    func assertMatches(
        _ result: RunResult, _ expected: LabExpectation, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (trusted, osstatus, urlError) = try verdict(result, label)
        #expect(trusted == expected.trusted, "\(label): trusted", sourceLocation: sourceLocation)
        #expect(osstatus == expected.osstatus, "\(label): OSStatus", sourceLocation: sourceLocation)
        #expect(urlError == expected.urlError, "\(label): URLError", sourceLocation: sourceLocation)
        // Exit status: 0 trusted; 69 when the connection itself failed; 1 otherwise.
        let connectionFailed = expected.osstatus == nil || expected.urlError == -1206 || expected.urlError == -1200
        let status: Int32 = expected.trusted ? 0 : (connectionFailed ? 69 : 1)
        #expect(result.status == status, "\(label): exit status; stderr: \(result.err)", sourceLocation: sourceLocation)
    }

    @Test func testEveryScenarioGivesItsListedExpectationThroughCheck() throws {
        let lab = try running()
        #expect(lab.scenarios.count == Self.lessonsAndATS.count)
        let results = CLI.runAll(
            lab.scenarios.map {
                ["check"] + $0.targetArguments + ["--anchor", $0.anchorPath, "--format", "json", "--timeout", "5"]
            })
        for (s, result) in zip(lab.scenarios, results) {
            try assertMatches(try result.get(), s.expectation, s.name)
        }
        // The missing intermediate is fetched through AIA and marked so in the report.
        let aia = try #require(lab.scenarios.firstIndex { $0.name == "missing-intermediate-aia" })
        let json = try results[aia].get().json()
        let path = try #require(json["path"] as? [[String: Any]])
        #expect((path.map { $0["source"] as? String }) == ["server", "aia", "anchor"])
        let connection = try #require(json["connection"] as? [String: Any])
        #expect(((connection["aia"] as? [Any])?.count) == 1)
    }

    @Test func testEveryVariationGivesItsListedExpectationThroughCheck() throws {
        let lab = try running()
        let runs = lab.scenarios.flatMap { s in
            s.scenario.variations.map { variation in
                (
                    s, variation,
                    ["check"] + lab.arguments(for: variation, of: s) + ["--format", "json", "--timeout", "5"]
                )
            }
        }
        var count = 0
        for ((s, variation, args), result) in zip(runs, CLI.runAll(runs.map(\.2))) {
            try assertMatches(
                try result.get(), variation.expectation, "\(s.name) \(args.dropFirst(2).joined(separator: " "))")
            count += 1
        }
        #expect(count > 10)
    }

    /// The ATS cases decided by the handshake (a version floor, the cipher suites) against what
    /// `trustx ats` finds for the combination with the same keys; a misspelt version is ignored
    /// by ATS, so it must agree with the default policy.
    @Test func testEveryHandshakeATSCaseAgreesWithTrustxATS() throws {
        let lab = try running()
        var checked = 0
        for s in lab.scenarios
        where s.atsCases.contains(where: { $0.atsCase.leafPins == nil && $0.atsCase.caPins == nil }) {
            let r = try CLI.run(["ats"] + s.targetArguments + ["--anchor", s.anchorPath, "--format", "json"])
            let combinations = try #require(try r.json()["combinations"] as? [[String: Any]], "\(r.out)")
            for c in s.atsCases {
                var keys: [String: String] = [:]
                if let v = c.atsCase.minimumTLSVersion, ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"].contains(v) {
                    keys["NSExceptionMinimumTLSVersion"] = v
                }
                if c.atsCase.requiresForwardSecrecy == false { keys["NSExceptionRequiresForwardSecrecy"] = "NO" }
                let found = try #require(
                    combinations.first { ($0["keys"] as? [String: String]) == keys }, "\(s.name) \(c.atsCase.label)")
                let label = "\(s.name) \(c.atsCase.label)"
                #expect((found["result"] as? String == "PASS") == c.atsCase.expectation.trusted, "\(label)")
                #expect((found["urlError"] as? Int) == c.atsCase.expectation.urlError, "\(label)")
                checked += 1
            }
        }
        #expect(checked == 7)
    }

    /// Every ATS lesson's Info.plist, loaded by check: the verdict, OSStatus and URLError each
    /// case lists (the lab writes the plist files; the expectations come from Apple's rules).
    @Test func testEveryATSCaseGivesItsListedExpectationThroughCheckWithItsInfoPlist() throws {
        let lab = try running()
        var checked = 0
        let runs = lab.scenarios.flatMap { s in s.atsCases.map { c in (s, c) } }
        let results = CLI.runAll(runs.map { s, c in ["check"] + lab.arguments(for: c, of: s) + ["--format", "json"] })
        for ((s, c), result) in zip(runs, results) {
            let label = "\(s.name) \(c.atsCase.label)"
            let r = try result.get()
            let verdict = try #require(try r.json()["verdict"] as? [String: Any], "\(label): \(r.out) \(r.err)")
            let expected = c.atsCase.expectation
            #expect((verdict["trusted"] as? Bool) == expected.trusted, "\(label)")
            #expect(r.status == (expected.trusted ? 0 : 1), "\(label)")
            if !expected.trusted {
                #expect((verdict["urlError"] as? Int) == expected.urlError, "\(label)")
                if let osstatus = expected.osstatus {
                    #expect((verdict["osstatus"] as? Int) == Int(osstatus), "\(label): \(r.out)")
                }
            }
            checked += 1
        }
        #expect(checked == 10)
    }

    @Test func testAServerThatNeedsAClientCertificateIsEvaluatedThenRefused() throws {
        let lab = try running()
        let s = try #require(lab.scenario("mtls-required"))
        let without = try CLI.run(["check", s.url, "--anchor", s.anchorPath])
        #expect(without.status == 69)
        #expect(without.out.contains("-1206"), "\(without.out)")
        let with = try CLI.run([
            "check", s.url, "--anchor", s.anchorPath, "--client-cert", lab.clientIdentity.pkcs12Path, "--password",
            lab.clientIdentity.password,
        ])
        #expect(with.status == 0, "\(with.out + with.err)")
    }
}

/// LabCheckTests's shared set-up, outside the type so its suite attribute can name it.
private func labCheckTestsSetUp() { LabCheckTests.suiteSetUp() }

/// LabCheckTests's shared tear-down, outside the type so its suite attribute can name it.
private func labCheckTestsTearDown() { LabCheckTests.suiteTearDown() }
