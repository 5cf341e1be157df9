import Foundation
import TrustLab
import XCTest

/// The Targets pane of the whole lab under a real terminal: group headings, the scenarios this
/// OpenSSL cannot serve, and `/` narrowing the list as a trainer types.
final class TargetsFilterTmuxTests: XCTestCase {
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

    func testSlashNarrowsTheGroupedScenariosAndEscShowsThemAllAgain() throws {
        try XCTSkipIf(TmuxSession.tmux == nil, "tmux is not installed")
        let tmux = TmuxSession()
        try tmux.startTrustx([], in: try TmuxSession.directory("targets-filter"))
        var text = try tmux.screen(containing: "Trusted · errSecSuccess")
        XCTAssertTrue(text.contains("The lab's lessons"), text)

        try tmux.send("/")
        try tmux.type("dh")
        text = try tmux.screen(containing: "Find: dh")
        // Every scenario whose name holds "dh", in catalogue order, under its group: nothing else.
        let dh = LabScenario.all.filter { $0.unavailable == nil && $0.name.contains("dh") }.map(\.name)
        XCTAssertEqual(dh.count, 6)
        XCTAssertEqual(Self.targetRows(text), dh, text)
        XCTAssertTrue(text.contains("badssl.com: key exchange"), text)
        XCTAssertFalse(text.contains("The lab's lessons"), text)

        try tmux.send("Enter")
        text = try tmux.screen(containing: "6 of ")
        XCTAssertTrue(text.contains("Scenarios /dh"), text)
        try tmux.send("j")
        text = try tmux.screen(containing: "Scenario \(dh[1])")
        XCTAssertEqual(Self.targetRows(text), dh, text)

        try tmux.send("Escape")
        text = try tmux.screen(containing: "filter cleared")
        XCTAssertFalse(text.contains("Scenarios /dh"), text)
        XCTAssertGreaterThan(Self.targetRows(text).count, dh.count, text)

        // What this OpenSSL cannot serve is listed under its group, marked as such.
        try tmux.send("/")
        try tmux.type("cipher")
        text = try tmux.screen(containing: "Find: cipher")
        XCTAssertTrue(text.contains("badssl.com: cipher suites"), text)
        XCTAssertTrue(text.contains("rc4 (unavailable"), text)
        try tmux.send("Escape")
        text = try tmux.screen { !$0.contains("Find: cipher") }
        try tmux.send("q")
        XCTAssertTrue(try tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
