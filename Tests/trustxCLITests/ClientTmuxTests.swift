import Foundation
import SuiteFixtures
import Testing
import TrustSupport

/// `b` under a real terminal: the test CA anchored as the only system root, 30 days before its
/// notAfter, is trusted for an app and fails for Safari with errSecCertificateExpired (-67818), as
/// trustd's `_ShouldApplyEarlyExpirationCheck` (Security-61901, trust/trustd/SecPolicyServer.c)
/// judges the root 60 days later for Apple's own programs; `b` again gives it back to the app.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class ClientTmuxTests {
    @Test func testSSwitchesToSafariWhoseRootExpiresEarlyAndBack() async throws {
        let pki = try TestPKI.get()
        let at = try pki.certificate("ca").notAfter.adding(seconds: -30 * 86_400).rfc3339
        let dir = try TmuxSession.directory("client")
        let tmux = TmuxSession()
        try tmux.startTrustx(
            [
                "explore", "--chain", pki.path("ca.pem"), "--store", pki.path("store"), "--policy", "basic", "--at",
                at,
            ],
            in: dir)
        _ = try await tmux.screen(containing: "✓ Trusted")

        try tmux.send("b")
        let text = try await tmux.screen(containing: "-67818")
        #expect(text.contains("✗ -67818 errSecCertificateExpired"), "\(text)")
        #expect(text.contains("Expires early for Safari"), "\(text)")
        // The settings line shows the client once it is not the default app.
        #expect(text.contains("b safari"), "\(text)")
        #expect(text.contains("client -> safari"), "\(text)")
        // The copied command carries the client, and check gives the same verdict with it.
        try tmux.send("y")
        _ = try await tmux.screen(containing: "Reproduce with trustx check")
        let copied = try tmux.clipboard()
        #expect(copied.contains("--client safari"), "\(copied)")
        try tmux.send("Escape")

        try tmux.send("b")
        _ = try await tmux.screen { $0.contains("✓ Trusted") && $0.contains("client -> app") }
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }

    /// The lab lesson works-in-app-fails-in-safari in the explorer a trainee opens with
    /// `trustx --group client`: trusted by default, -67818 with the app's delegate cancelling
    /// (-999) once `b` makes the evaluator Safari, and the change named on the root's validity.
    @Test func testTheLabLessonFailsOnlyForSafari() async throws {
        let dir = try TmuxSession.directory("client-lab")
        let tmux = TmuxSession()
        try tmux.startTrustx(["--group", "client"], in: dir)
        let opened = try await tmux.screen { $0.contains("works-in-app-fails-in-safari") && $0.contains("✓ Trusted") }
        #expect(opened.contains("Lab Expiring Root"), "\(opened)")

        try tmux.send("b")
        let safari = try await tmux.screen(containing: "-67818")
        #expect(safari.contains("URLError -999"), "\(safari)")
        #expect(safari.contains("Expires early for Safari"), "\(safari)")
        #expect(safari.contains("validity@1: passed -> failed"), "\(safari)")

        try tmux.send("b")
        _ = try await tmux.screen { $0.contains("✓ Trusted") && $0.contains("client -> app") }
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
