import Foundation
import TrustLab
import XCTest

/// The staging-fleet lessons through the built `trustx check`, against one lab serving the
/// group: the pool's command as the lab prints it gives one report per node and the exit status
/// of the worst node.
final class FleetLabCheckTests: XCTestCase {
    nonisolated(unsafe) static var lab: Lab?

    override class func setUp() {
        super.setUp()
        var options = LabOptions()
        options.groups = [LabScenarioGroup.fleet.id]
        lab = try? Lab.start(options)
    }

    override class func tearDown() {
        lab?.stop()
        lab = nil
        super.tearDown()
    }

    func pool() throws -> (Lab, RunningScenario) {
        let lab = try XCTUnwrap(Self.lab, "the lab did not start")
        return (lab, try XCTUnwrap(lab.scenario("pool")))
    }

    func testThePoolsCheckCommandGivesThreeJSONReportsInNodeOrderAndExitsOne() throws {
        let (lab, pool) = try pool()
        let run = try CLI.run(["check"] + lab.checkArguments(pool) + ["--format", "json", "--timeout", "10"])
        // Two of three nodes are not trusted: the worst report decides, exit 1.
        XCTAssertEqual(run.status, 1, run.err)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], run.out)
        XCTAssertEqual(reports.count, 3)
        let verdicts = reports.map { $0["verdict"] as? [String: Any] ?? [:] }
        XCTAssertEqual(verdicts.map { $0["trusted"] as? Bool }, [true, false, false])
        // Apple's codes for the rule each node breaks: none, TemporalValidity's
        // errSecCertificateExpired, MissingIntermediate's errSecCreateChainFailed.
        XCTAssertEqual(verdicts.map { $0["osstatus"] as? Int }, [0, -67818, -25318])
        XCTAssertEqual(verdicts.map { $0["urlError"] as? Int }, [nil, -999, -999])
        let peers = reports.map { (($0["connection"] as? [String: Any])?["peerAddress"] as? String) }
        XCTAssertEqual(peers, pool.nodes.map { "\($0.address):\($0.port)" }, run.out)
    }

    func testThePoolsCheckCommandPrintsOneRowPerNodeAndExitsOne() throws {
        let (lab, pool) = try pool()
        let run = try CLI.run(["check"] + lab.checkArguments(pool) + ["--timeout", "10"])
        XCTAssertEqual(run.status, 1, run.err)
        let rows = run.out.split(separator: "\n").filter { $0.hasPrefix("https://pool.trustx.test:") }
        XCTAssertEqual(rows.count, 3, run.out)
        for (row, node) in zip(rows, pool.nodes) {
            XCTAssertTrue(row.contains("\(node.address):\(node.port)"), String(row))
        }
        XCTAssertTrue(rows[0].contains("trusted") && !rows[0].contains("not trusted"), String(rows[0]))
        XCTAssertTrue(rows[1].contains("(-67818)"), String(rows[1]))
        XCTAssertTrue(rows[2].contains("(-25318)"), String(rows[2]))
        XCTAssertTrue(run.out.contains("1 of 3 trusted"), run.out)
    }

    func testDiffOfTheHealthyAndTheExpiredNodeFindsTheSameKeyInANewCertificateAndExitsOne() throws {
        let (_, pool) = try pool()
        let run = try CLI.run([
            "diff", pool.url, pool.url, "--connect-to", "\(pool.nodes[0].connectTo),\(pool.nodes[1].connectTo)",
            "--anchor", pool.anchorPath, "--timeout", "10",
        ])
        // The verdicts differ (exit 1) while the leaf key is the same: a node the renewal missed.
        XCTAssertEqual(run.status, 1, run.err)
        XCTAssertTrue(run.out.contains("[0] same key, new certificate  CN=pool.trustx.test"), run.out)
        XCTAssertTrue(run.out.contains("[0] validity  A passed  B failed"), run.out)
    }

    func testRotateSecondsBelowOneOrNotANumberIsAUsageErrorForLabAndExplore() throws {
        for args in [
            ["lab", "--rotate-seconds", "0"], ["explore", "--rotate-seconds", "soon"], ["--rotate-seconds", "-5"],
        ] {
            let run = try CLI.run(args)
            XCTAssertEqual(run.status, 64, "\(args): \(run.err)")
            XCTAssertTrue(run.err.contains("is invalid for '--rotate-seconds <seconds>'"), "\(args): \(run.err)")
        }
    }

    func testTheRotatingServerIsTrustedWhicheverLeafItServesAndItsCAPinHolds() throws {
        let lab = try XCTUnwrap(Self.lab, "the lab did not start")
        let s = try XCTUnwrap(lab.scenario("rotating"))
        let backup = try XCTUnwrap(s.scenario.variations.last)
        try LabCatalogueCheck.assertVerdict(
            try LabCatalogueCheck.check(s.targetArguments + ["--anchor", s.anchorPath]), s.expectation, "rotating")
        try LabCatalogueCheck.assertVerdict(
            try LabCatalogueCheck.check(lab.arguments(for: backup, of: s)), backup.expectation, "rotating, CA pin")
    }
}
