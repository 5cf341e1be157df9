import Explorer
import ExplorerState
import SuiteFixtures
import TLSProbe
import TermUI
import TrustCore
import TrustSupport
import TrustX509
import XCTest

@testable import TrustBuilder

#if canImport(Glibc)
    import Glibc
#endif

/// `m` and `M`: a marked target compared with the selected one in the Detail pane, over chains
/// built in memory. The relations come from the rule (same DER: same certificate; same
/// SubjectPublicKeyInfo: same key; else different), the chains being built to differ that way.
final class CompareViewTests: XCTestCase {
    /// prod: a leaf under CA 1; renewed: a new leaf over prod's key under CA 1; other-ca: a leaf
    /// with its own key under CA 2. Every target trusts CA 1 as its anchor, none trusts CA 2.
    struct Fleet {
        var prod: ExplorerTarget
        var renewed: ExplorerTarget
        var otherCA: ExplorerTarget
    }

    static let fleet: Fleet = {
        let now = Session.now
        let day: Int64 = 86_400
        func ca(_ name: String) throws -> (Certificate, KeyPair) {
            let key = try KeyPair.generate(.ecP256)
            var b = CertificateBuilder(
                subject: NameBuilder(commonName: name), publicKey: key, notBefore: now.adding(seconds: -30 * day),
                notAfter: now.adding(seconds: 3650 * day))
            b.basicConstraints = .init(isCA: true)
            b.keyUsage = .init([.keyCertSign, .cRLSign])
            return (try b.selfSign(key: key), key)
        }
        func leaf(_ key: KeyPair, _ issuer: (Certificate, KeyPair), from: Int64, days: Int64) throws -> Certificate {
            var b = CertificateBuilder(
                subject: NameBuilder(commonName: "staging.example"), publicKey: key,
                notBefore: now.adding(seconds: from * day), notAfter: now.adding(seconds: (from + days) * day))
            b.subjectAltNames = .dns("staging.example")
            b.extendedKeyUsage = .init([.serverAuth])
            return try b.sign(issuerKey: issuer.1, issuer: issuer.0)
        }
        do {
            let ca1 = try ca("Fleet CA 1")
            let ca2 = try ca("Fleet CA 2")
            let key = try KeyPair.generate(.ecP256)
            let first = try leaf(key, ca1, from: -10, days: 90)
            let renewal = try leaf(key, ca1, from: -1, days: 90)
            let other = try leaf(try KeyPair.generate(.ecP256), ca2, from: -10, days: 90)
            func target(_ name: String, _ chain: [Certificate]) -> ExplorerTarget {
                ExplorerTarget(
                    name: name, location: name + ".pem", host: "", source: .files(chain, paths: [name + ".pem"]),
                    anchors: [AnchorEntry(ca1.0)])
            }
            return Fleet(
                prod: target("prod", [first, ca1.0]), renewed: target("renewed", [renewal, ca1.0]),
                otherCA: target("other-ca", [other, ca2.0]))
        } catch {
            fatalError("the fleet's certificates could not be built: \(error)")
        }
    }()

    func session(_ targets: [ExplorerTarget]) -> Session { Session(targets: targets) }

    func screen(_ s: Session, width: Int = 160, height: Int = 45) -> String {
        ExplorerView.lines(s.state, width: width, height: height).joined(separator: "\n")
    }

    func testMShowsNothingButAskForAMarkWhenNoTargetIsMarked() {
        let s = session([Self.fleet.prod, Self.fleet.renewed])
        s.press(.char("j"), .char("M"))
        XCTAssertFalse(s.state.comparison.showing)
        XCTAssertTrue(s.state.message?.contains("press m") ?? false, s.state.message ?? "no message")
        XCTAssertTrue(screen(s).contains("no target is marked"))
    }

