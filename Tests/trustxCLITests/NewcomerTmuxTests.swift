import Foundation
import Testing

/// Plain `trustx` with the lab's options, on a real terminal (tmux). Skipped without tmux.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class NewcomerTmuxTests {
    /// A private tmux server, so nothing else on the machine is touched.
    let socket = "trustx-newcomer-\(UUID().uuidString.prefix(8))"

    /// Runs tmux through `TmuxSession.run` (Foundation's Process would wait for the tmux server it
    /// starts).
    func tmux(_ args: String...) -> String {
        TmuxSession.run(socket: socket, args)
    }

    /// The screen once `condition` holds; after a 30-second guard the test fails (a wait that
    /// silently runs out would hide the defect).
    func screen(sourceLocation: SourceLocation = #_sourceLocation, until condition: (String) -> Bool) async throws
        -> String
    {
        var text = ""
        let guardTime = Date().addingTimeInterval(30)
        while Date() < guardTime {
            text = tmux("capture-pane", "-p", "-t", "lab")
            if condition(text) { return text }
            try await Task.sleep(nanoseconds: UInt64(TmuxSession.pollInterval) * 1000)
        }
        Issue.record("the screen never showed what the test waits for:\n\(text)", sourceLocation: sourceLocation)
        return text
    }

    @Test func testPlainTrustxWithTheHighContrastThemeOpensTheLab() async throws {
        defer { _ = tmux("kill-server") }
        let command = "'\(CLI.binary.path)' --theme high-contrast; echo EXIT=$?; sleep 30"
        _ = tmux(
            "new-session", "-d", "-s", "lab", "-x", "120", "-y", "40", "-e", "TERM=tmux-256color", "-e",
            "LANG=C.UTF-8", command)
        // The lab's scenarios (docs/lab.md) fill the Targets pane.
        let text = try await screen { $0.contains("wrong-host") || $0.contains("EXIT=") }
        #expect(text.contains("wrong-host"), "\(text)")
        #expect(!text.contains("Unknown option"), "\(text)")
        _ = tmux("send-keys", "-t", "lab", "q")
        let after = try await screen { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"), "\(after)")
    }
}
