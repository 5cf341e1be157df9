import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustLab

/// The Certificate Transparency lessons through the built `trustx check URL --connect-to ...`
/// against one lab serving only that group: every scenario and variation gives the verdict the
/// catalogue states, and that verdict is Apple's rule (docs/steps.md, `certificate-transparency`):
/// a 397-day leaf at a system root needs embedded SCTs from 3 logs the device trusts, counted by
/// log, not by operator; an app's own anchor is exempt.
@Suite(
    .serialized, .onTestThreads,
    .fixture(setUp: certificateTransparencyLabTestsSetUp, tearDown: certificateTransparencyLabTestsTearDown))
final class CertificateTransparencyLabTests {
    nonisolated(unsafe) static var lab: Lab?

    static func suiteSetUp() {
        var options = LabOptions()
        options.groups = [LabScenarioGroup.certificateTransparency.id]
        lab = try? Lab.start(options.patient)
    }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    func running() throws -> Lab { try #require(Self.lab, "the lab did not start") }

    func check(_ arguments: [String]) throws -> RunResult { try LabCatalogueCheck.check(arguments) }

    /// The verdict, and the CT step's status and verified SCTs' operators.
    func verdict(_ result: RunResult, _ label: String) throws -> (
        verdict: [String: Any], ctStatus: String?, steps: [[String: Any]]
    ) {
        let json = try result.json()
        let v = try #require(json["verdict"] as? [String: Any], "\(label): no verdict in \(result.out)\(result.err)")
        let steps = try #require(json["steps"] as? [[String: Any]], "\(label)")
        let ct = steps.first { $0["id"] as? String == "certificate-transparency" }
        return (v, ct?["status"] as? String, steps)
    }

    func assertVerdict(_ result: RunResult, _ expected: LabExpectation, _ label: String) throws {
        try LabCatalogueCheck.assertVerdict(result, expected, label)
    }

    @Test func testEveryCTScenarioAndVariationGivesItsStatedVerdictThroughCheck() throws {
        let lab = try running()
        #expect(lab.scenarios.map(\.name) == ["ct-none", "ct-one-operator", "ct-valid"])
        #expect((try LabCatalogueCheck.checkEveryScenarioAndVariation(of: lab)) == 5)
    }

    /// Apple's rule spelt out without the catalogue, with the lab root as the system store and
    /// the lab's log list: no SCT fails SystemTrustedCTRequired (-67825, errSecVerifyActionFailed
    /// in Security's SecBase.h), URLSession's default handling reporting -1202; three logs of one
    /// operator and three logs of three operators both qualify; the same root as the app's anchor
    /// exempts the leaf without SCTs.
    @Test func testAtASystemRootALeafWithoutSCTsFailsCTAndThreeLogsQualifyWhateverTheOperators() throws {
        let lab = try running()
        let root = lab.anchor(.ctLabRoot).path
        let logs = lab.directory + "/ct-logs.json"
        #expect(FileManager.default.fileExists(atPath: logs), "the lab writes its log list")
        let systemRoot = ["--store", root, "--ct-logs", logs]

        let none = try #require(lab.scenario("ct-none"))
        let refused = try check(none.targetArguments + systemRoot)
        let (v, ctStatus, steps) = try verdict(refused, "ct-none")
        #expect((v["osstatus"] as? Int) == -67825)
        #expect((v["osstatusName"] as? String) == "errSecVerifyActionFailed")
        #expect((v["urlError"] as? Int) == -1202)
        #expect(ctStatus == "failed")
        let decisive = try #require(v["decisiveStep"] as? Int, "\(refused.out)")
        #expect((steps[decisive]["appleCheck"] as? String) == "SystemTrustedCTRequired")
        // CT is the only thing wrong with it.
        for step in steps where step["id"] as? String != "certificate-transparency" {
            #expect((step["status"] as? String) != "failed", "\(step)")
        }

        for name in ["ct-one-operator", "ct-valid"] {
            let s = try #require(lab.scenario(name))
            let result = try check(s.targetArguments + systemRoot)
            let (trusted, status, _) = try verdict(result, name)
            #expect((trusted["trusted"] as? Bool) == true, "\(name): \(result.out)")
            #expect(status == "passed", "\(name)")
        }

        let exempt = try check(none.targetArguments + ["--anchor", root])
        let (anchored, anchoredCT, _) = try verdict(exempt, "ct-none anchored")
        #expect((anchored["trusted"] as? Bool) == true, "\(exempt.out)")
        #expect(anchoredCT == "not-applicable")
    }

    /// Apple's published CT policy (support.apple.com/103214) counts at most 2 embedded SCTs per
    /// log operator toward the 3 a 397-day leaf needs, which trustd's code does not: ct-one-operator
    /// is trusted at a system root with advice in the JSON, the text and the Markdown, ct-valid
    /// (three operators) without.
    @Test func testOneOperatorsThreeLogsAreTrustedWithAdviceFromThePublishedPolicy() throws {
        let lab = try running()
        let systemRoot = ["--store", lab.anchor(.ctLabRoot).path, "--ct-logs", lab.directory + "/ct-logs.json"]
        for (name, kinds) in [("ct-one-operator", ["operator-cap"]), ("ct-valid", [])] {
            let s = try #require(lab.scenario(name))
            let json = try check(s.targetArguments + systemRoot)
            let (v, _, steps) = try verdict(json, name)
            #expect((v["trusted"] as? Bool) == true, "\(name): advice never changes the verdict")
            let ct = try #require(steps.first { $0["id"] as? String == "certificate-transparency" })
            let evidence = try #require(ct["scts"] as? [String: Any])
            let advice = try #require(evidence["publishedPolicyAdvice"] as? [[String: Any]], "\(name)")
            #expect(advice.compactMap { $0["kind"] as? String } == kinds, "\(name)")
            let text = try CLI.run(["check"] + s.targetArguments + systemRoot)
            #expect(text.out.contains("\nCT advice\n") == !kinds.isEmpty, "\(name): \(text.out)")
            let markdown = try CLI.run(["check"] + s.targetArguments + systemRoot + ["--format", "markdown"])
            #expect(markdown.out.contains("\n## CT advice\n") == !kinds.isEmpty, "\(name): \(markdown.out)")
        }
    }
}

/// CertificateTransparencyLabTests's shared set-up, outside the type so its suite attribute can name it.
private func certificateTransparencyLabTestsSetUp() { CertificateTransparencyLabTests.suiteSetUp() }

/// CertificateTransparencyLabTests's shared tear-down, outside the type so its suite attribute can name it.
private func certificateTransparencyLabTestsTearDown() { CertificateTransparencyLabTests.suiteTearDown() }
