import Foundation
import SuiteFixtures
import Synchronization
import Testing
import TrustCLI
import TrustSupport

/// What one run of the command line produced, in process (`CLI.run`) or as a child (`CLI.spawn`):
/// SuiteFixtures' one record of a run.
typealias RunResult = ProcessOutput

extension ProcessOutput {
    /// Standard output parsed as a JSON object.
    func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: stdout)
        return try #require(value as? [String: Any], "stdout is not a JSON object", sourceLocation: sourceLocation)
    }
}

/// Running trustx from a test: `run` and `runAll` in process, through the entry the executable's
/// `main` calls (`Trustx.run`); `spawn` and `spawnAll` as a child process, only where the test
/// needs what a process alone has: a working directory for relative paths, or variables library
/// code reads from the process environment itself (SSL_CERT_FILE, SSL_CERT_DIR). Tests of
/// signals, descriptors and terminals start the executable themselves (`binary`).
enum CLI {
    /// The built executable: TRUSTX_BINARY, else `trustx` next to the test bundle (SwiftPM puts
    /// every product of a build in one directory).
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["TRUSTX_BINARY"] { return URL(fileURLWithPath: path) }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("trustx") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// The variables an in-process run is given: those its output depends on. Whatever else a
    /// test sets (SSL_CERT_FILE, XDG_STATE_HOME, HOME, PATH) library code reads from the process's
    /// own environment, so such a test runs the executable (`spawn`).
    static let inProcessVariables: Set = ["NO_COLOR", "TERM", "LANG", "LC_ALL", "LC_CTYPE"]

    /// Runs the command line `arguments` in this process, through the entry the executable's
    /// `main` calls, as `spawn` would run the executable: standard input empty, standard output
    /// not a terminal, a UTF-8 locale and no colour settings unless `extra` gives them, the clock
    /// read once at the start. `standardInput` names a file `-` then reads.
    static func run(_ arguments: [String], environment extra: [String: String] = [:], standardInput: String? = nil)
        throws -> RunResult
    {
        let unsupported = extra.keys.filter { !inProcessVariables.contains($0) }
        guard unsupported.isEmpty else {
            throw TestPKI.Failure(
                message: "\(unsupported.sorted()) is read from the process environment: use CLI.spawn")
        }
        let input = open(standardInput ?? "/dev/null", O_RDONLY)
        guard input >= 0 else { throw POSIXError(.EBADF) }
        defer { close(input) }
        let output = CapturedOutput()
        let errorOutput = CapturedOutput()
        let environment = TrustCLI.Environment(
            noColor: extra["NO_COLOR"], term: extra["TERM"], lcAll: extra["LC_ALL"], lcCType: extra["LC_CTYPE"],
            lang: extra["LANG"] ?? "C.UTF-8", stdoutIsTerminal: false)
        let status = Trustx.run(
            arguments: arguments, environment: environment, standardInput: input, output: .capture(output),
            errorOutput: .capture(errorOutput), now: currentTime())
        return RunResult(status: status, stdout: Data(output.bytes), stderr: Data(errorOutput.bytes))
    }

