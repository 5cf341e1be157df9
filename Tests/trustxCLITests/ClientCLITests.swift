import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing
import TrustSupport

/// `trustx check --client app|safari`. Expected values from Security-61901's
/// trust/trustd/SecPolicyServer.c, `_ShouldApplyEarlyExpirationCheck`: for Apple's own programs a
/// system root valid for more than 120 days is judged 60 days after the evaluation time, so 30 days
/// before its notAfter it fails TemporalValidity, errSecCertificateExpired (-67818); an app's
/// evaluation judges it at the time itself and trusts it.
@Suite(.serialized, .onTestThreads) final class ClientCLITests {
    let pki: TestPKI
    /// 30 days before the test CA's notAfter (the CA is valid for 3,650 days, so the rule applies).
    let at: String

    init() throws {
        pki = try TestPKI.get()
        let ca = try pki.certificate("ca")
        at = ca.notAfter.adding(seconds: -30 * 86_400).rfc3339
    }

    /// The test CA alone, anchored as a system root (`--store` holds only it), with Basic X.509.
    func check(_ extra: [String]) throws -> RunResult {
        try CLI.run(
            ["check", "--chain", pki.path("ca.pem"), "--store", pki.path("store"), "--policy", "basic", "--at", at]
                + extra)
    }

    @Test func testSafariFailsASystemAnchor30DaysBeforeItsExpiryWhereAnAppTrustsIt() throws {
        let app = try check(["--format", "json"])
        #expect(app.status == 0, "\(app.err)")
        let appDoc = try app.json()
        #expect((appDoc["verdict"] as? [String: Any])?["trusted"] as? Bool == true)
        #expect((appDoc["settings"] as? [String: Any])?["client"] as? String == "app")

        let safari = try check(["--client", "safari", "--format", "json"])
        #expect(safari.status == 1, "\(safari.err)")
        let doc = try safari.json()
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect(verdict["trusted"] as? Bool == false)
        #expect(verdict["osstatus"] as? Int == -67818)
        #expect((doc["settings"] as? [String: Any])?["client"] as? String == "safari")
        let steps = try #require(doc["steps"] as? [[String: Any]])
        let validity = try #require(steps.first { $0["id"] as? String == "validity" })
        #expect(validity["status"] as? String == "failed")
        #expect((validity["title"] as? String)?.hasPrefix("Expires early for Safari") == true, "\(validity)")
    }

    @Test func testTheTextReportNamesTheClientAndTheRuleThatMovedTheDate() throws {
        let r = try check(["--client", "safari"])
        #expect(r.status == 1)
        #expect(r.out.contains("  client   safari (Apple's own programs"), "\(r.out)")
        #expect(r.out.contains("Expires early for Safari"), "\(r.out)")
        let markdown = try check(["--client", "safari", "--format", "markdown"])
        #expect(markdown.out.contains("- Client: safari (Apple's own programs"), "\(markdown.out)")
        // The default report does not grow a row.
        let app = try check([])
        #expect(!app.out.contains("  client "), "\(app.out)")
    }

    @Test func testAnUnknownClientIsAUsageError() throws {
        let r = try check(["--client", "chrome"])
        #expect(r.status == 64)
        #expect(r.err.contains("--client"), "\(r.err)")
    }

    @Test func testEveryExportSaysItCannotBeSafari() throws {
        // curl needs a server; the others export from the chain files. An XML comment cannot hold
        // "--", so the plist names the option without its dashes.
        for format in ["swift", "plist", "openssl"] {
            let r = try CLI.run(
                [
                    "export", format, "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host",
                    "127.0.0.1",
                ]
                    + ["--client", "safari"])
            #expect(r.status == 0, "\(format): \(r.err)")
            #expect(r.out.contains("client safari:"), "\(format): \(r.out)")
            #expect(r.err.contains("cannot express") && r.err.contains("--client"), "\(format): \(r.err)")
        }
    }
}
