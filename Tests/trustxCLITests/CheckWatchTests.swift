import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `check --watch` against `openssl s_server` processes started once for the class: one is
/// restarted on its port with another certificate and key, one stops answering, one keeps
/// answering. Each run is bounded by `--watch-count`, at two rounds: the least that shows a
/// change, and one interval of the 1 s minimum waited.
@Suite(.serialized, .onTestThreads, .fixture(setUp: checkWatchTestsSetUp, tearDown: checkWatchTestsTearDown))
final class CheckWatchTests {
    nonisolated(unsafe) static var rotating: OpenSSLServer?
    nonisolated(unsafe) static var steady: OpenSSLServer?
    nonisolated(unsafe) static var stopping: OpenSSLServer?
    nonisolated(unsafe) static var startError: Error?

    static func suiteSetUp() {
        do {
            let pki = try TestPKI.get()
            // A second leaf for 127.0.0.1 from the same CA with a key of its own: what a server
            // restarted after a rotation serves.
            let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
            try Shell.openssl(
                ["req"] + ec + ["-keyout", "watch-leaf2.key", "-out", "watch-leaf2.csr", "-subj", "/CN=127.0.0.1"],
                in: pki.directory)
            try Shell.openssl(
                [
                    "x509", "-req", "-in", "watch-leaf2.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial",
                    "4661",
                    "-days", "365", "-extfile", "leaf.ext", "-out", "watch-leaf2.pem",
                ], in: pki.directory)
            let leaf = ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")]
            rotating = try OpenSSLServer(leaf, in: pki.directory)
            steady = try OpenSSLServer(leaf, in: pki.directory)
            stopping = try OpenSSLServer(leaf, in: pki.directory)
        } catch {
            startError = error
        }
    }

    static func suiteTearDown() {
        for s in [rotating, steady, stopping] { s?.stop() }
    }

