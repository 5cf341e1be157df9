import ExplorerState
import Foundation
import XCTest

/// `X` carries every setting the screen evaluates with: one the format cannot express is named in
/// the export as a comment, never dropped, and exports land in files named after their content.
final class ExportUnexpressedTests: XCTestCase {
    /// curl always evaluates at the current time: after `t`, the exported command says so.
    func testCurlExportAfterAnEvaluationTimeSaysCurlUsesTheCurrentTime() throws {
        let s = Session(scenarios: ["good"])
        s.prompt("t", "2030-01-01T00:00:00Z")
        XCTAssertEqual(s.verdict?.trusted, false, "the lab's leaf has expired by 2030")
        s.prompt("X", "curl")
        let path = try s.writtenPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(script.contains("# Not expressed: --at 2030-01-01T00:00:00Z"), script)
    }

    /// Revocation fetching, which curl's command does not do, is named too; and the two exports,
    /// with different settings, are two files.
    func testRevocationFetchingIsNamedAndEachExportKeepsItsOwnFile() throws {
        let s = Session(scenarios: ["good"])
        s.prompt("X", "curl")
        let plain = try s.writtenPath()
        defer { try? FileManager.default.removeItem(atPath: plain) }
        s.press(.escape, .char("R"))
        XCTAssertTrue(s.state.toggles.fetchRevocation)
        s.prompt("X", "curl")
        let revocation = try s.writtenPath()
        defer { try? FileManager.default.removeItem(atPath: revocation) }
        XCTAssertNotEqual(plain, revocation)
        let first = try String(contentsOfFile: plain, encoding: .utf8)
        let second = try String(contentsOfFile: revocation, encoding: .utf8)
        XCTAssertFalse(first.contains("--revocation"), first)
        XCTAssertTrue(second.contains("# Not expressed: --revocation"), second)
    }
}