    func testMMarksTheSelectedTargetWithAnEscapedMarkerAndMAgainUnmarksIt() {
        var hostile = Self.fleet.renewed
        hostile.name = "evil\u{1B}[2J"
        let s = session([Self.fleet.prod, hostile])
        s.press(.char("j"), .char("m"))
        XCTAssertEqual(s.state.markedTarget, 1)
        var text = screen(s)
        XCTAssertTrue(text.contains("evil\\u{1B}[2J ◆"), text)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B })
        XCTAssertFalse(text.contains("prod ◆"), text)

        s.press(.char("m"))
        XCTAssertNil(s.state.markedTarget)
        text = screen(s)
        XCTAssertFalse(text.contains("◆"), text)
    }

    func testARenewalOverTheSameKeyComparesAsSameKeyWithTheCAUnchanged() {
        let s = session([Self.fleet.prod, Self.fleet.renewed])
        s.press(.char("m"), .char("j"), .char("M"))
        XCTAssertTrue(s.state.comparison.showing)
        let text = screen(s)
        XCTAssertTrue(text.contains("prod (marked)"), text)
        XCTAssertTrue(text.contains("renewed (selected)"), text)
        // Same SubjectPublicKeyInfo, another certificate: same key; the CA is the same DER.
        XCTAssertTrue(text.contains("[0] same key, new certificate"), text)
        XCTAssertTrue(text.contains("[1] same certificate  Fleet CA 1"), text)
        XCTAssertFalse(text.contains("[0] different"), text)
        // The renewal moved the validity and the serial, not the key or the issuer.
        for field in ["notBefore", "notAfter", "serial"] {
            XCTAssertTrue(text.contains("  \(field) "), "\(field) missing:\n\(text)")
        }
        XCTAssertFalse(text.contains("  key "), text)
        XCTAssertFalse(text.contains("  issuer "), text)
        XCTAssertTrue(text.contains("Same verdict; same leaf key"), text)

        s.press(.escape)
        XCTAssertFalse(s.state.comparison.showing)
        XCTAssertFalse(screen(s).contains("Compare prod"))
    }

    func testALeafFromAnotherCAComparesAsDifferentWithBothVerdictsAndTheFailedAnchor() {
        let s = session([Self.fleet.prod, Self.fleet.renewed, Self.fleet.otherCA])
        s.press(.char("m"), .char("j"), .char("j"), .char("M"))
        let text = screen(s, height: 80)
        XCTAssertTrue(text.contains("[0] different"), text)
        XCTAssertTrue(text.contains("[1] different"), text)
        for field in ["issuer", "key"] { XCTAssertTrue(text.contains("  \(field) "), "\(field) missing:\n\(text)") }
        // prod is anchored at CA 1; other-ca's root, CA 2, is trusted by nobody: errSecNotTrusted.
        let verdict = text.split(separator: "\n").first { $0.contains("Verdict ") }.map(String.init) ?? ""
        XCTAssertTrue(verdict.range(of: #"trusted\s+│ not trusted"#, options: .regularExpression) != nil, verdict)
        XCTAssertTrue(text.contains("0 errSecSuccess"), text)
        XCTAssertTrue(text.contains("-67843 errSecNotTrusted"), text)
        XCTAssertTrue(text.contains("The verdicts differ; different leaf keys"), text)
        let anchor = text.split(separator: "\n").first { $0.contains("anchor@1") }.map(String.init) ?? ""
        XCTAssertTrue(anchor.range(of: #"passed\s+│ failed"#, options: .regularExpression) != nil, text)

        // M again leaves the comparison, as Esc does.
        s.press(.char("M"))
        XCTAssertFalse(s.state.comparison.showing)
    }

    func testAMarkedSideEvaluatedUnderOtherSettingsIsEvaluatedAgainBeforeItIsCompared() throws {
        let s = session([Self.fleet.prod, Self.fleet.renewed])
        s.press(.char("m"), .char("j"), .char("p"))
        // The policy changed after prod was evaluated: its side is asked for again.
        s.pressHolding(.char("M"))
        let asked = s.held.compactMap { effect -> [Certificate]? in
            if case .evaluate(let r) = effect { return r.chain }
            return nil
        }
        XCTAssertEqual(asked, [try Self.prodChain()])
        XCTAssertTrue(screen(s).contains("evaluating..."), screen(s))
        s.release()
        XCTAssertTrue(screen(s).contains("[0] same key, new certificate"), screen(s))
    }

    func testASideThatCannotConnectSaysWhyAndMConnectsItAgain() throws {
        var options = ProbeOptions()
        options.proxy = .none
        options.timeout = .seconds(5)
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let port = UInt16(refusing.port)
        let down = ExplorerTarget(
            name: "node-down", location: "127.0.0.1:\(port)", host: "127.0.0.1",
            source: .server(ProbeTarget(host: "127.0.0.1", port: port), options))
        let s = session([Self.fleet.prod, down])
        s.press(.char("m"), .char("j"))
        let connects = s.log.filter(\.isConnect).count
        s.press(.char("M"))
        // The failed side is asked again, as Enter on it would, and still has no evaluation.
        XCTAssertEqual(s.log.filter(\.isConnect).count, connects + 1)
        let text = screen(s)
        XCTAssertTrue(text.contains("no evaluation: the connection failed:"), text)
        XCTAssertTrue(text.contains("connection-refused"), text)
        XCTAssertTrue(text.contains("once both sides have an evaluation"), text)
        XCTAssertFalse(text.contains("Chain as sent"), text)

        // Marked the other way round: the marked side is connected in the background.
        s.press(.char("M"), .char("m"), .char("k"))
        let before = s.log.filter(\.isConnect).count
        s.press(.char("M"))
        XCTAssertEqual(s.log.filter(\.isConnect).count, before + 1)
        let swapped = screen(s)
        XCTAssertTrue(swapped.contains("node-down (marked)"), swapped)
        XCTAssertTrue(swapped.contains("connection-refused"), swapped)
        XCTAssertNotNil(
            swapped.range(
                of: #"Verdict\s+no evaluation: the connection failed.*│ trusted"#, options: .regularExpression),
            swapped)
    }

    static func prodChain() throws -> [Certificate] {
        guard case .files(let chain, _) = fleet.prod.source else { throw XCTSkip("prod is no files target") }
        return chain
    }

    func testANarrowWindowStacksTheSidesAndATinyOneSaysItIsTooSmall() {
        let s = session([Self.fleet.prod, Self.fleet.renewed])
        s.press(.char("m"), .char("j"), .char("M"))
        // Two columns at 160 columns: both verdicts on one row.
        let wide = screen(s).split(separator: "\n").map(String.init)
        XCTAssertTrue(
            wide.contains { $0.range(of: #"Verdict\s+trusted\s+│ trusted"#, options: .regularExpression) != nil })
        // 64 columns: one pane, too narrow for two columns: each side on a row of its own, named.
        let narrow = screen(s, width: 64, height: 20).split(separator: "\n").map(String.init)
        guard let verdict = narrow.firstIndex(where: { $0.hasPrefix("│Verdict ") }) else {
            return XCTFail("no Verdict row:\n" + narrow.joined(separator: "\n"))
        }
        XCTAssertTrue(narrow[verdict + 1].hasPrefix("│  prod    trusted"), narrow[verdict + 1])
        XCTAssertTrue(narrow[verdict + 2].hasPrefix("│  renewed trusted"), narrow[verdict + 2])
        XCTAssertFalse(narrow.contains { $0.contains("│ trusted") })
        let tiny = screen(s, width: 40, height: 10)
        XCTAssertTrue(tiny.contains("Window too small"), tiny)
    }
}
