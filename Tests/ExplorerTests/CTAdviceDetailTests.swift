import CTModel
import SuiteFixtures
import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509
import XCTest

@testable import ExplorerState

/// The explorer's Detail pane for the `certificate-transparency` step shows Apple's published CT
/// policy beside trustd's code when they part (support.apple.com/103214: at most 2 embedded SCTs
/// per log operator count toward the 3 a one-year leaf needs), and nothing more when they agree.
final class CTAdviceDetailTests: XCTestCase {
    func ctStepLines(operators: [String]) throws -> [String] {
        let root = try TestPKI.root(
            "CT Advice Root", notBefore: TestPKI.date(2018, 1, 1), notAfter: TestPKI.date(2040, 1, 1))
        let logs = try operators.enumerated().map { i, o in try CTTestLog("Log \(i)", operatorName: o) }
        let b = TestPKI.leafBuilder(
            TestPKI.host, key: try TestPKI.sharedKey(.ecP256), notBefore: TestPKI.now - .days(30), lifetime: .days(365)
        ) { _ in }
        let leaf = try b.signWithEmbeddedSCTs(
            logs.map { EmbeddedSCTRequest($0, at: TestPKI.now - .days(30)) }, issuerKey: root.key,
            issuer: root.certificate)
        var s = TestPKI.ssl(system: [root.certificate], time: TestPKI.now)
        s.ctLogs = CTLogList(
            source: "test", logs: logs.map { CTLog(key: $0.key.spkiDER, operatorName: $0.operatorName) })
        let e = try XCTUnwrap(Evaluator().evaluate(chain: [leaf], settings: s))
        XCTAssertTrue(e.verdict.trusted, "advice never changes the verdict")
        let step = try XCTUnwrap(e.steps.first { $0.id == .certificateTransparency })
        return DetailContent.stepLines(step, AppState(now: TestPKI.now, systemStore: nil)).map(\.text)
    }

    func testOneOperatorsThreeLogsShowThePublishedPolicysCap() throws {
        let text = try ctStepLines(operators: ["A", "A", "A"])
        let heading = try XCTUnwrap(text.firstIndex(of: "Apple's published CT policy"), text.joined(separator: "\n"))
        XCTAssertTrue(text[heading + 1].contains("at most 2 embedded SCTs per log operator"), text[heading + 1])
    }

    func testThreeOperatorsShowNoAdvice() throws {
        XCTAssertFalse(try ctStepLines(operators: ["A", "B", "C"]).contains("Apple's published CT policy"))
    }
}
