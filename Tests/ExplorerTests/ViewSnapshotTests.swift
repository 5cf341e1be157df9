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
                "┌1 Scenarios───────────┐┌2 Chain (2 in path, 1 sent)────────────────┐┌3 Steps (25, 1 failed)───────────────────────────┐",
                "│  ✓ good              ││  Path as built                            ││  Path                                           │",
                "│▶ ✗ wrong-host        ││▶ [0] 127.0.0.1  server #0                 ││  ✓ chain                      Chain of 2 certifi│",
                "│                      ││  [1] Library Test CA anchor  trusted custo││  – name-constraints           No name constraint│",
                "│                      ││  Chain as sent                            ││  ✓ certificate-policies       No certificate pol│",
                "│                      ││  #0 127.0.0.1  path [0]                   ││  – pin                        No pins set       │",
                "│                      │└───────────────────────────────────────────┘│  [0] 127.0.0.1                                  │",
                "│                      │┌4 Step hostname@0──────────────────────────┐│  ✓ signature                  Signature verifies│",
                "│                      ││✗ failed localhost matches no              ││  ✓ validity                   Valid at the evalu│",
                "│                      ││  subjectAltName                           ││  – basic-constraints          Leaf: no CA constr│",
                "│                      ││Certificate   [0] 127.0.0.1                ││  ✓ key-usage                  keyUsage: digitalS│",
                "│                      ││Apple check   SSLHostname (subtype Name)   ││  ✓ extended-key-usage         Extended key usage│",
                "│                      ││OSStatus      -67602 errSecHostNameMismatch││  ✓ critical-extensions        Every critical ext│",
                "│                      ││Decisive      this failure decides the     ││  ✓ compliance                 Encoding is standa│",
                "│                      ││              OSStatus (Apple's priority   ││▶ ✗ hostname                   localhost matches │",
                "│                      ││              rule)                        ││  ✓ key-size                   EC P-256 256 bits │",
                "│                      ││Rule                                       ││  ✓ signature-algorithm        ecdsa-with-SHA256 │",
                "│                      ││the certificate has no SAN dNSName entries,││  ✓ validity-period-maximum    Lifetime N days,│",
                "│                      ││and the Common Name is never used (Apple   ││  – certificate-transparency   Certificate Transp│",
                "│                      ││HT210176) (Apple SSLHostname,              ││  [1] Library Test CA                            │",
                "│                      ││errSecHostNameMismatch).                   ││  – signature                  Anchor taken as tr│",
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
                "p SSL(localhost)  a 1 anchor (app) only  P no pins  t now  o apple  v TLS ≥ 1.2  f AIA on",
                "Δ change a setting to see what changes; ? lists the keys",
                "q quit  ? help  a anchor  A +system  P pin  p policy  h host  t time  u undo  y copy cmd",
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