    func servers() throws -> (rotating: OpenSSLServer, steady: OpenSSLServer, stopping: OpenSSLServer) {
        if let e = Self.startError { throw e }
        return (try #require(Self.rotating), try #require(Self.steady), try #require(Self.stopping))
    }

    /// The SHA-256 of a PEM certificate's DER, as `openssl x509 -outform DER | sha256sum` gives it.
    func derDigest(_ pem: String) throws -> String {
        let run = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "openssl x509 -in \"$1\" -outform DER | sha256sum", "sh", pem])
        let digest = String(run.out.prefix { $0 != " " })
        #expect(digest.count == 64, "\(run.err)")
        return digest
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\(String($0))")
        }
    }

    /// Two watches side by side, each waiting out one interval of the 1 s minimum, together
    /// once: JSON of a server restarted on its port with a new certificate and key, and text of
    /// two targets of which one stops answering. Both are held still (SIGSTOP) from their first
    /// output until the servers have changed, so their second round (due a second after the
    /// first began) meets the changed servers whatever the machine's load: two rounds are
    /// enough, where a third was needed for a restart that could fall inside the second.
    @Test func testAWatchGivesAChangeLineForANewLeafAndAFailureLineOnlyForTheTargetThatStopsAnswering() throws {
        let pki = try TestPKI.get()
        let (rotating, steady, stopping) = try servers()
        let port = rotating.port
        let json = try WatchRun([
            "check", "127.0.0.1:\(port)", "--anchor", pki.path("ca.pem"), "--watch", "1", "--watch-count", "2",
            "--format", "json",
        ])
        let text = try WatchRun([
            "check", "127.0.0.1:\(steady.port)", "127.0.0.1:\(stopping.port)", "--anchor", pki.path("ca.pem"),
            "--watch", "1", "--watch-count", "2",
        ])
        let summary = "2 of 2 trusted\n"
        let held = WatchRun.hold([(json, { $0.hasSuffix("\n") }), (text, { $0.contains(summary) })])
        #expect(held == [true, true], "no initial line (JSON) or no summary table (text)")
        rotating.stop()
        stopping.stop()
        // Held, refusing, so that no server of another suite is given the port before the round.
        let refusing = try RefusingPort(port: stopping.port)
        defer { refusing.release() }
        let restarted = Result {
            try OpenSSLServer(
                ["-cert", pki.path("watch-leaf2.pem"), "-key", pki.path("watch-leaf2.key")], port: port,
                in: pki.directory)
        }
        for run in [json, text] { run.process.signal(SIGCONT) }
        Self.rotating = try restarted.get()
        try assertNewLeafChange(json.finish(), port: port)
        try assertFailureLine(text.finish(), summary: summary, steady: steady.port, stopping: stopping.port)
    }

    /// The JSON watch: its initial report, then one change naming the new leaf against the leaf
    /// evaluated before, with both digests as openssl computes them.
    func assertNewLeafChange(_ result: RunResult, port: Int) throws {
        let pki = try TestPKI.get()
        #expect(result.status == 0, "\(result.err)")
        let before = try derDigest(pki.path("leaf.pem"))
        let after = try derDigest(pki.path("watch-leaf2.pem"))
        #expect(before != after)

        let lines = try jsonLines(result.out)
        let initial = try #require(lines.first)
        #expect((initial["event"] as? String) == "initial")
        #expect((initial["target"] as? String) == ("127.0.0.1:\(port)"))
        let report = try #require(initial["report"] as? [String: Any])
        let presented = try #require(report["presented"] as? [[String: Any]])
        #expect((presented.first?["sha256"] as? String) == before)
        #expect(((report["verdict"] as? [String: Any])?["trusted"] as? Bool) == true)

        // One change names the new leaf, against the leaf evaluated before.
        let changes = lines.dropFirst()
        #expect(changes.allSatisfy { $0["event"] as? String == "change" }, "\(result.out)")
        let leafChanges = changes.filter { $0["kind"] as? String == "new-leaf-new-key" }
        #expect(leafChanges.count == 1, "\(result.out)")
        let change = try #require(leafChanges.first)
        #expect((change["address"] as? String) == ("127.0.0.1:\(port)"))
        #expect(((change["old"] as? [String: Any])?["leafSHA256"] as? String) == before)
        #expect(((change["new"] as? [String: Any])?["leafSHA256"] as? String) == after)
        #expect(((change["new"] as? [String: Any])?["trusted"] as? Bool) == true)
        let time = try #require(change["time"] as? String)
        #expect((time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression)) != nil, "\(time)")
    }

    /// The text watch of two targets: the table, then one failure line for the one that stopped.
    func assertFailureLine(_ result: RunResult, summary: String, steady: Int, stopping: Int) throws {
        // The last round could not reach one server.
        #expect(result.status == 69, "\(result.err)")
        let table = try #require(result.out.range(of: summary))
        #expect(result.out[..<table.lowerBound].contains("127.0.0.1:\(steady)"), "\(result.out)")
        let changes = result.out[table.upperBound...].split(separator: "\n")
        #expect(changes.count == 1, "\(result.out)")
        let line = String(try #require(changes.first))
        let pattern = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  127\.0\.0\.1:"# + "\(stopping)" + "  failure: "
        #expect((line.range(of: pattern, options: .regularExpression)) != nil, "\(line)")
        // A refused connection is URLError's NSURLErrorCannotConnectToHost.
        #expect(line.contains("(-1004)"), "\(line)")
        // The closing line counts the rounds and the one change.
        #expect(result.err.contains("Watched 2 rounds from "), "\(result.err)")
        #expect(result.err.hasSuffix(": 1 change.\n"), "\(result.err)")
    }

    @Test func testAWatchIntervalBelowOneSecondOrWithoutWatchIsAUsageError() throws {
        let cases = [
            ["--watch", "0"], ["--watch=-5"], ["--watch", "1.5"], ["--watch-count", "2"],
            ["--watch", "1", "--watch-count", "0"],
        ]
        for (arguments, result) in zip(cases, CLI.runAll(cases.map { ["check", "127.0.0.1:1"] + $0 })) {
            let run = try result.get()
            #expect(run.status == 64, "\(arguments): \(run.err)")
            #expect(run.err.contains("--watch"), "\(run.err)")
            #expect(run.out == "")
        }
    }

    /// A reader that stops reading: standard output a pipe of one page that nobody reads, and a
    /// first round's table (60 refused addresses, about 14 KB) larger than it. The watch is
    /// blocked writing when SIGTERM comes, and must still end; on SIGKILL the test fails.
    @Test func testAWatchWhoseReaderStopsReadingEndsOnSIGTERM() throws {
        let list = (1...60).map { "127.0.0.1:\($0)" }.joined(separator: ",")
        let pipe = Pipe()
        // The smallest a pipe can be (a page): the table cannot fit.
        _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096)
        let process = try StartedChild(
            CLI.binary, ["check", "127.0.0.1", "--connect-to", list, "--watch", "1"],
            stdout: pipe.fileHandleForWriting)
        try pipe.fileHandleForWriting.close()
        defer { if process.isRunning { process.signal(SIGKILL) } }
        // Wait until the pipe is full: the watch is then blocked writing its first table.
        let reader = pipe.fileHandleForReading.fileDescriptor
        var buffered: Int32 = 0
        for _ in 0..<600 where process.isRunning {
            _ = ioctl(reader, UInt(FIONREAD), &buffered)
            if buffered >= 4096 { break }
            usleep(50_000)
        }
        #expect(buffered >= 4096, "the watch never filled its pipe")
        process.signal(SIGTERM)
        // Generous: the watch polls every 20 ms; only a watch that ignores SIGTERM reaches it.
        for _ in 0..<400 where process.isRunning { usleep(50_000) }
        let ended = !process.isRunning
        if !ended { process.signal(SIGKILL) }
        process.waitForExit()
        #expect(ended, "the watch ran on after SIGTERM until SIGKILL")
        #expect(process.exited)
        // Every address was refused: the round's worst is 69, as for any watch stopped after it.
        #expect(process.status == 69)
    }

    @Test func testWatchingChainFilesIsAUsageError() throws {
        let pki = try TestPKI.get()
        let run = try CLI.run(["check", "--chain", pki.path("leaf.pem"), "--watch", "5"])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.contains("--chain"), "\(run.err)")
    }
}

