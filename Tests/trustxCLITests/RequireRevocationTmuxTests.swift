import Foundation
import SuiteFixtures
import Testing

/// `V` under a real terminal: a chain trusted without revocation information (Apple fails open)
/// fails once a positive answer is required (RevocationResponseRequired, -67635), and is trusted
/// again when `V` is pressed a second time.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class RequireRevocationTmuxTests {
    @Test func testVRequiresAPositiveRevocationAnswerAndTogglesBack() async throws {
        let pki = try TestPKI.get()
        let dir = try TmuxSession.directory("require-revocation")
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["explore", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1"],
            in: dir)
        _ = try await tmux.screen(containing: "✓ Trusted")

        try tmux.send("V")
        let text = try await tmux.screen(containing: "-67635")
        #expect(text.contains("✗ Not trusted"), "\(text)")

        try tmux.send("V")
        // The change line names what the toggle undid.
        _ = try await tmux.screen { $0.contains("✓ Trusted") && $0.contains("revocation required -> off") }
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
