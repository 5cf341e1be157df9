import Foundation
import Testing
import TrustLab

/// The Targets pane of the whole lab under a real terminal: group headings, the scenarios this
/// OpenSSL cannot serve, and `/` narrowing the list as a trainer types.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class TargetsFilterTmuxTests {
    /// The scenario rows of the Targets pane (its left column), without marks.
    static func targetRows(_ screen: String) -> [String] {
        screen.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("│"), let end = line.dropFirst().firstIndex(of: "│") else { return nil }
            let cell = line[line.index(after: line.startIndex)..<end].trimmingCharacters(in: .whitespaces)
            for mark in ["▶ ✓ ", "▶ ✗ ", "▶ • ", "✓ ", "✗ ", "• "] where cell.hasPrefix(mark) {
                return String(cell.dropFirst(mark.count))
            }
            return nil
        }
    }

    @Test func testSlashNarrowsTheGroupedScenariosAndEscShowsThemAllAgain() async throws {
        let tmux = TmuxSession()
        try tmux.startTrustx([], in: try TmuxSession.directory("targets-filter"))
        var text = try await tmux.screen(containing: "Trusted · errSecSuccess")
        #expect(text.contains("The lab's lessons"), "\(text)")

        try tmux.send("/")
        try tmux.type("dh")
        text = try await tmux.screen(containing: "Find: dh")
        // Every scenario whose name holds "dh", in catalogue order, under its group: nothing else.
        let dh = LabScenario.all.filter { $0.unavailable == nil && $0.name.contains("dh") }.map(\.name)
        #expect(dh.count == 6)
        #expect(Self.targetRows(text) == dh, "\(text)")
        #expect(text.contains("badssl.com: key exchange"), "\(text)")
        #expect(!text.contains("The lab's lessons"), "\(text)")

        try tmux.send("Enter")
        text = try await tmux.screen(containing: "6 of ")
        #expect(text.contains("Scenarios /dh"), "\(text)")
        try tmux.send("j")
        text = try await tmux.screen(containing: "Scenario \(dh[1])")
        #expect(Self.targetRows(text) == dh, "\(text)")

        try tmux.send("Escape")
        text = try await tmux.screen(containing: "filter cleared")
        #expect(!text.contains("Scenarios /dh"), "\(text)")
        #expect(Self.targetRows(text).count > dh.count, "\(text)")

        // The cases OpenSSL 3 cannot be are served too (by raw responders): none is unavailable.
        try tmux.send("/")
        try tmux.type("cipher")
        text = try await tmux.screen(containing: "Find: cipher")
        #expect(text.contains("badssl.com: cipher suites"), "\(text)")
        #expect(text.contains("rc4") && !text.contains("(unavailable"), "\(text)")
        try tmux.send("Escape")
        text = try await tmux.screen { !$0.contains("Find: cipher") }
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
