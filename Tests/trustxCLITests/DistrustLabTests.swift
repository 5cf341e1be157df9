import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustLab

/// The distrust lessons through `trustx check URL --connect-to ...` against one lab serving only
/// that group: every scenario and variation gives the verdict the catalogue states, and that
/// verdict is Apple's rule. trustd (Security, trust/trustd/SecRevocationServer.c,
/// SecRVCProcessValidDateConstraints) fails a certificate whose notBefore lies after its issuer's
/// not-after bound with GrayListedKey when the Valid entry is overridable, which
/// SecPolicyServer.c records as errSecNotTrusted (-67843 in SecBase.h), recoverable; under SSL
/// (SecPVCCheckRequireCTConstraints) a path whose issuance time is after the bound fails
/// GrayListedLeaf, and a passed bound requires CT (CTRequired). Apple's support article 121668
/// applies this to Entrust's roots for certificates issued after 2024-11-15.
@Suite(.serialized, .onTestThreads, .fixture(setUp: distrustLabTestsSetUp, tearDown: distrustLabTestsTearDown))
final class DistrustLabTests {
    nonisolated(unsafe) static var lab: Lab?

    static func suiteSetUp() {
        var options = LabOptions()
        options.groups = [LabScenarioGroup.distrust.id]
        lab = try? Lab.start(options.patient)
    }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    func running() throws -> Lab { try #require(Self.lab, "the lab did not start") }

    /// The JSON report's verdict and its failed steps' Apple checks.
    func failedChecks(_ arguments: [String], _ label: String) throws -> (verdict: [String: Any], checks: Set<String>) {
        let result = try LabCatalogueCheck.check(arguments)
        let json = try result.json()
        let v = try #require(json["verdict"] as? [String: Any], "\(label): \(result.out)\(result.err)")
        let steps = try #require(json["steps"] as? [[String: Any]], "\(label)")
        let failed = steps.filter { $0["status"] as? String == "failed" }.compactMap { $0["appleCheck"] as? String }
        return (v, Set(failed))
    }

    @Test func testEveryDistrustScenarioAndVariationGivesItsStatedVerdictThroughCheck() throws {
        let lab = try running()
        #expect(lab.scenarios.map(\.name) == ["distrusted-after-date", "issued-before-distrust"])
        #expect((try LabCatalogueCheck.checkEveryScenarioAndVariation(of: lab)) == 5)
    }

    /// Apple's rule spelt out without the catalogue: after the cut-off GrayListedKey (the leaf's
    /// notBefore) and GrayListedLeaf (the path's issuance time), errSecNotTrusted, whatever
    /// anchors the root; before it, trusted when CT-qualified and CTRequired when not.
    @Test func testALeafIssuedAfterTheCutOffFailsGrayListedKeyAndOneBeforeItPassesWhenCTQualified() throws {
        let lab = try running()
        let constraints = lab.directory + "/date-constraints.json"
        let logs = lab.directory + "/ct-logs.json"
        let root = lab.anchor(.distrustedRoot).path
        #expect(FileManager.default.fileExists(atPath: constraints), "the lab writes its date constraints")

        let after = try #require(lab.scenario("distrusted-after-date"))
        let before = try #require(lab.scenario("issued-before-distrust"))
        let anchored = ["--anchor", root, "--ct-logs", logs, "--date-constraints", constraints]

        let (refused, checks) = try failedChecks(after.targetArguments + anchored, "after")
        #expect((refused["osstatus"] as? Int) == -67843)
        #expect((refused["osstatusName"] as? String) == "errSecNotTrusted")
        #expect((refused["urlError"] as? Int) == -999)
        #expect(checks == ["GrayListedKey", "GrayListedLeaf"])

        let (kept, keptChecks) = try failedChecks(before.targetArguments + anchored, "before")
        #expect((kept["trusted"] as? Bool) == true, "\(kept)")
        #expect(keptChecks.isEmpty)

        // Apple's log list: the lab's SCTs prove nothing, and a passed cut-off requires CT.
        let unlogged = ["--anchor", root, "--date-constraints", constraints]
        let (ctRequired, ctChecks) = try failedChecks(before.targetArguments + unlogged, "before, Apple's logs")
        #expect((ctRequired["osstatus"] as? Int) == -67843)
        #expect(ctChecks == ["CTRequired"])

        // Without the file the device knows no constraint for the lab's root.
        let (plain, plainChecks) = try failedChecks(after.targetArguments + ["--anchor", root], "after, no file")
        #expect((plain["trusted"] as? Bool) == true)
        #expect(plainChecks.isEmpty)
    }

    @Test func testTheAnchorStepNamesTheConstraintAndItsCutOff() throws {
        let lab = try running()
        let after = try #require(lab.scenario("distrusted-after-date"))
        let constraints = lab.directory + "/date-constraints.json"
        let r = try LabCatalogueCheck.check(
            after.targetArguments + ["--anchor", lab.anchor(.distrustedRoot).path, "--date-constraints", constraints])
        let steps = try #require(try r.json()["steps"] as? [[String: Any]])
        let anchor = try #require(steps.first { $0["id"] as? String == "anchor" }, "\(r.out)")
        let text = "\(anchor)"
        #expect(text.contains("Lab Distrusted Root"), "\(text)")
        #expect(text.contains("issued after"), "\(text)")
    }
}

/// A `--date-constraints` file the command refuses: exit 65 with the reason, before any connection.
@Suite struct DateConstraintsFileTests {
    @Test func testAFileThatIsNotConstraintsIsADataErrorNamingTheFault() throws {
        let dir = NSTemporaryDirectory() + "trustx-dates-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(String, String)] = [
            ("[]", "\"constraints\" array"),
            (
                "{\"constraints\": [{\"name\": \"X\", \"sha256\": \"AB\", \"notAfter\": \"2024-11-15T23:59:59Z\"}]}",
                "64"
            ),
            (
                "{\"constraints\": [{\"name\": \"X\", \"sha256\": \"" + String(repeating: "A", count: 64) + "\"}]}",
                "neither"
            ),
        ]
        let pki = try TestPKI.get()
        for (i, (text, reason)) in cases.enumerated() {
            let path = dir + "/\(i).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let r = try CLI.run(
                ["check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--date-constraints", path])
            #expect(r.status == 65, "\(text): \(r.err)")
            #expect(r.err.contains(reason), "\(text): \(r.err)")
        }
    }
}

/// DistrustLabTests's shared set-up, outside the type so its suite attribute can name it.
private func distrustLabTestsSetUp() { DistrustLabTests.suiteSetUp() }

/// DistrustLabTests's shared tear-down, outside the type so its suite attribute can name it.
private func distrustLabTestsTearDown() { DistrustLabTests.suiteTearDown() }
