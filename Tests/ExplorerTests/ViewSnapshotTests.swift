import Explorer
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
        assertScreen(
            render(s),
            [
                "┌Scenarios─────────────┐┌Chain (2 in path, 1 presented)─────────────┐┌Steps (25, 1 failed)─────────────────────────────┐",
                "│  ✓ good              ││▶ [0] 127.0.0.1  server #0                 ││  Path                                           │",
                "│▶ ✗ wrong-host        ││  [1] Library Test CA  trusted custom ancho││  ✓ chain                      Chain of 2 certifi│",
                "│                      │└───────────────────────────────────────────┘│  – name-constraints           No name constraint│",
                "│                      │┌Step hostname@0────────────────────────────┐│  ✓ certificate-policies       No certificate pol│",
                "│                      ││✗ failed localhost matches no              ││  – pin                        No pins set       │",
                "│                      ││  subjectAltName                           ││  [0] 127.0.0.1                                  │",
                "│                      ││Certificate   [0] 127.0.0.1                ││  ✓ signature                  Signature verifies│",
                "│                      ││Apple check   SSLHostname (subtype Name)   ││  ✓ validity                   Valid at the evalu│",
                "│                      ││OSStatus      -67602 errSecHostNameMismatch││  – basic-constraints          Leaf: no CA constr│",
                "│                      ││Decisive      this failure decides the     ││  ✓ key-usage                  keyUsage: digitalS│",
                "│                      ││              OSStatus (Apple's priority   ││  ✓ extended-key-usage         Extended key usage│",
                "│                      ││              rule)                        ││  ✓ critical-extensions        Every critical ext│",
                "│                      ││Rule                                       ││  ✓ compliance                 Encoding is standa│",
                "│                      ││the certificate has no SAN dNSName entries,││▶ ✗ hostname                   localhost matches │",
                "│                      ││and the Common Name is never used (Apple   ││  ✓ key-size                   EC P-256 256 bits │",
                "│                      ││HT210176) (Apple SSLHostname,              ││  ✓ signature-algorithm        ecdsa-with-SHA256 │",
                "│                      ││errSecHostNameMismatch).                   ││  ✓ validity-period-maximum    Lifetime N days,│",
                "│                      ││                                           ││  – certificate-transparency   Certificate Transp│",
                "│                      ││                                           ││  [1] Library Test CA                            │",
                "│                      ││                                           ││  – signature                  Anchor taken as tr│",
                "│                      ││                                           ││  ✓ anchor                     Anchored at a cust│",
                "│                      ││                                           ││  ✓ validity                   Valid at the evalu│",
                "│                      ││                                           ││  ✓ basic-constraints          CA                │",
                "│                      ││                                           ││  ✓ key-usage                  No keyUsage extens│",
                "│                      ││                                           ││  ✓ critical-extensions        Every critical ext│",
                "│                      ││                                           ││  ✓ compliance                 Encoding is standa│",
                "│                      ││                                           ││  ✓ key-size                   EC P-256 256 bits │",
                "│                      ││                                           ││  ✓ signature-algorithm        ecdsa-with-SHA256 │",
                "│                      ││                                           ││                                                 │",
                "│                      ││                                           ││                                                 │",
                "│                      ││                                           ││                                                 │",
                "│                      ││                                           ││                                                 │",
                "│                      ││                                           ││                                                 │",
                "│                      ││                                           ││                                                 │",
                "└──────────────────────┘└───────────────────────────────────────────┘└─────────────────────────────────────────────────┘",
                "✗ Not trusted · hostname@0 SSLHostname · errSecHostNameMismatch (-67602) · URLError -999 NSURLErrorCancelled",
                "p SSL(localhost)  a anchor only  s no pins  t now  v TLS ≥ 1.2  f AIA on  o apple",
                "Δ toggle a setting to see what changes",
                "q quit  ? help  Tab/→ pane  ↓/j move  a anchors  p policy  h host  s pins  t time  v TLS min  f AIA  o profile",
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
}
