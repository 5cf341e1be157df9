import Foundation
import SuiteFixtures
import Testing

/// The explorer's file writes under a real terminal: `x` refuses a file that exists, as `w`
/// does, and `X` replaces a symbolic link planted at the name it writes instead of writing
/// through it (every file trustx writes goes through one writer, docs/DECISIONS.md D322).
extension ExplorerTmuxTests {
    @Test func testXReportRefusesAnExistingFileAndXExportReplacesAPlantedLinkNotItsTarget() async throws {
        defer { _ = try? tmux("kill-server") }
        let pki = try TestPKI.get()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-writes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let kept = "a CA certificate someone keeps\n"
        let report = work.appendingPathComponent("report.txt").path
        try kept.write(toFile: report, atomically: true, encoding: .utf8)
        _ = try await startExplorer(
            ["explore", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "localhost"],
            in: work, environment: ["XDG_STATE_HOME=" + work.appendingPathComponent("state").path])

        // `x` over an existing file: refused with a message, the file as it was.
        try send("x", "C-u", "report.txt", "Enter")
        var text = try await screen { $0.contains("cannot write report.txt: it exists") }
        #expect(text.contains("does not replace"), "\(text)")
        #expect(try String(contentsOfFile: report, encoding: .utf8) == kept)

        // `X` once, to learn the name it writes (named by content, so the same next time).
        try send("X", "C-u", "curl", "Enter")
        text = try await screen { $0.contains("Export as curl") && $0.contains("curl") }
        try send("Escape")
        let exports = work.appendingPathComponent("state/trustx/exports")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: exports.path).first { $0.hasSuffix(".sh") })
        let script = exports.appendingPathComponent(name).path
        // A link planted at that name, to a file of the user's: the export must not write through it.
        let victim = work.appendingPathComponent("victim.txt").path
        try kept.write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: script)
        try FileManager.default.createSymbolicLink(atPath: script, withDestinationPath: victim)
        try send("X", "C-u", "curl", "Enter")
        text = try await screen { $0.contains("Export as curl") && $0.contains("curl") }
        try send("Escape", "q")
        _ = try await screen { $0.contains("EXIT=") }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == kept, "the link was written through")
        let attributes = try FileManager.default.attributesOfItem(atPath: script)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: script, encoding: .utf8).contains("curl"))
    }
}
