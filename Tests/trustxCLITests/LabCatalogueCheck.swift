import Foundation
import TrustLab
import XCTest

/// The lab catalogue checked the way a trainee checks it: the built `trustx check` on every
/// scenario of a running lab with its own anchor and with each of its variations, against the
/// verdict the catalogue states.
enum LabCatalogueCheck {
    /// `trustx check` with `arguments`, as JSON.
    static func check(_ arguments: [String]) throws -> RunResult {
        try CLI.run(["check"] + arguments + ["--format", "json", "--timeout", "10"])
    }

    /// Asserts `result` is `expected`: trusted, OSStatus, URLError and the exit status (0
    /// trusted, 1 not trusted; every lesson checked this way reaches an evaluation).
    static func assertVerdict(
        _ result: RunResult, _ expected: LabExpectation, _ label: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let json = try result.json()
        let v = try XCTUnwrap(
            json["verdict"] as? [String: Any], "\(label): no verdict in \(result.out)\(result.err)", file: file,
            line: line)
        XCTAssertEqual(v["trusted"] as? Bool, expected.trusted, "\(label): trusted", file: file, line: line)
        XCTAssertEqual(
            (v["osstatus"] as? Int).map(Int32.init), expected.osstatus, "\(label): OSStatus", file: file, line: line)
        XCTAssertEqual(v["urlError"] as? Int, expected.urlError, "\(label): URLError", file: file, line: line)
        XCTAssertEqual(
            result.status, expected.trusted ? 0 : 1, "\(label): exit status; stderr: \(result.err)", file: file,
            line: line)
    }

    /// Checks every scenario of `lab` and every variation; returns how many variations ran.
    static func checkEveryScenarioAndVariation(of lab: Lab, file: StaticString = #filePath, line: UInt = #line)
        throws -> Int
    {
        var runs = 0
        for s in lab.scenarios {
            try assertVerdict(
                try check(s.targetArguments + ["--anchor", s.anchorPath]), s.expectation, s.name, file: file,
                line: line)
            for v in s.scenario.variations {
                let arguments = lab.arguments(for: v, of: s)
                try assertVerdict(
                    try check(arguments), v.expectation, "\(s.name) \(arguments.dropFirst().joined(separator: " "))",
                    file: file, line: line)
                runs += 1
            }
        }
        return runs
    }
}
