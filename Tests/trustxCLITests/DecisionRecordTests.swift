import Foundation
import XCTest

/// Every decision the code and the documentation cite is in docs/DECISIONS.md and still stands:
/// a citation of a decision that a later one superseded points the reader at a rule that no
/// longer holds. Superseded entries stay where they stand, marked in their heading
/// `(superseded by D` + number + `)`; only DECISIONS.md itself may cite them.
final class DecisionRecordTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where citations are looked for: everything a reader of the project opens.
    static let searched = ["Sources", "Tests", "docs", "scripts", ".ci", "README.md", "Package.swift"]

    /// One entry of docs/DECISIONS.md.
    struct Entry {
        let number: Int
        let supersededBy: Int?
    }

    /// The entries, by number, read from the `## D<n>. title` headings.
    static func entries() throws -> [Int: Entry] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/DECISIONS.md"), encoding: .utf8)
        var out: [Int: Entry] = [:]
        let heading = try NSRegularExpression(pattern: #"^## D([0-9]+)\. (.*)$"#, options: .anchorsMatchLines)
        let marker = try NSRegularExpression(pattern: #"\(superseded by D([0-9]+)\)"#)
        for match in heading.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let number = Int(text[Range(match.range(at: 1), in: text)!])!
            let title = String(text[Range(match.range(at: 2), in: text)!])
            let by = marker.firstMatch(in: title, range: NSRange(title.startIndex..., in: title)).map {
                Int(title[Range($0.range(at: 1), in: title)!])!
            }
            XCTAssertNil(out[number], "two entries are numbered \(number)")
            out[number] = Entry(number: number, supersededBy: by)
        }
        return out
    }

    /// A citation: a decision number (each number of a range `Dm-Dn` counts), where it was found.
    struct Citation {
        let number: Int
        let place: String
    }

    /// Every citation outside DECISIONS.md (this file's own examples are spelt so as not to count),
    /// read once: a byte scan, since the project's text is a few megabytes.
    static let allCitations: [Citation] = (try? scan()) ?? []

    static func citations() throws -> [Citation] { allCitations }

    static func scan() throws -> [Citation] {
        var out: [Citation] = []
        for file in try files() where !file.hasSuffix("docs/DECISIONS.md") {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let relative = file.dropFirst(root.path.count + 1)
            for (number, line) in citations(in: Array(data)) {
                out.append(Citation(number: number, place: "\(relative):\(line)"))
            }
        }
        return out
    }

    /// The citations in `text` with their line numbers: `D` and one to three digits standing
    /// alone, or a range of two such joined by a hyphen or an en dash.
    static func citations(in text: [UInt8]) -> [(number: Int, line: Int)] {
        func isWord(_ i: Int) -> Bool {
            guard i >= 0, i < text.count else { return false }
            let c = text[i]
            return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
        }
        /// The number of `D<digits>` starting at `i` and the index after it.
        func decision(at i: Int) -> (Int, Int)? {
            guard i < text.count, text[i] == UInt8(ascii: "D"), !isWord(i - 1) else { return nil }
            var j = i + 1
            var number = 0
            while j < text.count, j - i <= 3, text[j] >= 0x30, text[j] <= 0x39 {
                number = number * 10 + Int(text[j] - 0x30)
                j += 1
            }
            guard j > i + 1, !isWord(j) else { return nil }
            return (number, j)
        }
        var out: [(number: Int, line: Int)] = []
        var line = 1
        var i = 0
        while i < text.count {
            if text[i] == 0x0A { line += 1 }
            guard let (first, after) = decision(at: i) else {
                i += 1
                continue
            }
            var last = first
            var end = after
            // A range: "-" or "–" (E2 80 93), spaces allowed around it.
            var k = after
            if k < text.count, text[k] == 0x20 { k += 1 }
            var dash = false
            if k < text.count, text[k] == UInt8(ascii: "-") {
                k += 1
                dash = true
            } else if k + 2 < text.count, text[k] == 0xE2, text[k + 1] == 0x80, text[k + 2] == 0x93 {
                k += 3
                dash = true
            }
            if dash {
                if k < text.count, text[k] == 0x20 { k += 1 }
                if let (second, after2) = decision(at: k), second >= first {
                    last = second
                    end = after2
                }
            }
            for number in first...last { out.append((number, line)) }
            i = end
        }
        return out
    }

    /// The text files under the searched places.
    static func files() throws -> [String] {
        var out: [String] = []
        let manager = FileManager.default
        for name in searched {
            let path = root.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                out.append(path)
                continue
            }
            guard let walker = manager.enumerator(atPath: path) else { continue }
            for case let relative as String in walker {
                let extensions = [".swift", ".md", ".sh", ".h", ".modulemap", ".theme"]
                let isScript = name == "scripts" || name == ".ci"
                if isScript || extensions.contains(where: { relative.hasSuffix($0) }) {
                    var nested: ObjCBool = false
                    let full = path + "/" + relative
                    if manager.fileExists(atPath: full, isDirectory: &nested), !nested.boolValue { out.append(full) }
                }
            }
        }
        return out
    }

    func testDecisionsAreNumberedAndFound() throws {
        let entries = try Self.entries()
        // The record is long-standing: a parsing mistake would otherwise pass every check below.
        XCTAssertGreaterThan(entries.count, 90)
        XCTAssertNotNil(entries[1])
        XCTAssertGreaterThan(try Self.citations().count, 20)
    }

    func testEveryCitedDecisionExists() throws {
        let entries = try Self.entries()
        for citation in try Self.citations() where entries[citation.number] == nil {
            XCTFail("\(citation.place) cites D\(citation.number), which docs/DECISIONS.md does not have")
        }
    }

    func testNoCodeOrDocumentCitesASupersededDecision() throws {
        let entries = try Self.entries()
        for citation in try Self.citations() {
            guard let by = entries[citation.number]?.supersededBy else { continue }
            XCTFail("\(citation.place) cites D\(citation.number), superseded by D\(by)")
        }
    }

    func testEverySupersedingDecisionExistsAndStands() throws {
        let entries = try Self.entries()
        XCTAssertTrue(entries.values.contains { $0.supersededBy != nil }, "no superseded entry was recognised")
        for entry in entries.values {
            guard let by = entry.supersededBy else { continue }
            XCTAssertGreaterThan(by, entry.number, "D\(entry.number) is superseded by an earlier decision")
            XCTAssertNotNil(entries[by], "D\(entry.number) is superseded by D\(by), which does not exist")
            XCTAssertNil(entries[by]?.supersededBy, "D\(entry.number) points at D\(by), itself superseded")
        }
    }
}
