import Foundation
import Testing

/// `!` in the built explorer under a real terminal: the verdict on screen explained, then a code
/// typed by hand, each closed by `q` without ending the lab. Names from Apple's headers:
/// SecBase.h errSecHostNameMismatch = -67602, SecureTransport.h errSSLNoRootCert = -9813.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class ExplainTmuxTests {
    let tmux = TmuxSession()
    let work: URL

    init() throws {
        work = try TmuxSession.directory("explain")
    }

    deinit { try? FileManager.default.removeItem(at: work) }

    @Test func testTheVerdictAndATypedCodeAreExplainedOverThePanes() async throws {
        try tmux.startTrustx(["explore", "--group", "lessons"], in: work, width: 160, height: 48)
        _ = try await tmux.screen { $0.contains("errSecSuccess") || $0.contains("EXIT=") }
        try tmux.send("j")
        _ = try await tmux.screen(containing: "errSecHostNameMismatch (-67602)")
        try tmux.send("!")
        _ = try await tmux.screen(containing: "Explain:")
        try tmux.send("Enter")
        var text = try await tmux.screen(containing: "Explain this verdict")
        #expect(text.contains("-67602 errSecHostNameMismatch (OSStatus, Security)"), "\(text)")
        #expect(text.contains("In the lab: wrong-host"), "\(text)")
        try tmux.send("q")
        text = try await tmux.screen { !$0.contains("Explain this verdict") }
        #expect(!text.contains("EXIT="), "q closed the popup, not the lab:\n\(text)")
        try tmux.send("!")
        _ = try await tmux.screen(containing: "Explain:")
        try tmux.send("--", "-9813", "Enter")
        text = try await tmux.screen(containing: "errSSLNoRootCert")
        #expect(text.contains("-9813 errSSLNoRootCert (SecureTransport)"), "\(text)")
    }
}