    /// Runs the trustx executable with `arguments` in `directory`, with a fixed UTF-8 locale and
    /// no colour settings inherited from whoever runs the tests: for what only a process has (a
    /// working directory for relative paths, variables library code reads itself).
    static func spawn(_ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:])
        throws -> RunResult
    {
        var env = ProcessInfo.processInfo.environment
        for key in ["NO_COLOR", "LC_ALL", "LC_CTYPE", "TERM"] { env.removeValue(forKey: key) }
        env["LANG"] = "C.UTF-8"
        for (k, v) in extra { env[k] = v }
        return try Shell.run(binary, arguments, in: directory, environment: env)
    }

    /// Runs the command line once per argument list in process, up to `width` runs at a time,
    /// each on a thread of its own, and returns the results in the order of `runs`. A
    /// catalogue's checks are independent and mostly wait on their handshakes; side by side they
    /// take the time of a few. The caller asserts on the results, on its own thread.
    static func runAll(
        _ runs: [[String]], environment: [String: String] = [:], width: Int = 4
    ) -> [Result<RunResult, any Error>] {
        inParallel(runs.count, width: width) { try run(runs[$0], environment: environment) }
    }

    /// `runAll`, each run a child process started in `directory` with `environment` added, as
    /// `spawn`'s are.
    static func spawnAll(
        _ runs: [[String]], in directory: URL? = nil, environment: [String: String] = [:], width: Int = 4
    ) -> [Result<RunResult, any Error>] {
        inParallel(runs.count, width: width) { try spawn(runs[$0], in: directory, environment: environment) }
    }

    /// Runs `job` for 0..<count, up to `width` at a time, each on a thread of its own (not a
    /// dispatch pool, which runs only as many at once as there are cores), and returns the
    /// results in job order.
    static func inParallel(
        _ count: Int, width: Int = 4, _ job: @escaping @Sendable (Int) throws -> RunResult
    ) -> [Result<RunResult, any Error>] {
        final class Progress: Sendable {
            let state: Mutex<(next: Int, results: [Int: Result<RunResult, any Error>])> = Mutex((0, [:]))
        }
        let progress = Progress()
        let done = DispatchGroup()
        for _ in 0..<min(width, count) {
            done.enter()
            Thread.detachNewThread {
                while true {
                    let i = progress.state.withLock { state in
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard i < count else { break }
                    let result = Result { try job(i) }
                    progress.state.withLock { $0.results[i] = result }
                }
                done.leave()
            }
        }
        done.wait()
        let results = progress.state.withLock { $0.results }
        return (0..<count).map { results[$0]! }
    }
}

enum Shell {
    /// Runs an executable to completion through SuiteFixtures' one runner, standard input empty.
    static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> RunResult {
        try ProcessRunner.run(executable.path, arguments, in: directory, environment: environment)
    }

    /// Runs `openssl` with `arguments`, failing the test with its message when it fails.
    static func openssl(_ arguments: [String], in directory: URL) throws {
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, in: directory)
        if result.status != 0 {
            throw TestPKI.Failure(message: "openssl \(arguments.joined(separator: " ")): \(result.err)")
        }
    }
}

/// A certificate's dates as openssl reads them, the outside reading tests compare trustx's with.
enum OpenSSLDates {
    /// `openssl x509 -noout -dates` of the PEM file at `path`, as instants.
    static func read(_ path: String) throws -> (notBefore: Timestamp, notAfter: Timestamp) {
        let result = try Shell.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "x509", "-in", path, "-noout", "-dates"])
        guard result.status == 0 else { throw TestPKI.Failure(message: "openssl x509 -dates \(path): \(result.err)") }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy zzz"
        var found: [String: Timestamp] = [:]
        for line in result.out.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let squeezed = parts[1].split(separator: " ").joined(separator: " ")
            let date = try #require(formatter.date(from: squeezed), "openssl printed \(parts[1])")
            found[parts[0]] = Timestamp(secondsSinceEpoch: Int64(date.timeIntervalSince1970))
        }
        return (try #require(found["notBefore"]), try #require(found["notAfter"]))
    }
}

extension TestPKI {
    /// The command line's files (SuiteFixtures' `TestPKI.cli`), made once per test process.
    static func get() throws -> TestPKI { try cli.get() }
}

/// A loopback listener whose connections are handled by `handle` on their own threads.
final class LoopbackListener: @unchecked Sendable {  // the fd is set once, then only read
    let fd: Int32
    let port: Int

    init(_ handle: @escaping @Sendable (Int32) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(listener, p, len) == 0 && listen(listener, 16) == 0 && getsockname(listener, p, &len) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        fd = listener
        port = Int(UInt16(bigEndian: addr.sin_port))
        Thread.detachNewThread {
            while true {
                let c = accept(listener, nil, nil)
                if c < 0 { return }
                Thread.detachNewThread { handle(c) }
            }
        }
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
