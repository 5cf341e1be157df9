import Foundation
import SuiteFixtures
import Testing

/// The in-process entry the tests use (`CLI.run`, through `Trustx.run`) against the executable
/// it stands for: the same bytes on both streams and the same status, and no state of one run
/// left for the next (D370).
@Suite(.serialized, .onTestThreads) final class InProcessEntryTests {
    /// Help, version, the man page, the three completion scripts and a usage error: the
    /// executable's output is the expected value, and the in-process run must give it byte for
    /// byte, so a test run in process checks what the installed binary prints.
    @Test func testTheEntryPrintsWhatTheExecutablePrints() throws {
        let runs: [[String]] = [
            ["--help"], ["--version"], ["help", "--man"], ["help", "check"], ["check", "--help"],
            ["completions", "bash"], ["completions", "zsh"], ["completions", "fish"], ["check", "--format", "xml"],
            ["export", "yaml"], ["nonsense"],
        ]
        let children = CLI.spawnAll(runs)
        let inProcess = CLI.runAll(runs)
        for (args, (child, run)) in zip(runs, zip(children, inProcess)) {
            let child = try child.get()
            let run = try run.get()
            #expect(!child.out.isEmpty || !child.err.isEmpty, "\(args)")
            #expect(run.status == child.status, "\(args)")
            #expect(run.stdout == child.stdout, "\(args): standard output differs")
            #expect(run.stderr == child.stderr, "\(args): standard error differs")
        }
    }

    /// Each run has its own input allowance (D46): two runs of one process that each read 9 MiB
    /// both succeed, where one allowance shared by the process would refuse the second (16 MiB).
    @Test func testRunsInOneProcessDoNotShareTheInputCap() throws {
        let pki = try TestPKI.get()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-entry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A PEM certificate followed by text outside any PEM block, which PEM ignores.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: pki.path("ca.pem")))
        bytes.append(Data(repeating: 0x23, count: 9 * 1024 * 1024))
        let anchor = dir.appendingPathComponent("big-ca.pem")
        try bytes.write(to: anchor)
        let check = ["check", "--chain", pki.path("leaf.pem"), "--anchor", anchor.path, "--host", "127.0.0.1"]
        for result in CLI.runAll([check, check], width: 2) {
            let run = try result.get()
            #expect(run.status == 0, "\(run.err)")
        }
    }
}
