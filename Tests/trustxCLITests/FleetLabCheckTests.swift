import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing
import TrustLab

/// The staging-fleet lessons through the built `trustx check`, against one lab serving the
/// group: the pool's command as the lab prints it gives one report per node and the exit status
/// of the worst node.
@Suite(.serialized, .onTestThreads, .fixture(setUp: fleetLabCheckTestsSetUp, tearDown: fleetLabCheckTestsTearDown))
final class FleetLabCheckTests {
    nonisolated(unsafe) static var lab: Lab?

    static func suiteSetUp() {
        var options = LabOptions()
        options.groups = [LabScenarioGroup.fleet.id]
        lab = try? Lab.start(options.patient)
    }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    func pool() throws -> (Lab, RunningScenario) {
        let lab = try #require(Self.lab, "the lab did not start")
        return (lab, try #require(lab.scenario("pool")))
    }

    @Test func testThePoolsCheckCommandGivesThreeJSONReportsInNodeOrderAndExitsOne() throws {
        let (lab, pool) = try pool()
        let run = try CLI.run(["check"] + lab.checkArguments(pool) + ["--format", "json", "--timeout", "10"])
        // Two of three nodes are not trusted: the worst report decides, exit 1.
        #expect(run.status == 1, "\(run.err)")
        let reports = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.out)")
        #expect(reports.count == 3)
        let verdicts = reports.map { $0["verdict"] as? [String: Any] ?? [:] }
        #expect((verdicts.map { $0["trusted"] as? Bool }) == [true, false, false])
        // Apple's codes for the rule each node breaks: none, TemporalValidity's
        // errSecCertificateExpired, MissingIntermediate's errSecCreateChainFailed.
        #expect((verdicts.map { $0["osstatus"] as? Int }) == [0, -67818, -25318])
        #expect((verdicts.map { $0["urlError"] as? Int }) == [nil, -999, -999])
        let peers = reports.map { (($0["connection"] as? [String: Any])?["peerAddress"] as? String) }
        #expect(peers == (pool.nodes.map { "\($0.address):\($0.port)" }), "\(run.out)")
    }

    @Test func testThePoolsCheckCommandPrintsOneRowPerNodeAndExitsOne() throws {
        let (lab, pool) = try pool()
        let run = try CLI.run(["check"] + lab.checkArguments(pool) + ["--timeout", "10"])
        #expect(run.status == 1, "\(run.err)")
        let rows = run.out.split(separator: "\n").filter { $0.hasPrefix("https://pool.trustx.test:") }
        #expect(rows.count == 3, "\(run.out)")
        for (row, node) in zip(rows, pool.nodes) {
            #expect(row.contains("\(node.address):\(node.port)"), "\(String(row))")
        }
        #expect(rows[0].contains("trusted") && !rows[0].contains("not trusted"), "\(String(rows[0]))")
        #expect(rows[1].contains("(-67818)"), "\(String(rows[1]))")
        #expect(rows[2].contains("(-25318)"), "\(String(rows[2]))")
        #expect(run.out.contains("1 of 3 trusted"), "\(run.out)")
    }

    @Test func testDiffOfTheHealthyAndTheExpiredNodeFindsTheSameKeyInANewCertificateAndExitsOne() throws {
        let (_, pool) = try pool()
        let run = try CLI.run([
            "diff", pool.url, pool.url, "--connect-to", "\(pool.nodes[0].connectTo),\(pool.nodes[1].connectTo)",
            "--anchor", pool.anchorPath, "--timeout", "10",
        ])
        // The verdicts differ (exit 1) while the leaf key is the same: a node the renewal missed.
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.contains("[0] same key, new certificate  CN=pool.trustx.test"), "\(run.out)")
        #expect(run.out.contains("[0] validity  A passed  B failed"), "\(run.out)")
    }

    @Test func testRotateSecondsBelowOneOrNotANumberIsAUsageErrorForLabAndExplore() throws {
        for args in [
            ["lab", "--rotate-seconds", "0"], ["explore", "--rotate-seconds", "soon"], ["--rotate-seconds", "-5"],
        ] {
            let run = try CLI.run(args)
            #expect(run.status == 64, "\(args): \(run.err)")
            #expect(run.err.contains("is invalid for '--rotate-seconds <seconds>'"), "\(args): \(run.err)")
        }
    }

    @Test func testTheRotatingServerIsTrustedWhicheverLeafItServesAndItsCAPinHolds() throws {
        let lab = try #require(Self.lab, "the lab did not start")
        let s = try #require(lab.scenario("rotating"))
        let backup = try #require(s.scenario.variations.last)
        try LabCatalogueCheck.assertVerdict(
            try LabCatalogueCheck.check(s.targetArguments + ["--anchor", s.anchorPath]), s.expectation, "rotating")
        try LabCatalogueCheck.assertVerdict(
            try LabCatalogueCheck.check(lab.arguments(for: backup, of: s)), backup.expectation, "rotating, CA pin")
    }

    /// Every variation of the rotating scenario through the built `trustx check` against the
    /// live server: the leaf served is read from the report (the presented leaf's key), and each
    /// variation stated for that leaf, or for any leaf, gives its listed verdict. At d2f517e the
    /// leaf pin listed -999 under whichever leaf, false half the time.
    @Test func testEveryRotatingVariationGivesItsListedVerdictUnderTheLeafServed() throws {
        let lab = try #require(Self.lab, "the lab did not start")
        let s = try #require(lab.scenario("rotating"))
        let rotation = try #require(s.rotation)
        let leafKeys = rotation.chains.map { $0[0].spkiPin }
        func check(_ v: LabVariation) throws -> Bool {
            let r = try LabCatalogueCheck.check(lab.arguments(for: v, of: s))
            let presented = try #require(try r.json()["presented"] as? [[String: Any]], "\(r.out)")
            let key = try #require(presented.first?["spkiSha256"] as? String)
            let served = try #require(leafKeys.firstIndex(of: key), "the served leaf is one of the two") + 1
            guard v.holds(whileServing: served) else { return false }
            try LabCatalogueCheck.assertVerdict(r, v.expectation, "rotating, leaf \(served): \(v.why)")
            return true
        }
        let always = s.scenario.variations.filter { $0.leaf == nil }
        let perLeaf = s.scenario.variations.filter { $0.leaf != nil }
        #expect(always.count == 1 && perLeaf.count == 2)
        for v in always { #expect(try check(v)) }
        // One of the two per-leaf variations is for the leaf served now; a second round covers
        // a switch between the two checks (the period is 20 s).
        var applied = 0
        for _ in 0..<2 where applied == 0 {
            for v in perLeaf where try check(v) { applied += 1 }
        }
        #expect(applied >= 1)
    }
}

/// FleetLabCheckTests's shared set-up, outside the type so its suite attribute can name it.
private func fleetLabCheckTestsSetUp() { FleetLabCheckTests.suiteSetUp() }

/// FleetLabCheckTests's shared tear-down, outside the type so its suite attribute can name it.
private func fleetLabCheckTestsTearDown() { FleetLabCheckTests.suiteTearDown() }
