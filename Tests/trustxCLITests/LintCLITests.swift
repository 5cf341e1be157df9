import Foundation
import TrustBuilder
import XCTest

/// `trustx lint` on Info.plist files written here as XML and converted to binary with plutil: a
/// sound plist that passes, one guardrail end to end, the text report and the exit statuses. Each
/// other guardrail is judged in process by TrustExportTests' LintGuardrailTests; the rules and
/// their reasons are in docs/lint.md.
final class LintCLITests: XCTestCase {
    /// Two distinct SHA-256 digests in base64 (their value does not matter to the lint).
    static let pinA = Data(repeating: 0xA1, count: 32).base64EncodedString()
    static let pinB = Data(repeating: 0xB2, count: 32).base64EncodedString()

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Lints `xml` as written and, unless `binary` is false, its binary1 form made by plutil;
    /// returns each run's status and findings.
    func lint(_ xml: String, binary: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws
        -> [(form: String, status: Int32, findings: [[String: Any]])]
    {
        let xmlURL = directory.appendingPathComponent("Info.plist")
        try xml.write(to: xmlURL, atomically: true, encoding: .utf8)
        var files = [("xml", xmlURL.path)]
        if binary {
            let binURL = directory.appendingPathComponent("Info-binary.plist")
            let converted = try Shell.run(
                URL(fileURLWithPath: "/opt/swift/usr/bin/plutil"),
                ["-convert", "binary1", "-o", binURL.path, xmlURL.path])
            XCTAssertEqual(converted.status, 0, converted.err, file: file, line: line)
            XCTAssertTrue(try Data(contentsOf: binURL).starts(with: Data("bplist00".utf8)), file: file, line: line)
            files.append(("binary", binURL.path))
        }
        return try files.map { form, path in
            let r = try CLI.run(["lint", path, "--format", "json"])
            XCTAssertEqual(r.err, "", file: file, line: line)
            let doc = try r.json(file: file, line: line)
            let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]], file: file, line: line)
            return (form, r.status, findings)
        }
    }

    /// Asserts that linting `xml` (both forms) exits 1 with a finding of `rule` at `path`.
    @discardableResult
    func assertFlags(
        _ xml: String, rule: String, path: String, severity: String = "error", binary: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String: Any]? {
        var found: [String: Any]?
        for run in try lint(xml, binary: binary, file: file, line: line) {
            XCTAssertEqual(run.status, 1, "\(run.form): findings exit 1", file: file, line: line)
            let match = run.findings.first { $0["rule"] as? String == rule && $0["path"] as? String == path }
            XCTAssertNotNil(
                match, "\(run.form): no \(rule) at \(path) in \(run.findings.map { "\($0["rule"]!) \($0["path"]!)" })",
                file: file, line: line)
            XCTAssertEqual(match?["severity"] as? String, severity, file: file, line: line)
            for key in ["message", "why", "fix"] {
                XCTAssertFalse((match?[key] as? String ?? "").isEmpty, "\(key) is empty", file: file, line: line)
            }
            found = match
        }
        return found
    }

    // MARK: - A sound configuration

    func testASoundPlistWithTwoPinsPasses() throws {
        let xml = InfoPlistText.ats(
            InfoPlistText.pinned("<key>NSIncludesSubdomains</key><true/>" + InfoPlistText.pins([Self.pinA, Self.pinB]))
                + InfoPlistText.exception("<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string>"))
        for run in try lint(xml) {
            XCTAssertEqual(run.status, 0, "\(run.form): \(run.findings)")
            XCTAssertTrue(run.findings.isEmpty)
        }
        let path = directory.appendingPathComponent("Info.plist").path
        let text = try CLI.run(["lint", path])
        XCTAssertEqual(text.status, 0)
        XCTAssertEqual(text.out, "\(path): no findings\n")
    }

    // MARK: - A guardrail end to end (the others: TrustExportTests' LintGuardrailTests)

    func testArbitraryLoadsIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats("<key>NSAllowsArbitraryLoads</key><true/>"), rule: "arbitrary-loads",
            path: "NSAppTransportSecurity.NSAllowsArbitraryLoads")
    }

    // MARK: - Output and exit statuses

    func testTheTextReportNamesPathRuleWhyAndFix() throws {
        let url = directory.appendingPathComponent("Info.plist")
        try InfoPlistText.ats("<key>NSAllowsArbitraryLoads</key><true/>").write(
            to: url, atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", url.path])
        XCTAssertEqual(r.status, 1)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0], "\(url.path): 1 finding (1 error)")
        XCTAssertEqual(lines[2], "error  NSAppTransportSecurity.NSAllowsArbitraryLoads  [arbitrary-loads]")
        XCTAssertEqual(lines[3], "  NSAllowsArbitraryLoads is true")
        XCTAssertTrue(lines[4].hasPrefix("  why: "))
        XCTAssertTrue(lines[5].hasPrefix("  fix: "))
    }

    func testHostileKeysReachTheTerminalEscaped() throws {
        let url = directory.appendingPathComponent("Info.plist")
        try InfoPlistText.ats(InfoPlistText.exception("", domain: "evil\u{1B}[2J.example.com")).write(
            to: url, atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", url.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertFalse(r.out.contains("\u{1B}"))
        XCTAssertTrue(r.out.contains("evil\\u{1B}[2J.example.com"), r.out)
        let json = try CLI.run(["lint", url.path, "--format", "json"])
        XCTAssertFalse(json.out.contains("\u{1B}"))
        XCTAssertNoThrow(try json.json())
    }

    func testAMissingFileIs66AndAnUnreadablePlistIs65() throws {
        let missing = try CLI.run(["lint", directory.appendingPathComponent("absent.plist").path])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.err.hasPrefix("Error: "), missing.err)
        // The unreadable files and the usage errors are independent runs: side by side.
        let garbage = ["not a plist\n", "<plist version=\"1.0\"><dict><key>a</key></plist>", "bplist00\u{0}\u{1}"]
        var runs: [[String]] = []
        for (index, bytes) in garbage.enumerated() {
            let url = directory.appendingPathComponent("garbage\(index).plist")
            try bytes.write(to: url, atomically: true, encoding: .utf8)
            runs.append(["lint", url.path])
        }
        let results = CLI.runAll(runs + [["lint"], ["lint", runs[0][1], "--format", "yaml"]])
        for (bytes, result) in zip(garbage, results) {
            let r = try result.get()
            XCTAssertEqual(r.status, 65, bytes)
            XCTAssertTrue(r.err.contains("not a readable property list"), r.err)
        }
        XCTAssertEqual(try results[3].get().status, 64)
        XCTAssertEqual(try results[4].get().status, 64)
    }
}
