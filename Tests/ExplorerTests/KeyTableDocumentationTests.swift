import ExplorerState
import Foundation
import XCTest

/// docs/explorer.md's key table against the keymap, both ways: every key the explorer binds is
/// in the table, and every key the table names is bound, so neither can drift from the other.
final class KeyTableDocumentationTests: XCTestCase {
    /// The rows of the key table (`| key | what it does |`): the first column and the whole row.
    func tableRows() throws -> [(keys: String, row: String)] {
        // Tests/ExplorerTests/KeyTableDocumentationTests.swift -> the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/explorer.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try XCTUnwrap(lines.firstIndex(of: "| key | what it does |"), "docs/explorer.md has no key table")
        var rows: [(String, String)] = []
        // The table ends at its first line that is not a row; it has well under 100 rows.
        for line in lines[(header + 2)...].prefix(100) {
            guard line.hasPrefix("| ") else { break }
            let cells = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: true)
            rows.append((String(cells.first ?? ""), String(line)))
        }
        XCTAssertGreaterThan(rows.count, 20, "the key table is cut short")
        return rows
    }

    /// The single characters written in backticks in `text` (`` `a` ``, `` `[` ``).
    func backtickedCharacters(_ text: String) -> [Character] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { i, piece in
            // Keys are ASCII; a symbol the text shows (`◆`) is not one.
            i % 2 == 1 && piece.count == 1 && piece.first!.isASCII ? piece.first : nil
        }
    }

    /// How the table names a key that is not a printable character, as words it may hold.
    static let names: [KeyStroke: [String]] = [
        .tab: ["Tab"], .backTab: ["Shift-Tab"], .enter: ["Enter"], .escape: ["Esc"], .pageUp: ["PgUp"],
        .pageDown: ["PgDn"], .home: ["Home"], .end: ["End"], .up: ["arrows"], .down: ["arrows"],
        .left: ["arrows"], .right: ["arrows"], .char(" "): ["Space"],
    ]

    /// Every key the explorer binds outside prompts: the keymap's and a walk-through's.
    var boundKeys: Set<KeyStroke> {
        Set((Keymap.standard.bindings + Keymap.standard.walkBindings).flatMap(\.keys))
    }

    func testEveryBoundKeyIsInTheTable() throws {
        let table = try tableRows().map(\.row).joined(separator: "\n")
        let words = Set(table.split(whereSeparator: { " ,;:()/.".contains($0) }).map(String.init))
        for key in boundKeys {
            if case .char(let c) = key, c != " " {
                XCTAssertTrue(table.contains("`\(c)`"), "`\(c)` is bound but not in docs/explorer.md's key table")
            } else {
                let spellings = try XCTUnwrap(Self.names[key], "no spelling for \(key)")
                XCTAssertTrue(
                    spellings.contains(where: words.contains),
                    "\(key) is bound but docs/explorer.md's key table names it nowhere (\(spellings))")
            }
        }
    }

    func testEveryKeyInTheTableIsBound() throws {
        let bound = boundKeys
        var named = 0
        for (keys, row) in try tableRows() {
            // The first column names the row's keys; the text may name a companion key (`N`, `[`).
            for c in backtickedCharacters(row) {
                XCTAssertTrue(bound.contains(.char(c)), "docs/explorer.md names `\(c)`, which no binding has: \(keys)")
                named += 1
            }
            let words = keys.split(whereSeparator: { " ,;/".contains($0) }).map(String.init)
            for (key, spellings) in Self.names where spellings.contains(where: words.contains) {
                XCTAssertTrue(bound.contains(key), "docs/explorer.md names \(spellings), which no binding has: \(keys)")
                named += 1
            }
        }
        XCTAssertGreaterThan(named, 40, "the table's keys were not read")
    }
}
