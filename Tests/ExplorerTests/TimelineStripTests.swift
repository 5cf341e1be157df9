import Explorer
import ExplorerState
import SuiteFixtures
import TrustCore
import TrustSupport
import TrustX509
import XCTest

/// `t`'s timeline strip, headless: the changes are the certificates' own dates turned into
/// instants by RFC 5280 4.1.2.5 (valid from notBefore through notAfter inclusive, so expired from
/// one second after notAfter; Apple reports both a not-yet-valid and an expired certificate as
/// errSecCertificateExpired, -67818), Tab walks them, and predict mode asks for none.
final class TimelineStripTests: XCTestCase {
    /// A root valid for eleven years around `TestPKI.now` and a leaf for www.example.com that
    /// expires within the year, as files anchored at the root; the time fixed at `TestPKI.now`.
    func session() throws -> (Session, leaf: Certificate, root: Certificate) {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root)
        let target = ExplorerTarget(
            name: "files", location: "leaf.pem", host: TestPKI.host,
            source: .files([leaf.certificate], paths: ["leaf.pem"]),
            anchors: [AnchorEntry(root.certificate, file: "root.pem")])
        var toggles = Toggles()
        toggles.time = TestPKI.now
        return (Session(targets: [target], now: TestPKI.now, toggles: toggles), leaf.certificate, root.certificate)
    }

    func testTheStripListsEachChangeAndTabWalksThem() throws {
        let (s, leaf, root) = try session()
        XCTAssertEqual(s.verdict?.trusted, true)
        s.press(.char("t"))
        let timeline = try XCTUnwrap(s.state.timeline)
        // The leaf's notBefore is the later of the two: trusted from it; the leaf's notAfter
        // comes before the root's, which then changes neither the verdict nor the code.
        XCTAssertLessThan(root.notBefore, leaf.notBefore)
        XCTAssertLessThan(leaf.notAfter, root.notAfter)
        XCTAssertEqual(timeline.entries.map(\.at), [leaf.notBefore, leaf.notAfter.adding(seconds: 1)])
        XCTAssertEqual(timeline.entries.map(\.osstatus), [0, -67818])

        let lines = ExplorerView.lines(s.state, width: 100, height: 30)
        let strip = try XCTUnwrap(lines.first { $0.hasPrefix("Timeline: ") }, lines.joined(separator: "\n"))
        let before = String(leaf.notBefore.rfc3339.prefix(10))
        let after = String(leaf.notAfter.rfc3339.prefix(10))
        XCTAssertTrue(strip.hasPrefix("Timeline: \(before) ✓  ─ now ─  \(after) ✗ -67818  Tab: next change"), strip)
        // The prompt stays the last line, the strip above the verdict.
        XCTAssertTrue(lines[29].hasPrefix("Evaluate at: "), lines[29])
        XCTAssertEqual(lines[25], strip)

        s.press(.tab)
        XCTAssertEqual(s.state.prompt?.text, leaf.notAfter.adding(seconds: 1).rfc3339)
        XCTAssertEqual(s.state.prompt?.preview, .rejected(osstatus: -67818, urlError: -999))
        s.press(.tab)
        XCTAssertEqual(s.state.prompt?.text, leaf.notBefore.rfc3339, "Tab wraps to the oldest change")
        s.press(.tab, .enter)
        XCTAssertEqual(s.verdict?.osstatus, -67818)
        XCTAssertNil(ExplorerView.lines(s.state, width: 100, height: 30).first { $0.hasPrefix("Timeline: ") })
    }

    func testPredictModeMakesNoTimeline() throws {
        let (s, _, _) = try session()
        s.press(.char("W"), .char("t"))
        XCTAssertNil(s.state.timeline)
        XCTAssertFalse(s.log.contains { if case .timeline = $0 { true } else { false } })
        XCTAssertNil(ExplorerView.lines(s.state, width: 100, height: 30).first { $0.hasPrefix("Timeline: ") })
    }
}
