import Explorer
import ExplorerState
import TrustCore
import XCTest

/// How the chain was served in the explorer (D440): the wrong-order lesson sends its issuing CA
/// after the intermediate that signs it, so both are out of place (RFC 5246 7.4.2 wants each
/// certificate right after the one it signs); the AIA lesson's intermediate was never sent.
final class ServedChainPaneTests: XCTestCase {
    static let scenarios = ["wrong-order", "missing-intermediate-aia"]

    func testTheChainPaneMarksTheWrongOrderLessonsIntermediatesAndTheDetailExplains() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-order")
        XCTAssertEqual(s.verdict?.trusted, true)
        let sent = s.state.chainRows.filter { $0.section == .sent }.map(\.source)
        XCTAssertEqual(sent, ["path [0]", "path [2] · wrong-order", "path [1] · wrong-order"])
        let screen = ExplorerView.lines(s.state, width: 160, height: 45).joined(separator: "\n")
        XCTAssertTrue(screen.contains("Served: 1 for other clients"), screen)
        XCTAssertTrue(screen.contains("wrong-order #1 #2: the path needs them sent as #0, #2, #1"), screen)
        // The Detail pane gives the whole line for the selected sent certificate.
        s.press(.char("2"))
        while s.state.selectedChainRow?.section != .sent || s.state.selectedChainRow?.index != 1 {
            s.press(.char("j"))
        }
        let detail = DetailContent.lines(s.state)
        XCTAssertTrue(detail.contains { $0.kind == .field("wrong-order") && $0.text.contains("mbed TLS") }, "\(detail)")
    }

    func testTheAIALessonsFetchedIntermediateIsAIAFilled() {
        let s = Session(scenarios: Self.scenarios)
        s.select("missing-intermediate-aia")
        let path = s.state.chainRows.filter { $0.section == .path }.map(\.source)
        XCTAssertEqual(path.count, 3)
        XCTAssertTrue(path[1].hasSuffix(" · aia-filled"), "\(path)")
    }
}
