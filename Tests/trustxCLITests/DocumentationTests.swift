import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustReport

/// The documentation names every step the engine can produce, so a new step cannot ship
/// undocumented.
@Suite(.serialized, .onTestThreads) final class DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func testStepsDocumentHasASectionPerStepID() throws {
        let doc = try read("docs/steps.md")
        for id in StepID.allCases {
            #expect(doc.contains("\n## `\(id.rawValue)`\n"), "docs/steps.md has no section for \(id.rawValue)")
        }
    }

    @Test func testJSONReportDocumentListsEveryStepIDAndTheSchemaVersion() throws {
        let doc = try read("docs/json-report.md")
        for id in StepID.allCases {
            #expect(doc.contains("`\(id.rawValue)`"), "docs/json-report.md does not list \(id.rawValue)")
        }
        #expect(doc.contains("schema 1"))
        #expect(JSONReport.schemaVersion == 1)
    }
}
