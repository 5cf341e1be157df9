import Foundation
import Testing

/// The lab explorer (plain `trustx`) under a real terminal, on the staging-fleet lessons: the
/// pool scenario is three targets, one per node's address, each gives its own verdict when
/// selected, and two of them compare side by side; the rotating server, watched, flips.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class FleetTmuxTests {
    /// The Targets pane's cells (its left column) that name one of the pool's nodes, marks kept.
    static func poolRows(_ screen: String) -> [String] {
        screen.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("│"), let end = line.dropFirst().firstIndex(of: "│") else { return nil }
            let cell = line[line.index(after: line.startIndex)..<end].trimmingCharacters(in: .whitespaces)
            return cell.contains("pool @ ") ? cell : nil
        }
    }

    @Test func testThePoolIsThreeTargetsOnePerNodeEachWithItsOwnVerdictAndTwoNodesCompare() async throws {
        let tmux = TmuxSession()
        try tmux.startTrustx([], in: try TmuxSession.directory("fleet"))
        _ = try await tmux.screen(containing: "Trusted · errSecSuccess")
        try tmux.send("/")
        try tmux.type("pool")
        try tmux.send("Enter")
        var text = try await tmux.screen { $0.contains("3 of ") && $0.contains("Scenario pool @ 127.0.0.1") }
        #expect(text.contains("Staging fleet"), "\(text)")
        #expect(
            Self.poolRows(text).map { $0.components(separatedBy: "pool @ ").last ?? "" }
                == ["127.0.0.1", "127.0.0.2", "127.0.0.3"], "\(text)")

        // Each node's verdict, and the Detail pane saying which node it is and what it expects.
        text = try await tmux.screen {
            $0.contains("Node 1 of 3 (healthy)") && $0.contains("✓ Trusted · errSecSuccess")
        }
        try tmux.send("j")
        text = try await tmux.screen {
            $0.contains("Node 2 of 3 (expired leaf)") && $0.contains("errSecCertificateExpired (-67818)")
        }
        try tmux.send("j")
        text = try await tmux.screen {
            $0.contains("Node 3 of 3 (missing intermediate)") && $0.contains("errSecCreateChainFailed (-25318)")
        }
        // The list keeps each node's verdict: one trusted, two not.
        #expect(
            Self.poolRows(text) == ["✓ pool @ 127.0.0.1", "✗ pool @ 127.0.0.2", "▶ ✗ pool @ 127.0.0.3"], "\(text)")

        // Node 1 marked and compared with node 2: node 2 is the node a renewal missed, its leaf
        // over node 1's key (docs/lab.md), so the leaves are the same key in another certificate.
        try tmux.send("k")
        try tmux.send("k")
        _ = try await tmux.screen(containing: "Node 1 of 3 (healthy)")
        try tmux.send("m")
        _ = try await tmux.screen(containing: "pool @ 127.0.0.1 marked")
        try tmux.send("j")
        _ = try await tmux.screen(containing: "Node 2 of 3 (expired leaf)")
        try tmux.send("M")
        text = try await tmux.screen { $0.contains("pool @ 127.0.0.2 (selected)") && $0.contains("Path as built") }
        #expect(text.contains("pool @ 127.0.0.1 (marked)"), "\(text)")
        #expect(text.contains("[0] same key, new certificate"), "\(text)")
        #expect(text.contains("-67818"), "\(text)")
        try tmux.send("Escape")
        _ = try await tmux.screen { !$0.contains("(selected)") }
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
    /// The rotating server under `l`, its leaf pinned: each switch of the leaf (every 2 s here) is
    /// a new leaf with a new key, and as the pin names one leaf's key, the verdict flips with it.
    /// The lab is the fleet's group alone (`--group fleet`): the pool's nodes and the rotating
    /// server, none of the other lessons.
    @Test func testWatchingTheRotatingServerWithItsLeafPinnedSeesTheLeafAndTheVerdictFlip() async throws {
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["--group", "fleet", "--rotate-seconds", "2", "--watch", "1"], in: try TmuxSession.directory("rotating"))
        let first = try await tmux.screen(containing: "Trusted · errSecSuccess")
        #expect(first.contains("pool @ 127.0.0.1") && first.contains("rotating"), "\(first)")
        #expect(!first.contains("wrong-host") && !first.contains("tls12-only"), "only the fleet's scenarios:\n\(first)")
        try tmux.send("/")
        try tmux.type("rotating")
        try tmux.send("Enter")
        _ = try await tmux.screen(containing: "Scenario rotating")
        // Pin the leaf the screen shows (the Chain pane's first row), then watch from the Targets pane.
        try tmux.send("2")
        try tmux.send("P")
        _ = try await tmux.screen(containing: "P 1 pin")
        try tmux.send("1")
        try tmux.send("l")
        let text = try await tmux.screen { screen in
            let targets = screen.split(separator: "\n").first { $0.contains("↻") } ?? ""
            let detail = WatchTmuxTests.detail(screen)
            return targets.contains("●") && detail.contains("new leaf (new key)")
                && (detail.contains("verdict trusted -> not trusted") || detail.contains("verdict not trusted"))
        }
        #expect(WatchTmuxTests.detail(text).contains(" -> "), "\(text)")
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
