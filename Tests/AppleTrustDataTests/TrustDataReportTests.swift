import Foundation
import SuiteFixtures
import XCTest

/// scripts/apple-trust-data/report.py, which update.py runs to say what changed between the tag
/// compiled in and a newer snapshot: its own tests build a security_certificates history of two
/// tags differing in every kind of data (roots, anchor constraints, EV, CT logs, pins, the Valid
/// snapshot) and check each line the report must print.
final class TrustDataReportTests: XCTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/apple-trust-data/test_report.py")

    func testTheReportNamesEveryKindOfChangeBetweenTwoTags() throws {
        let tools = try ProcessRunner.shell("command -v python3 && command -v git && command -v openssl")
        try XCTSkipUnless(tools.status == 0, "python3, git or openssl missing: \(tools.err)")
        let r = try ProcessRunner.run("/usr/bin/env", ["python3", Self.script.path], timeout: 120)
        XCTAssertEqual(r.status, 0, r.out + r.err)
        XCTAssertTrue(r.err.contains("Ran 2 tests"), r.err)
    }
}
