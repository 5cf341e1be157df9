import Foundation
import SuiteFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files that are not regular files where trustx reads or writes one: a FIFO given as a chain,
/// a `diff` side or SSL_CERT_FILE (open(2) used to wait for a writer, past `--timeout`, for good),
/// and a symbolic link planted where `export --output --force` writes (written through before).
/// Every run is bounded by timeout(1) at 4 s (under the 5 s after which the fixture kills any
/// child), far past the fraction of a second each takes, so that a run that waits fails the
/// test (killed by a signal) instead of hanging it.
@Suite(.serialized, .onTestThreads) final class HostileFileTypesTests {
    var dir: URL!

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// trustx under timeout(1), which exits 124 when the run outlived it.
    func bounded(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "C.UTF-8"
        for (k, v) in environment { env[k] = v }
        return try Shell.run(
            URL(fileURLWithPath: "/usr/bin/timeout"), ["-s", "KILL", "4", CLI.binary.path] + arguments,
            environment: env)
    }

    @Test func testAFIFOGivenAsChainDiffSideOrSSLCertFileIsNotWaitedFor() throws {
        let pki = try TestPKI.get()
        let fifo = file("chain.pem")
        #expect(mkfifo(fifo, 0o600) == 0)
        let chain = try bounded(["check", "--chain", fifo, "--anchor", pki.path("ca.pem")])
        #expect(chain.status == 65, "\(chain.err)")
        #expect(chain.err.contains(fifo), "\(chain.err)")
        let diff = try bounded(["diff", "file:" + fifo, "file:" + pki.path("leaf.pem")])
        #expect(diff.status == 65, "\(diff.err)")
        let store = try bounded(
            ["check", "--chain", pki.path("leaf.pem"), "--store", "openssl", "--host", "127.0.0.1"],
            environment: ["SSL_CERT_FILE": fifo, "SSL_CERT_DIR": dir.path])
        // An empty store anchors nothing: the leaf's CA is not trusted.
        #expect(store.status == 1, "\(store.out)\(store.err)")
    }

    /// A pipe whose writer writes and closes is still read whole: `--chain <(cat leaf.pem)` gives
    /// what the file itself gives.
    @Test func testAPipeFromProcessSubstitutionIsReadToItsEnd() throws {
        let pki = try TestPKI.get()
        let options = ["--anchor", pki.path("ca.pem"), "--host", "127.0.0.1"]
        let direct = try bounded(["check", "--chain", pki.path("leaf.pem")] + options)
        let piped = try Shell.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", #"exec "$0" check --chain <(cat "$1") "${@:2}""#, CLI.binary.path, pki.path("leaf.pem")] + options)
        #expect(direct.status == 0, "\(direct.err)")
        #expect(piped.status == direct.status, "\(piped.err)")
    }

    /// `export --output FILE --force` where FILE is a link to a file of the user's: the link is
    /// replaced by the export, and the file it pointed to is left as it was.
    @Test func testExportForceReplacesAPlantedLinkNotTheFileItPointsTo() throws {
        let victim = file("victim.txt")
        let kept = "someone's file\n"
        try kept.write(toFile: victim, atomically: true, encoding: .utf8)
        let link = file("export.sh")
        #expect(symlink(victim, link) == 0)
        let refused = try bounded(["export", "curl", "example.com", "--output", link])
        #expect(refused.status == 73, "\(refused.err)")
        #expect(refused.err.contains("exists; give --force"), "\(refused.err)")
        let forced = try bounded(["export", "curl", "example.com", "--output", link, "--force"])
        #expect(forced.status == 0, "\(forced.err)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == kept, "the export wrote through the link")
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(try String(contentsOfFile: link, encoding: .utf8).contains("curl"))
    }
}
