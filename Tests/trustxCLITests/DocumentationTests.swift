import Foundation
import TrustCore
import TrustReport
import XCTest

/// The documentation names every step the engine can produce, so a new step cannot ship
/// undocumented.
final class DocumentationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    func testStepsDocumentHasASectionPerStepID() throws {
        let doc = try read("docs/steps.md")
        for id in StepID.allCases {
            XCTAssertTrue(doc.contains("\n## `\(id.rawValue)`\n"), "docs/steps.md has no section for \(id.rawValue)")
        }
    }

    func testJSONReportDocumentListsEveryStepIDAndTheSchemaVersion() throws {
        let doc = try read("docs/json-report.md")
        for id in StepID.allCases {
            XCTAssertTrue(doc.contains("`\(id.rawValue)`"), "docs/json-report.md does not list \(id.rawValue)")
        }
        XCTAssertTrue(doc.contains("schema 1"))
        XCTAssertEqual(JSONReport.schemaVersion, 1)
    }
}
