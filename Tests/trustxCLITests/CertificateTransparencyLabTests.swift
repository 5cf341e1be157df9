import Foundation
import TrustCore
import TrustLab
import XCTest

/// The Certificate Transparency lessons through the built `trustx check URL --connect-to ...`
/// against one lab serving only that group: every scenario and variation gives the verdict the
/// catalogue states, and that verdict is Apple's rule (docs/steps.md, `certificate-transparency`):
/// a 397-day leaf at a system root needs embedded SCTs from 3 logs the device trusts, counted by
/// log, not by operator; an app's own anchor is exempt.
final class CertificateTransparencyLabTests: XCTestCase {
    nonisolated(unsafe) static var lab: Lab?

    override class func setUp() {
        super.setUp()
        var options = LabOptions()
        options.groups = [LabScenarioGroup.certificateTransparency.id]
        lab = try? Lab.start(options)
    }

    override class func tearDown() {
        lab?.stop()
        lab = nil
        super.tearDown()
    }

    func running() throws -> Lab { try XCTUnwrap(Self.lab, "the lab did not start") }

    func check(_ arguments: [String]) throws -> RunResult { try LabCatalogueCheck.check(arguments) }

    /// The verdict, and the CT step's status and verified SCTs' operators.
    func verdict(_ result: RunResult, _ label: String) throws -> (
        verdict: [String: Any], ctStatus: String?, steps: [[String: Any]]
    ) {
        let json = try result.json()
        let v = try XCTUnwrap(json["verdict"] as? [String: Any], "\(label): no verdict in \(result.out)\(result.err)")
        let steps = try XCTUnwrap(json["steps"] as? [[String: Any]], label)
        let ct = steps.first { $0["id"] as? String == "certificate-transparency" }
        return (v, ct?["status"] as? String, steps)
    }

    func assertVerdict(_ result: RunResult, _ expected: LabExpectation, _ label: String) throws {
        try LabCatalogueCheck.assertVerdict(result, expected, label)
    }

    func testEveryCTScenarioAndVariationGivesItsStatedVerdictThroughCheck() throws {
        let lab = try running()
        XCTAssertEqual(lab.scenarios.map(\.name), ["ct-none", "ct-one-operator", "ct-valid"])
        XCTAssertEqual(try LabCatalogueCheck.checkEveryScenarioAndVariation(of: lab), 5)
    }

    /// Apple's rule spelt out without the catalogue, with the lab root as the system store and
    /// the lab's log list: no SCT fails SystemTrustedCTRequired (-67825, errSecVerifyActionFailed
    /// in Security's SecBase.h), URLSession's default handling reporting -1202; three logs of one
    /// operator and three logs of three operators both qualify; the same root as the app's anchor
    /// exempts the leaf without SCTs.
    func testAtASystemRootALeafWithoutSCTsFailsCTAndThreeLogsQualifyWhateverTheOperators() throws {
        let lab = try running()
        let root = lab.anchor(.ctLabRoot).path
        let logs = lab.directory + "/ct-logs.json"
        XCTAssertTrue(FileManager.default.fileExists(atPath: logs), "the lab writes its log list")
        let systemRoot = ["--store", root, "--ct-logs", logs]

        let none = try XCTUnwrap(lab.scenario("ct-none"))
        let refused = try check(none.targetArguments + systemRoot)
        let (v, ctStatus, steps) = try verdict(refused, "ct-none")
        XCTAssertEqual(v["osstatus"] as? Int, -67825)
        XCTAssertEqual(v["osstatusName"] as? String, "errSecVerifyActionFailed")
        XCTAssertEqual(v["urlError"] as? Int, -1202)
        XCTAssertEqual(ctStatus, "failed")
        let decisive = try XCTUnwrap(v["decisiveStep"] as? Int, refused.out)
        XCTAssertEqual(steps[decisive]["appleCheck"] as? String, "SystemTrustedCTRequired")
        // CT is the only thing wrong with it.
        for step in steps where step["id"] as? String != "certificate-transparency" {
            XCTAssertNotEqual(step["status"] as? String, "failed", "\(step)")
        }

        for name in ["ct-one-operator", "ct-valid"] {
            let s = try XCTUnwrap(lab.scenario(name))
            let result = try check(s.targetArguments + systemRoot)
            let (trusted, status, _) = try verdict(result, name)
            XCTAssertEqual(trusted["trusted"] as? Bool, true, "\(name): \(result.out)")
            XCTAssertEqual(status, "passed", name)
        }

        let exempt = try check(none.targetArguments + ["--anchor", root])
        let (anchored, anchoredCT, _) = try verdict(exempt, "ct-none anchored")
        XCTAssertEqual(anchored["trusted"] as? Bool, true, exempt.out)
        XCTAssertEqual(anchoredCT, "not-applicable")
    }
}
