import Foundation
import SuiteFixtures
import Testing
import TrustBuilder

/// `trustx lint` on Info.plist files written here as XML and converted to binary with plutil: a
/// sound plist that passes, one guardrail end to end, the text report and the exit statuses. Each
/// other guardrail is judged in process by TrustExportTests' LintGuardrailTests; the rules and
/// their reasons are in docs/lint.md.
@Suite(.serialized, .onTestThreads) final class LintCLITests {
    /// Two distinct SHA-256 digests in base64 (their value does not matter to the lint).
    static let pinA = Data(repeating: 0xA1, count: 32).base64EncodedString()
    static let pinB = Data(repeating: 0xB2, count: 32).base64EncodedString()

    var directory: URL!

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Lints `xml` as written and, unless `binary` is false, its binary1 form made by plutil;
    /// returns each run's status and findings.
    func lint(_ xml: String, binary: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws
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
            #expect(converted.status == 0, "\(converted.err)", sourceLocation: sourceLocation)
            #expect(try Data(contentsOf: binURL).starts(with: Data("bplist00".utf8)), sourceLocation: sourceLocation)
            files.append(("binary", binURL.path))
        }
        return try files.map { form, path in
            let r = try CLI.run(["lint", path, "--format", "json"])
            #expect(r.err == "", sourceLocation: sourceLocation)
            let doc = try r.json(sourceLocation: sourceLocation)
            let findings = try #require(doc["findings"] as? [[String: Any]], sourceLocation: sourceLocation)
            return (form, r.status, findings)
        }
    }

    /// Asserts that linting `xml` (both forms) exits 1 with a finding of `rule` at `path`.
    @discardableResult
    func assertFlags(
        _ xml: String, rule: String, path: String, severity: String = "error", binary: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any]? {
        var found: [String: Any]?
        for run in try lint(xml, binary: binary, sourceLocation: sourceLocation) {
            #expect(run.status == 1, "\(run.form): findings exit 1", sourceLocation: sourceLocation)
            let match = run.findings.first { $0["rule"] as? String == rule && $0["path"] as? String == path }
            #expect(
                match != nil,
                "\(run.form): no \(rule) at \(path) in \(run.findings.map { "\($0["rule"]!) \($0["path"]!)" })",
                sourceLocation: sourceLocation)
            #expect((match?["severity"] as? String) == severity, sourceLocation: sourceLocation)
            for key in ["message", "why", "fix"] {
                let text = match?[key] as? String ?? ""
                #expect(!text.isEmpty, "\(key) is empty", sourceLocation: sourceLocation)
            }
            found = match
        }
        return found
    }

    // MARK: - A sound configuration

    @Test func testASoundPlistWithTwoPinsPasses() throws {
        let xml = InfoPlistText.ats(
            InfoPlistText.pinned("<key>NSIncludesSubdomains</key><true/>" + InfoPlistText.pins([Self.pinA, Self.pinB]))
                + InfoPlistText.exception("<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string>"))
        for run in try lint(xml) {
            #expect(run.status == 0, "\(run.form): \(run.findings)")
            #expect(run.findings.isEmpty)
        }
        let path = directory.appendingPathComponent("Info.plist").path
        let text = try CLI.run(["lint", path])
        #expect(text.status == 0)
        #expect(text.out == ("\(path): no findings\n"))
    }

    // MARK: - A guardrail end to end (the others: TrustExportTests' LintGuardrailTests)

    @Test func testArbitraryLoadsIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats("<key>NSAllowsArbitraryLoads</key><true/>"), rule: "arbitrary-loads",
            path: "NSAppTransportSecurity.NSAllowsArbitraryLoads")
    }

    // MARK: - Output and exit statuses

    @Test func testTheTextReportNamesPathRuleWhyAndFix() throws {
        let url = directory.appendingPathComponent("Info.plist")
        try InfoPlistText.ats("<key>NSAllowsArbitraryLoads</key><true/>").write(
            to: url, atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", url.path])
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == ("\(url.path): 1 finding (1 error)"))
        #expect(lines[2] == "error  NSAppTransportSecurity.NSAllowsArbitraryLoads  [arbitrary-loads]")
        #expect(lines[3] == "  NSAllowsArbitraryLoads is true")
        #expect(lines[4].hasPrefix("  why: "))
        #expect(lines[5].hasPrefix("  fix: "))
    }

    @Test func testHostileKeysReachTheTerminalEscaped() throws {
        let url = directory.appendingPathComponent("Info.plist")
        try InfoPlistText.ats(InfoPlistText.exception("", domain: "evil\u{1B}[2J.example.com")).write(
            to: url, atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", url.path])
        #expect(r.status == 1)
        #expect(!r.out.contains("\u{1B}"))
        #expect(r.out.contains("evil\\u{1B}[2J.example.com"), "\(r.out)")
        let json = try CLI.run(["lint", url.path, "--format", "json"])
        #expect(!json.out.contains("\u{1B}"))
        #expect(throws: Never.self) { try json.json() }
    }

    @Test func testAMissingFileIs66AndAnUnreadablePlistIs65() throws {
        let missing = try CLI.run(["lint", directory.appendingPathComponent("absent.plist").path])
        #expect(missing.status == 66)
        #expect(missing.err.hasPrefix("Error: "), "\(missing.err)")
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
            #expect(r.status == 65, "\(bytes)")
            #expect(r.err.contains("not a readable property list"), "\(r.err)")
        }
        #expect((try results[3].get().status) == 64)
        #expect((try results[4].get().status) == 64)
    }
}
