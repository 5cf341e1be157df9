import Foundation
import SuiteFixtures
import Testing

/// The time prompt's timeline strip under a real terminal: `t` shows where the verdict changes,
/// Tab puts the next change's instant in the prompt (one second after the intermediate's notAfter
/// as `openssl x509 -dates` prints it: RFC 5280 4.1.2.5 counts notAfter as valid), its preview
/// and Enter give the expired verdict (-67818), and Esc leaves the time as it was.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class TimelineTmuxTests {
    @Test func testTTabEnterJumpsToWhenTheChainBreaksNext() async throws {
        let cli = try TimelineCLITests()
        let pki = cli.pki
        let (leaf, int) = (try cli.dates("leaf"), try cli.dates("int"))
        let breaks = int.notAfter.adding(seconds: 1).rfc3339
        let dir = try TmuxSession.directory("timeline")
        let tmux = TmuxSession()
        try tmux.startTrustx(
            [
                "explore", "--chain", pki.path("chain.pem"), "--anchor", pki.path("root.pem"), "--host", "127.0.0.1",
                "--at", TimelineCLITests.at,
            ], in: dir)
        _ = try await tmux.screen(containing: "✓ Trusted")

        try tmux.send("t")
        let strip = try await tmux.screen(containing: "Tab: next change")
        let line = try #require(strip.split(separator: "\n").first { $0.hasPrefix("Timeline: ") })
        #expect(
            line.hasPrefix(
                "Timeline: \(leaf.notBefore.rfc3339.prefix(10)) ✓  ─ now ─  \(int.notAfter.rfc3339.prefix(10)) ✗ -67818"
            ),
            "\(line)")

        try tmux.send("Tab")
        // The preview is evaluated in the background: wait for it.
        let preview = try await tmux.screen {
            $0.contains("Evaluate at: \(breaks)") && $0.contains("Enter gives: ")
        }
        #expect(preview.contains("Enter gives: not trusted, errSecCertificateExpired (-67818)"), "\(preview)")

        try tmux.send("Enter")
        let after = try await tmux.screen { $0.contains("✗ Not trusted") && !$0.contains("Timeline: ") }
        #expect(after.contains("-67818"), "\(after)")

        // The strip is the prompt's: Esc closes both and keeps the time Enter set.
        try tmux.send("t")
        _ = try await tmux.screen(containing: "Tab: next change")
        try tmux.send("Escape")
        _ = try await tmux.screen { !$0.contains("Timeline: ") && $0.contains("✗ Not trusted") }
        try tmux.send("q")
        _ = try await tmux.screen(containing: "EXIT=")
    }
}