/// trustx running in the background, its output in files the test polls.
final class WatchRun {
    let process: StartedChild
    let scratch: URL
    let outURL: URL
    let errURL: URL

    init(_ arguments: [String]) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        outURL = scratch.appendingPathComponent("stdout")
        errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        var env = ProcessInfo.processInfo.environment
        for key in ["NO_COLOR", "LC_ALL", "LC_CTYPE", "TERM"] { env.removeValue(forKey: key) }
        env["LANG"] = "C.UTF-8"
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        // The child has its own descriptors once it runs.
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        process = try StartedChild(CLI.binary, arguments, environment: env, stdout: outHandle, stderr: errHandle)
    }

    deinit {
        if process.isRunning { process.signal(SIGTERM) }
        process.waitForExit()
        try? FileManager.default.removeItem(at: scratch)
    }

    var out: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }

    /// Polls standard output until `done` holds; false if the run ended first or the generous
    /// guard of 20 s passed.
    func waitForOutput(_ done: (String) -> Bool) -> Bool {
        let giveUp = Date().addingTimeInterval(20)
        while Date() < giveUp {
            if done(out) { return true }
            if !process.isRunning { return done(out) }
            usleep(5_000)
        }
        return false
    }

    /// Polls the runs' standard output and stops each (SIGSTOP) as soon as its condition holds,
    /// for the caller to change the world and send SIGCONT; per run, false if it ended first or
    /// the guard of 20 s passed.
    static func hold(_ runs: [(WatchRun, (String) -> Bool)]) -> [Bool] {
        var held = Array(repeating: false, count: runs.count)
        var ended = Array(repeating: false, count: runs.count)
        let giveUp = Date().addingTimeInterval(20)
        while Date() < giveUp && zip(held, ended).contains(where: { !$0 && !$1 }) {
            for (i, (run, done)) in runs.enumerated() where !held[i] && !ended[i] {
                if done(run.out) {
                    run.process.signal(SIGSTOP)
                    held[i] = true
                } else if !run.process.isRunning {
                    ended[i] = true
                }
            }
            usleep(2_000)
        }
        return held
    }

    /// Waits for the run to end (a guard of 20 s, then it is stopped) and returns what it printed.
    func finish() -> RunResult {
        let giveUp = Date().addingTimeInterval(20)
        while process.isRunning && Date() < giveUp { usleep(2_000) }
        if process.isRunning { process.signal(SIGTERM) }
        process.waitForExit()
        return RunResult(
            status: process.status, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
            stderr: (try? Data(contentsOf: errURL)) ?? Data())
    }
}

/// CheckWatchTests's shared set-up, outside the type so its suite attribute can name it.
private func checkWatchTestsSetUp() { CheckWatchTests.suiteSetUp() }

/// CheckWatchTests's shared tear-down, outside the type so its suite attribute can name it.
private func checkWatchTestsTearDown() { CheckWatchTests.suiteTearDown() }
