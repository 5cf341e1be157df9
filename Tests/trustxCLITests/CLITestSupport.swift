import Foundation
import SuiteFixtures
import Synchronization
import Testing
import TrustCLI

/// What one run of the command line produced, in process (`CLI.run`) or as a child (`CLI.spawn`).
struct RunResult {
    var status: Int32
    var stdout: Data
    var stderr: Data

    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }

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
    /// Runs an executable to completion, capturing both streams through files (pipes could
    /// fill up and deadlock while the other one is being read).
    static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> RunResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        try ChildLaunch.run { try process.run() }
        process.waitForExit()
        try outHandle.close()
        try errHandle.close()
        return RunResult(
            status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
            stderr: try Data(contentsOf: errURL))
    }

    /// Runs `openssl` with `arguments`, failing the test with its message when it fails.
    static func openssl(_ arguments: [String], in directory: URL) throws {
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, in: directory)
        if result.status != 0 {
            throw TestPKI.Failure(message: "openssl \(arguments.joined(separator: " ")): \(result.err)")
        }
    }
}

/// A small PKI made with the openssl command line in a temporary directory: a root CA
/// (`ca.pem`), a leaf for IP 127.0.0.1 with a matching SAN (`leaf.pem`), valid from now, and a
/// hashed directory `store/` holding the CA, to stand in for the system trust store.
struct TestPKI: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    let directory: URL

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes a CRL, made by `openssl ca -gencrl` with the test CA, that lists the leaf's serial
    /// (0x1234) as revoked, into `dir`; returns its path.
    func crlRevokingTheLeaf(in dir: URL) throws -> String {
        try
            "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\ncrlnumber = crlnumber\ndefault_md = sha256\ndefault_crl_days = 30\n"
            .write(to: dir.appendingPathComponent("ca.cnf"), atomically: true, encoding: .utf8)
        try "R\t300101000000Z\t250101000000Z\t1234\tunknown\t/CN=127.0.0.1\n".write(
            to: dir.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
        try "01\n".write(to: dir.appendingPathComponent("crlnumber"), atomically: true, encoding: .utf8)
        try Shell.openssl(
            [
                "ca", "-gencrl", "-batch", "-config", "ca.cnf", "-keyfile", path("ca.key"), "-cert", path("ca.pem"),
                "-out", "crl.pem",
            ],
            in: dir)
        return dir.appendingPathComponent("crl.pem").path
    }

    /// Made once per test process; the files are only read afterwards.
    static let shared: Result<TestPKI, Error> = Result { try TestPKI.make() }

    static func get() throws -> TestPKI { try shared.get() }

    static func make() throws -> TestPKI {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-cli-pki-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Shell.openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650", "-subj", "/CN=trustx Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: dir)
        try Shell.openssl(
            ["req"] + ec + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=127.0.0.1"], in: dir)
        try """
        basicConstraints=CA:FALSE
        keyUsage=critical,digitalSignature
        extendedKeyUsage=serverAuth
        subjectAltName=IP:127.0.0.1

        """.write(to: dir.appendingPathComponent("leaf.ext"), atomically: true, encoding: .utf8)
        try Shell.openssl(
            [
                "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "4660",
                "-days", "365", "-extfile", "leaf.ext", "-out", "leaf.pem",
            ], in: dir)
        // A self-signed certificate whose subject carries an ANSI escape, a bidi override and a
        // C1 CSI: what a hostile server could present.
        let hostile = "/CN=evil\u{1B}[31mred\u{202E}moc.elgoog\u{9B}2J"
        try Shell.openssl(
            ["req", "-x509"] + ec + [
                "-utf8", "-keyout", "hostile.key", "-out", "hostile.pem", "-days", "30", "-subj", hostile,
            ], in: dir)
        // The CA in the other formats --anchor accepts, and the leaf with its chain as PKCS#12.
        try Shell.openssl(["x509", "-in", "ca.pem", "-outform", "DER", "-out", "ca.der"], in: dir)
        try Shell.openssl(["crl2pkcs7", "-nocrl", "-certfile", "ca.pem", "-outform", "DER", "-out", "ca.p7b"], in: dir)
        try Shell.openssl(
            [
                "pkcs12", "-export", "-in", "leaf.pem", "-inkey", "leaf.key", "-certfile", "ca.pem",
                "-passout", "pass:secret", "-out", "leaf.p12",
            ], in: dir)
        // A system trust store holding only the test CA, in OpenSSL's hashed-directory layout.
        let store = dir.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("ca.pem"), to: store.appendingPathComponent("ca.pem"))
        try Shell.openssl(["rehash", store.path], in: dir)
        try "not a certificate\n".write(
            to: dir.appendingPathComponent("garbage.pem"), atomically: true, encoding: .utf8)
        return TestPKI(directory: dir)
    }
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
