import Foundation
import SuiteFixtures
import Testing

/// What a trainer on a projector and a newcomer in their first minutes meet in the explorer,
/// under a real terminal (tmux). One test per defect found that way, named after it; each fails
/// on the behaviour before the fix. The defects of the reducer and the views are replayed without
/// a terminal in ExplorerTests' TrainerSessionTests; the ones here need the terminal or the
/// built binary.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class TrainerTmuxTests {
    let tmux = TmuxSession()
    let work: URL

    init() throws {
        work = try TmuxSession.directory("trainer")
    }

    deinit { try? FileManager.default.removeItem(at: work) }

    /// The lab under `trustx explore ARGS`, at `width` x `height`, once wrong-host's neighbour
    /// good has its verdict.
    func startLab(_ args: [String] = ["explore"], width: Int = 160, height: Int = 48, env: [String: String] = [:])
        async throws -> String
    {
        try tmux.startTrustx(args, in: work, width: width, height: height, environment: env)
        return try await tmux.screen { $0.contains("errSecSuccess") || $0.contains("EXIT=") }
    }

    /// The verdict row (the first of the four bottom rows).
    func verdictRow(_ screen: String, height: Int) -> String { TmuxSession.row(height - 4, of: screen) }

    // MARK: 1

    /// `trustx explore` with no target is the lab, and each scenario is checked with its own
    /// host: wrong-host fails SSLHostname as it does under plain `trustx`.
    @Test func testLabUnderExploreKeepsTheHostnamePitfall() async throws {
        var text = try await startLab()
        #expect(text.contains("✓ good"), "\(text)")
        try tmux.send("j")
        text = try await tmux.screen {
            $0.contains("errSecHostNameMismatch (-67602)") || $0.contains("✓ Trusted · errSecSuccess (0) · localhost")
        }
        #expect(text.contains("✗ Not trusted · hostname@0 SSLHostname"), "\(text)")
        #expect(text.contains("p SSL(localhost)"), "\(text)")
        // The trainer's step 4: Basic X.509 hides it.
        try tmux.send("p", "p")
        text = try await tmux.screen(containing: "policy -> Basic X.509")
        #expect(text.contains("✓ Trusted"), "\(text)")
    }

    // MARK: 4

    /// At 80x24 a failed connection's reason reads in full in the Detail pane, wrapped: every word
    /// of the message check gives for the same server is on screen, and the Detail pane is shown.
    @Test func testConnectionFailureReasonReadsInFullAtEightyByTwentyFour() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let port = refusing.port
        let url = "https://127.0.0.1:\(port)/"
        let check = try CLI.spawn(["check", url, "--format", "json"], in: work)
        let report = try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any]
        let failure = try #require(
            (report?["connection"] as? [String: Any])?["error"] as? [String: Any], "\(check.out + check.err)")
        let message = try #require(failure["message"] as? String)
        #expect(message.count > 20)
        try tmux.startTrustx(["explore", url], in: work, width: 80, height: 24)
        let text = try await tmux.screen { $0.contains("No connection") && $0.contains("Failure") }
        #expect(text.contains("4 Target 127.0.0.1"), "the Detail pane is shown:\n\(text)")
        // The pane's text without borders, as one run of words.
        let words = text.split(separator: "\n").flatMap { row in
            row.split(separator: "│").dropFirst().joined(separator: " ").split(separator: " ")
        }.joined(separator: " ")
        #expect(words.contains(message.split(separator: " ").joined(separator: " ")), "\(message)\n\(text)")
        #expect(verdictRow(text, height: 24).contains("URLError -1004"), "\(text)")
    }

    // MARK: 7

    /// The command `y` copies names trustx by a path that runs without trustx on PATH, and the
    /// anchors made in the session by absolute paths in the anchor directory: it runs as-is from
    /// another directory and gives the verdict the screen shows.
    @Test func testCopiedCommandRunsAsIsFromAnyDirectory() async throws {
        let state = work.appendingPathComponent("state")
        var text = try await startLab(
            ["explore", "--group", "lessons"], env: ["XDG_STATE_HOME": state.path, "PATH": "/usr/bin:/bin"])
        // rogue-ca, with its CA made an anchor from the lab's files.
        try tmux.send("j", "j", "j")
        text = try await tmux.screen(containing: "errSecCreateChainFailed (-25318)")
        try tmux.send("F")
        text = try await tmux.screen(containing: "Anchors from file:")
        try tmux.type("rogue-ca.pem")
        try tmux.send("Enter")
        text = try await tmux.screen(containing: "✓ Trusted")
        // And the leaf made an anchor in the session: a certificate that exists only here.
        try tmux.send("2", "a")
        text = try await tmux.screen(containing: "anchor + 127.0.0.1")
        try tmux.send("y")
        text = try await tmux.screen(containing: "Reproduce with trustx check")
        #expect(text.contains("✓ Trusted"), "\(text)")
        let copied = try tmux.clipboard()
        #expect(copied.hasPrefix(CLI.binary.resolvingSymlinksInPath().path + " check "), "\(copied)")
        let anchors = copied.components(separatedBy: " --anchor ").dropFirst().map {
            String($0.split(separator: " ").first ?? "")
        }
        #expect(anchors.count == 3, "\(copied)")
        for path in anchors { #expect(path.hasPrefix("/"), "absolute: \(path)") }
        let made = try #require(anchors.first { $0.contains("trustx-anchor-") })
        #expect(made.hasPrefix(state.path + "/trustx/anchors/"), "\(made)")
        #expect(FileManager.default.fileExists(atPath: made), "\(made)")
        // Run from another directory with a PATH that has no trustx, while the lab still runs.
        let elsewhere = try TmuxSession.directory("elsewhere")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let run = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", copied], in: elsewhere,
            environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.out + run.err)")
        try tmux.send("Escape", "q")
    }

    // MARK: 9

    /// After a resize, quitting gives the shell its screen back: no frame is left on it.
    @Test func testQuitAfterResizeLeavesNoFrameOnTheShellScreen() async throws {
        try tmux.start("/bin/sh", in: work, width: 80, height: 24)
        try tmux.type(
            "clear; echo BEFORE-THE-EXPLORER; " + TmuxSession.quote(CLI.binary.path) + " explore; echo EXIT=$?")
        try tmux.send("Enter")
        _ = try await tmux.screen(containing: "errSecSuccess")
        // Larger than at the start, then smaller again: the shell's saved screen is resized under
        // the explorer's frame.
        try tmux.run("resize-window", "-t", tmux.session, "-x", "160", "-y", "48")
        _ = try await tmux.screen { $0.contains("errSecSuccess") && $0.split(separator: "\n").count > 30 }
        try tmux.run("resize-window", "-t", tmux.session, "-x", "100", "-y", "30")
        _ = try await tmux.screen { $0.contains("errSecSuccess") && $0.split(separator: "\n").count <= 30 }
        try tmux.send("q")
        let text = try await tmux.screen(containing: "EXIT=")
        #expect(text.contains("BEFORE-THE-EXPLORER"), "\(text)")
        for fragment in ["┌", "│", "└", "Scenarios", "errSec", "Trusted", "Lifetime"] {
            #expect(!text.contains(fragment), "\(fragment) left on the shell's screen:\n\(text)")
        }
    }

}
