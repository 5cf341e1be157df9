import Foundation
import SuiteFixtures
import Testing
import TrustLab
import TrustSupport

/// The client lesson through `trustx check URL --connect-to ...` against one lab serving only that
/// group. The rule (Security-61901, trust/trustd/SecPolicyServer.c, `_ShouldApplyEarlyExpirationCheck`
/// with `SecCertificateIsValidWithAdjustments`): when Apple's own programs evaluate, the path's
/// root is judged 60 days after the evaluation time if it was valid for more than 120 days and no
/// user or administrator trusted it; failing that date is TemporalValidity, errSecCertificateExpired
/// (-67818 in SecBase.h). An app's evaluation uses the evaluation time itself. The root's dates
/// are read with openssl, not trustx.
@Suite(.serialized, .onTestThreads, .fixture(setUp: clientLabTestsSetUp, tearDown: clientLabTestsTearDown))
final class ClientLabTests {
    nonisolated(unsafe) static var lab: Lab?

    static func suiteSetUp() {
        var options = LabOptions()
        options.groups = [LabScenarioGroup.client.id]
        lab = try? Lab.start(options.patient)
    }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    func running() throws -> Lab { try #require(Self.lab, "the lab did not start") }

    static let day: Int64 = 86_400

    @Test func testTheScenarioAndEveryVariationGiveTheirStatedVerdictThroughCheck() throws {
        let lab = try running()
        #expect(lab.scenarios.map(\.name) == ["works-in-app-fails-in-safari"])
        #expect((try LabCatalogueCheck.checkEveryScenarioAndVariation(of: lab)) == 4)
    }

    /// The root is one the rule moves (valid over 120 days, expiring within 60), and a system
    /// root is refused for Safari, with the moved date named, where an app and a device-trusted
    /// root are trusted.
    @Test func testASystemRootWithinSixtyDaysOfExpiryFailsForSafariAndPassesForAnApp() throws {
        let lab = try running()
        let s = try #require(lab.scenario("works-in-app-fails-in-safari"))
        let rootPath = lab.anchor(.expiringRoot).path
        let root = try OpenSSLDates.read(rootPath)
        let at = Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        #expect(root.notAfter.secondsSinceEpoch - root.notBefore.secondsSinceEpoch > 120 * Self.day)
        #expect(root.notAfter > at && root.notAfter < at.adding(seconds: 60 * Self.day), "\(root)")

        let system =
            s.targetArguments + [
                "--store", rootPath, "--ct-logs", lab.directory + "/ct-logs.json", "--at", at.rfc3339,
            ]
        let app = try LabCatalogueCheck.check(system)
        #expect((try app.json()["verdict"] as? [String: Any])?["trusted"] as? Bool == true, "\(app.out)")

        let safari = try LabCatalogueCheck.check(system + ["--client", "safari"])
        let json = try safari.json()
        let verdict = try #require(json["verdict"] as? [String: Any], "\(safari.out)\(safari.err)")
        #expect(verdict["osstatus"] as? Int == -67818)
        #expect(verdict["osstatusName"] as? String == "errSecCertificateExpired")
        #expect(verdict["urlError"] as? Int == -1202)
        #expect((json["settings"] as? [String: Any])?["client"] as? String == "safari")
        let steps = try #require(json["steps"] as? [[String: Any]])
        let failed = steps.filter { $0["status"] as? String == "failed" }
        // Only the root's date fails: the leaf is within its dates, and nothing else changed.
        #expect(failed.map { $0["id"] as? String } == ["validity"], "\(failed)")
        #expect(failed.first?["certificate"] as? Int == 1)
        #expect(failed.first?["appleCheck"] as? String == "TemporalValidity")
        let title = failed.first?["title"] as? String ?? ""
        #expect(title.contains(at.adding(seconds: 60 * Self.day).rfc3339), "\(title)")
        #expect(title.contains(root.notAfter.rfc3339), "\(title)")

        // A root a user or administrator trusted is exempt, Safari or not.
        let device = try LabCatalogueCheck.check(
            s.targetArguments + ["--anchor", rootPath, "--anchor-class", "device", "--client", "safari"])
        #expect((try device.json()["verdict"] as? [String: Any])?["trusted"] as? Bool == true, "\(device.out)")
    }

    /// When it breaks: for an app one second after the leaf's notAfter (a day before the root's),
    /// for Safari never trusted at all, as the root's moved expiry (its notAfter less 60 days)
    /// came before the leaf was issued.
    @Test func testTheTimelineBreaksAtTheLeafsExpiryForAnAppAndNeverTrustsForSafari() throws {
        let lab = try running()
        let s = try #require(lab.scenario("works-in-app-fails-in-safari"))
        let leaf = try OpenSSLDates.read(lab.directory + "/works-in-app-fails-in-safari.chain.pem")
        let root = try OpenSSLDates.read(lab.anchor(.expiringRoot).path)
        #expect(root.notAfter.adding(seconds: -60 * Self.day) < leaf.notBefore)
        let anchored = s.targetArguments + ["--anchor", s.anchorPath, "--timeline"]

        let app = try LabCatalogueCheck.check(anchored).json()
        let appTimeline = try #require(app["timeline"] as? [[String: Any]])
        #expect(appTimeline.last?["at"] as? String == leaf.notAfter.adding(seconds: 1).rfc3339, "\(appTimeline)")
        #expect(appTimeline.last?["osstatus"] as? Int == -67818)

        let safari = try LabCatalogueCheck.check(anchored + ["--client", "safari"]).json()
        #expect((safari["timeline"] as? [[String: Any]])?.isEmpty == true, "\(safari["timeline"] ?? "")")
        #expect((safari["timelineSearch"] as? [String: Any])?["trustedNow"] as? Bool == false)
    }
}

/// ClientLabTests's shared set-up, outside the type so its suite attribute can name it.
private func clientLabTestsSetUp() { ClientLabTests.suiteSetUp() }

/// ClientLabTests's shared tear-down, outside the type so its suite attribute can name it.
private func clientLabTestsTearDown() { ClientLabTests.suiteTearDown() }
