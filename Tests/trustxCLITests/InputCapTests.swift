import Foundation
import SuiteFixtures
import Testing

/// The 16 MiB input cap holds for all the files of a run together (D46), not per file.
@Suite(.serialized, .onTestThreads) final class InputCapTests {
    @Test func testManyFilesUnderTheCapEachCannotExceedItTogether() throws {
        let pki = try TestPKI.get()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-cap-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 9 MiB each: a PEM certificate followed by text outside any PEM block, which PEM ignores.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: pki.path("ca.pem")))
        bytes.append(Data(repeating: 0x23, count: 9 * 1024 * 1024))
        let first = dir.appendingPathComponent("first.pem")
        let second = dir.appendingPathComponent("second.pem")
        try bytes.write(to: first)
        try bytes.write(to: second)
        let leaf = pki.path("leaf.pem")

        let one = try CLI.run(["check", "--chain", leaf, "--anchor", first.path, "--host", "127.0.0.1"])
        #expect(one.status == 0, "\(one.err)")
        let two = try CLI.run([
            "check", "--chain", leaf, "--anchor", first.path, "--anchor", second.path, "--host", "127.0.0.1",
        ])
        #expect(two.status == 66, "\(two.out)")
        #expect(
            two.err.hasPrefix(
                "Error: \(second.path): cannot read: the files of this run together are larger than 16 MiB"),
            "\(two.err)")
    }
}
