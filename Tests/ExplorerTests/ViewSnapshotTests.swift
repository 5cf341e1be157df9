import Explorer
import ExplorerState
import TermUI
import TrustCore
import XCTest

/// Whole-screen snapshots rendered through TestBackend, with volatile text (ports, times,
/// serials, fingerprints, temporary paths) filtered out.
final class ViewSnapshotTests: XCTestCase {
    /// Replaces what changes from run to run with fixed words.
    static func stable(_ lines: [String]) -> [String] {
        let rules: [(String, String)] = [
            (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, "TIME"),
            (#"(127\.0\.0\.1|localhost)(:| port )\d+"#, "$1$2PORT"),
            (#"/tmp/[^ │]+"#, "TMP"),
            (#"([0-9a-f]{2}:){4,}[0-9a-f:]*"#, "HEX"),
            (#"\d+\.\d ms"#, "N ms"),
            (#"\d+ days"#, "N days"),
        ]
        return lines.map { line in
            rules.reduce(line) { text, rule in
                text.replacingOccurrences(of: rule.0, with: rule.1, options: .regularExpression)
            }
        }
    }

    func render(_ s: Session, width: Int = 120, height: Int = 40, options: ViewOptions = ViewOptions()) -> [String] {
        let terminal = Terminal(backend: TestBackend(width: width, height: height))
        terminal.draw { ExplorerView.render(s.state, into: &$0, area: $0.area, options: options) }
        return Self.stable(terminal.backend.lines())
    }

    func assertScreen(
        _ actual: [String], _ expected: [String], file: StaticString = #filePath, line: UInt = #line
    ) {
        let trimmed = expected.map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
        if actual != trimmed {
            XCTFail("screen differs:\n" + actual.joined(separator: "\n"), file: file, line: line)
        }
    }

    func testWrongHostShowsTheFailedHostnameStepItsRuleAndTheVerdict() {
        let s = Session(scenarios: ["good", "wrong-host"])
        s.select("wrong-host")
        s.press(.tab, .tab)
        while s.state.selectedStepValue?.id != .hostname { s.press(.char("j")) }
        // Two panes at 120x40: Enter swaps the step's detail in beside the chain.
        s.press(.enter)
        assertScreen(
            render(s),
            [
                "┌1 Scenarios 2/2───────────────────────────────┐┌4 Step hostname@0─────────────────────────────────────────────────────┐",
                "│  ✓ good                                      ││✗ failed localhost matches no subjectAltName                          │",
                "│▶ ✗ wrong-host                                ││Certificate   [0] 127.0.0.1                                           │",
                "└──────────────────────────────────────────────┘│Apple check   SSLHostname (subtype Name)                              │",
                "┌2 Chain (2 in path, 1 sent) 1/3───────────────┐│OSStatus      -67602 errSecHostNameMismatch                           │",
                "│  Path as built                               ││Decisive      this failure decides the OSStatus (Apple's priority     │",
                "│▶ [0] 127.0.0.1  server #0                    ││              rule)                                                   │",
                "│  [1] Library Test CA anchor  trusted custom a││Rule                                                                  │",
                "│  Chain as sent                               ││the certificate has no SAN dNSName entries, and the Common Name is    │",
                "│  #0 127.0.0.1  path [0]                      ││never used (Apple HT210176) (Apple SSLHostname,                       │",
                "│                                              ││errSecHostNameMismatch).                                              │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "│                                              ││                                                                      │",
                "└──────────────────────────────────────────────┘└──────────────────────────────────────────────────────────────────────┘",
                // At 120 columns the check goes before the reason does (docs/explorer.md).
                "✗ -67602 errSecHostNameMismatch · URLError -999 NSURLErrorCancelled · localhost matches no subjectAltName",
                "p SSL(localhost)  a 1 anchor (app) only  P no pins  i ATS off  t now  o apple  v TLS ≥ 1.2  f AIA on",
                "Δ change a setting to see what changes; ? lists the keys",
                "q quit  ? help  a anchor  A +system  P pin  w walk  p policy  h host  t time  i ATS  u undo  y copy cmd",
            ])
    }

    func testATinyWindowSaysItIsTooSmall() {
        let s = Session(scenarios: ["good"])
        assertScreen(
            render(s, width: 20, height: 6),
            [
                "",
                "  Window too small",
                " 20x6; needs 60x16",
                "      q quits",
                "",
                "",
            ])
    }

    /// The look of the screen as well as its text: a theme giving each role its own colour shows
    /// which role painted each cell (`styleLines`), and the selection its own background.
    func testWrongHostPaintsEachPartWithItsRole() throws {
        let s = Session(scenarios: ["good", "wrong-host"])
        s.select("wrong-host")
        s.press(.tab, .tab)
        while s.state.selectedStepValue?.id != .hostname { s.press(.char("j")) }
        let roles = ThemeRole.allCases
        var probe = Theme(styles: [:])
        for (i, role) in roles.enumerated() { probe.styles[role] = Style(foreground: .indexed(UInt8(16 + i))) }
        probe.styles[.selection] = Style(background: .indexed(250))
        // The screen role lies under every cell: plain, so each cell shows the role that painted it.
        probe.styles[.screen] = .plain
        let letters: [ThemeRole: Character] = [
            .verdictTrusted: "T", .verdictUntrusted: "N", .stepPassed: "P", .stepFailed: "F", .stepSkipped: "K",
            .stepNotApplicable: "A", .changed: "C", .border: "B", .title: "H", .label: "L", .key: "Y",
        ]
        var legend: [Style: Character] = [probe[.selection]: "s"]
        for (role, letter) in letters {
            legend[probe[role]] = letter
            // Lower case: the same role on the selected row.
            legend[probe[role].patched(with: probe[.selection])] = Character(letter.lowercased())
        }
        let terminal = Terminal(backend: TestBackend(width: 120, height: 40))
        terminal.draw {
            ExplorerView.render(s.state, into: &$0, area: $0.area, options: ViewOptions(theme: probe))
        }
        let text = terminal.backend.lines().map { Array($0) }
        let looks = terminal.backend.buffer.styleLines(legend).map { Array($0) }
        /// The style letters under the first occurrence of `words` on the screen.
        func look(_ words: String, file: StaticString = #filePath, line: UInt = #line) -> String {
            let target = Array(words)
            for (row, chars) in text.enumerated() where chars.count >= target.count {
                for start in 0...(chars.count - target.count)
                where Array(chars[start..<(start + target.count)]) == target {
                    let styles = looks[row] + Array(repeating: ".", count: max(0, chars.count - looks[row].count))
                    return String(styles[start..<(start + target.count)])
                }
            }
            XCTFail("'\(words)' is not on the screen", file: file, line: line)
            return ""
        }
        // The selected failed step: its cross and id in the failed role, on the selection.
        XCTAssertEqual(look("✗ hostname"), "fsffffffff")
        // A passed step: the check mark in the passed role, the id in plain text.
        XCTAssertEqual(look("✓ signature"), "P..........")
        // A step that does not apply: the dash and its title in the not-applicable role.
        XCTAssertEqual(look("– pin"), "A....")
        // The verdict: the cross and Apple's code in the untrusted role.
        XCTAssertEqual(look("✗ -67602"), "NNNNNNNN")
        // The scenario list: the failing scenario's mark in the failed role.
        XCTAssertEqual(look("✗ wrong-host"), "F...........")
    }
}
