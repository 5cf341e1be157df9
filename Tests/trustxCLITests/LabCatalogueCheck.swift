import Foundation
import Testing
import TrustLab

/// The lab catalogue checked the way a trainee checks it: the built `trustx check` on every
/// scenario of a running lab with its own anchor and with each of its variations, against the
/// verdict the catalogue states.
enum LabCatalogueCheck {
    /// `trustx check` with `arguments`, as JSON.
    static func check(_ arguments: [String]) throws -> RunResult { try CLI.run(checkCommand(arguments)) }

    /// The command line of `check(_:)`.
    static func checkCommand(_ arguments: [String]) -> [String] {
        ["check"] + arguments + ["--format", "json", "--timeout", "10"]
    }

    /// Asserts `result` is `expected`: trusted, OSStatus, URLError and the exit status (0
    /// trusted, 1 not trusted; every lesson checked this way reaches an evaluation).
    static func assertVerdict(
        _ result: RunResult, _ expected: LabExpectation, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let json = try result.json()
        let v = try #require(
            json["verdict"] as? [String: Any], "\(label): no verdict in \(result.out)\(result.err)",
            sourceLocation: sourceLocation)
        #expect((v["trusted"] as? Bool) == expected.trusted, "\(label): trusted", sourceLocation: sourceLocation)
        #expect(
            ((v["osstatus"] as? Int).map(Int32.init)) == expected.osstatus, "\(label): OSStatus",
            sourceLocation: sourceLocation)
        #expect((v["urlError"] as? Int) == expected.urlError, "\(label): URLError", sourceLocation: sourceLocation)
        #expect(
            result.status == (expected.trusted ? 0 : 1), "\(label): exit status; stderr: \(result.err)",
            sourceLocation: sourceLocation)
    }

    /// Checks every scenario of `lab` and every variation; returns how many variations ran.
    static func checkEveryScenarioAndVariation(of lab: Lab, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> Int
    {
        var checks: [(arguments: [String], expected: LabExpectation, label: String)] = []
        var runs = 0
        for s in lab.scenarios {
            checks.append((s.targetArguments + ["--anchor", s.anchorPath], s.expectation, s.name))
            for v in s.scenario.variations {
                let arguments = lab.arguments(for: v, of: s)
                checks.append(
                    (arguments, v.expectation, "\(s.name) \(arguments.dropFirst().joined(separator: " "))"))
                runs += 1
            }
        }
        let results = CLI.runAll(checks.map { checkCommand($0.arguments) })
        for (c, result) in zip(checks, results) {
            try assertVerdict(try result.get(), c.expected, c.label, sourceLocation: sourceLocation)
        }
        return runs
    }
}
