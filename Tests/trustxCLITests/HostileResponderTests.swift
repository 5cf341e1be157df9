import Foundation
import SuiteFixtures
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `trustx check` against responders that mean harm: an AIA, OCSP or CRL URL answering
/// `Content-Length: -1` or a chunk size that overflows once added to what was read (this crashed
/// the process with SIGILL), one that answers only after the run's deadline (fetching then had
/// time of its own past `--timeout`), and one serving an issuer with the right name and the
/// wrong key. Each run must end with an exit status below 128 and a reason in one line.
@Suite(.serialized, .onTestThreads, .fixture(tearDown: hostileResponderTestsTearDown)) final class HostileResponderTests
{
    static let negativeLength = "HTTP/1.1 200 OK\r\nContent-Length: -1\r\nConnection: close\r\n\r\n"
    static let overflowingChunk =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\nX\r\n7fffffffffffffff\r\n"

    var cleanup: [() -> Void] = []
    deinit {
        cleanup.reversed().forEach { $0() }
        cleanup = []
    }

    /// A scratch directory removed after the test.
    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        cleanup.append { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// What the class's responder answers a request whose path starts with a given segment
    /// (`int.cer`, `ocsp`, `ca.crl`): `bytes` after `delay` microseconds.
    struct Answer: Sendable {
        var bytes: [UInt8]
        var delay: useconds_t = 0

        init(_ text: String) { bytes = Array(text.utf8) }
        init(bytes: [UInt8], after delay: useconds_t = 0) {
            self.bytes = bytes
            self.delay = delay
        }
    }

    /// Each test sets the answers it needs before its run; tests of a class run one at a time.
    static let answers = Mutex<[String: Answer]>([:])

    /// One responder on 127.0.0.1 for the class, answering from `answers`: the leaves name it in
    /// their AIA, OCSP and CRL URLs, so they and their servers are made once, not per test.
    static let responder: Result<LoopbackListener, any Error> = Result {
        try LoopbackListener { fd in
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), head.count < 65_536, read(fd, &byte, 1) == 1 {
                head.append(byte)
            }
            // "GET /ocsp/... HTTP/1.1": the first segment of the path picks the answer.
            let target = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ").dropFirst()
                .first
            let segment = target.flatMap { $0.split(separator: "/").first }.map(String.init) ?? ""
            let answer =
                answers.withLock { $0[segment] } ?? Answer("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            usleep(answer.delay)
            _ = answer.bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }

    /// Sets what the responder answers for this test.
    func answer(_ answers: [String: Answer]) throws {
        _ = try Self.responder.get()
        Self.answers.withLock { $0 = answers }
    }

    /// A PKI made by openssl once for the class in its own directory, and `openssl s_server`
    /// presenting its `leaf.pem` alone, started on first use.
    final class SharedPKI: Sendable {
        let dir: URL
        let server = Mutex<Result<OpenSSLServer, any Error>?>(nil)

        init(_ name: String, leafExtensions: (Int) -> String, leafIssuedByRoot: Bool) throws {
            let port = try HostileResponderTests.responder.get().port
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-hostile-\(name)-\(getpid())")
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try OpenSSLPKI.makeThreeLevels(
                in: dir, root: "Hostile Test Root", intermediate: "Hostile Test Intermediate",
                leafExtensions: leafExtensions(port), leafIssuedByRoot: leafIssuedByRoot)
        }

        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

        /// The port of the server presenting the leaf alone.
        func port() throws -> Int {
            let dir = self.dir
            return try server.withLock { server in
                if server == nil {
                    server = Result {
                        try OpenSSLServer(
                            [
                                "-cert", dir.appendingPathComponent("leaf.pem").path, "-key",
                                dir.appendingPathComponent("leaf.key").path,
                            ], in: dir)
                    }
                }
                return try server!.get().port
            }
        }

        func remove() {
            server.withLock { if case .success(let s) = $0 { s.stop() } }
            try? FileManager.default.removeItem(at: dir)
        }
    }

    /// A leaf issued by the intermediate, which the server does not send, whose AIA caIssuers
    /// URL is the responder's `/int.cer`.
    static let aia: Result<SharedPKI, any Error> = Result {
        try SharedPKI(
            "aia", leafExtensions: { "authorityInfoAccess=caIssuers;URI:http://127.0.0.1:\($0)/int.cer" },
            leafIssuedByRoot: false)
    }

    /// A leaf issued by the root whose OCSP and CRL URLs are the responder's `/ocsp` and
    /// `/ca.crl`: the chain is complete, so AIA is not involved.
    static let revocation: Result<SharedPKI, any Error> = Result {
        try SharedPKI(
            "revocation",
            leafExtensions: {
                "authorityInfoAccess=OCSP;URI:http://127.0.0.1:\($0)/ocsp\ncrlDistributionPoints=URI:http://127.0.0.1:\($0)/ca.crl"
            }, leafIssuedByRoot: true)
    }

    static func suiteTearDown() {
        for pki in [aia, revocation] { if case .success(let p) = pki { p.remove() } }
        if case .success(let listener) = responder { listener.stop() }
    }

    /// The one line of `text` that contains `needle`.
    func line(containing needle: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.contains(needle) }.map(String.init)
    }

    // MARK: AIA, on by default

    func checkWithHostileAIA(_ reply: String, expecting reason: String) throws {
        try answer(["int.cer": Answer(reply)])
        let pki = try Self.aia.get()
        let aia = try Self.responder.get().port
        let r = try CLI.run(["check", "127.0.0.1:\(try pki.port())", "--anchor", pki.path("ca.pem"), "--timeout", "5"])
        // Not trusted (the intermediate could not be fetched), and the fetch's reason in the report.
        #expect(r.status == 1, "\(r.out + r.err)")
        let fetch = try #require(line(containing: "/int.cer", in: r.out), "\(r.out)")
        #expect(fetch.contains("failed: http://127.0.0.1:\(aia)/int.cer: \(reason)"), "\(fetch)")
    }

    @Test func testAIAResponderWithNegativeContentLengthIsAFailedFetch() throws {
        try checkWithHostileAIA(Self.negativeLength, expecting: "malformed Content-Length \"-1\"")
    }

    @Test func testAIAResponderWithOverflowingChunkSizeIsAFailedFetch() throws {
        try checkWithHostileAIA(Self.overflowingChunk, expecting: "the response is larger than 64 KiB")
    }

    @Test func testATSAndExportSurviveAnAIAResponderWithNegativeContentLength() throws {
        try answer(["int.cer": Answer(Self.negativeLength)])
        let pki = try Self.aia.get()
        let port = try pki.port()
        let anchor = pki.path("ca.pem")
        // Both connect and complete the chain as check does; the fetch fails, the chain stays
        // incomplete, and each still writes its answer: ats that the default policy fails (1).
        // The two runs are independent and go side by side.
        let runs = CLI.runAll([
            ["ats", "127.0.0.1:\(port)", "--anchor", anchor, "--timeout", "5"],
            ["export", "plist", "127.0.0.1:\(port)", "--anchor", anchor, "--timeout", "5"],
        ])
        let ats = try runs[0].get()
        #expect(ats.status == 1, "\(ats.out + ats.err)")
        #expect(ats.out.contains("chain: Issuer not found (errSecCreateChainFailed)"), "\(ats.out)")
        let export = try runs[1].get()
        #expect(export.status == 0, "\(export.out + export.err)")
        #expect(export.out.contains("<key>NSPinnedDomains</key>"), "\(export.out)")
        #expect(export.err.contains("these settings do not trust the chain"), "\(export.err)")
    }

    @Test func testAIAIssuerWithTheRightNameAndTheWrongKeyIsReportedAsFetched() throws {
        let dir = try scratch()
        // The responder serves a certificate named as the intermediate, with a key of its own.
        try Shell.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "impostor.key", "-out", "impostor.der", "-outform", "DER", "-days", "30", "-subj",
                "/CN=Hostile Test Intermediate", "-addext", "basicConstraints=critical,CA:TRUE",
            ], in: dir)
        let impostor = [UInt8](try Data(contentsOf: dir.appendingPathComponent("impostor.der")))
        try answer([
            "int.cer": Answer(
                bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: \(impostor.count)\r\n\r\n".utf8) + impostor)
        ])
        let pki = try Self.aia.get()
        let r = try CLI.run([
            "check", "127.0.0.1:\(try pki.port())", "--anchor", pki.path("ca.pem"), "--timeout", "5", "--format",
            "json",
        ])
        #expect(r.status == 1, "\(r.out + r.err)")
        let steps = try #require(try r.json()["steps"] as? [[String: Any]], "\(r.out)")
        let chain = try #require(steps.first { $0["id"] as? String == "chain" }, "\(r.out)")
        let detail = try #require(chain["detail"] as? String, "\(chain)")
        #expect(
            detail.hasPrefix("A certificate named CN=Hostile Test Intermediate fetched from the AIA caIssuers URL"),
            "\(detail)")
        #expect(!(detail.contains("would also try")), "\(detail)")
        #expect(!(detail.contains("No certificate named")), "\(detail)")
    }

    // MARK: --revocation

    /// `check` with `--revocation` against a leaf whose OCSP and CRL URLs both reach a responder
    /// answering `reply`; the chain is complete, so AIA is not involved.
    func checkWithHostileRevocation(_ reply: String, files: Bool) throws -> RunResult {
        try answer(["ocsp": Answer(reply), "ca.crl": Answer(reply)])
        let pki = try Self.revocation.get()
        let anchor = ["--anchor", pki.path("ca.pem")]
        let target = files ? ["--chain", pki.path("leaf.pem")] : ["127.0.0.1:\(try pki.port())"]
        return try CLI.run(["check"] + target + anchor + ["--revocation", "--timeout", "5"])
    }

    @Test func testRevocationResponderWithNegativeContentLengthIsAFailedFetch() throws {
        let r = try checkWithHostileRevocation(Self.negativeLength, files: false)
        // Apple's revocation checking fails soft: trusted, with each failed fetch named.
        #expect(r.status == 0, "\(r.out + r.err)")
        let note = try #require(line(containing: "/ocsp", in: r.err), "\(r.err)")
        #expect(note.hasPrefix("Note: --revocation: http://127.0.0.1:"), "\(note)")
        #expect(note.hasSuffix(": malformed Content-Length \"-1\""), "\(note)")
        #expect((line(containing: "/ca.crl: malformed Content-Length \"-1\"", in: r.err)) != nil, "\(r.err)")
    }

    @Test func testRevocationResponderWithOverflowingChunkSizeIsAFailedFetch() throws {
        let r = try checkWithHostileRevocation(Self.overflowingChunk, files: true)
        #expect(r.status == 0, "\(r.out + r.err)")
        #expect(
            (line(containing: "/ocsp", in: r.err).flatMap { $0.hasSuffix("larger than 64 KiB") ? $0 : nil }) != nil,
            "\(r.err)")
        #expect((line(containing: "/ca.crl: the response is larger than 4096 KiB", in: r.err)) != nil, "\(r.err)")
    }

    // MARK: one deadline

    /// Two runs side by side, each waiting out a deadline, against one OCSP responder that
    /// answers HTTP 500 after 1.1 s and a CRL that revokes the leaf. Fetching with time of its
    /// own would reach the OCSP answer and then the CRL, and the leaf would read revoked; bound
    /// by the run, the OCSP fetch times out, the CRL is not tried, and revocation fails soft.
    @Test func testRevocationFetchesGetWhatIsLeftOfTheRunsTimeoutNotTimeOfTheirOwn() throws {
        // Chain files: to a run of 0.6 s the responder never answers. Before, --timeout was
        // refused with --chain and fetching had a fixed 10 s. A deadline of 0.6 s is as telling
        // as a longer one: nothing but the fetch waits on it.
        // A server: it takes 0.5 s of the run's 1.5 s before its handshake starts. Fetching with
        // a fresh 1.5 s (less the tenth kept back) would reach the OCSP answer; with what is
        // left of the run (under 0.9 s) it times out first. The handshake keeps the full second
        // of slack it had at 3 s of 4.
        let dir = try scratch()
        let pki = try Self.revocation.get()
        // A CRL from the root revoking the leaf (serial 3), made in this test's own directory.
        for name in ["ca.pem", "ca.key"] {
            try FileManager.default.copyItem(
                at: pki.dir.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        try "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\ncrlnumber = crlnumber\ndefault_md = sha256\n".write(
            to: dir.appendingPathComponent("ca.cnf"), atomically: true, encoding: .utf8)
        try "R\t300101000000Z\t250101000000Z\t03\tunknown\t/CN=127.0.0.1\n".write(
            to: dir.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
        try "01\n".write(to: dir.appendingPathComponent("crlnumber"), atomically: true, encoding: .utf8)
        try Shell.openssl(
            [
                "ca", "-gencrl", "-batch", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.pem", "-crldays",
                "30", "-out", "crl.pem",
            ], in: dir)
        try Shell.openssl(["crl", "-in", "crl.pem", "-outform", "DER", "-out", "crl.der"], in: dir)
        let crl = [UInt8](try Data(contentsOf: dir.appendingPathComponent("crl.der")))
        try answer([
            "ocsp": Answer(
                bytes: Array("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n".utf8), after: 1_100_000),
            "ca.crl": Answer(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: \(crl.count)\r\n\r\n".utf8) + crl),
        ])
        let serverPort = try pki.port()
        let slow = try LoopbackListener { client in
            usleep(500_000)
            let upstream = RunDeadlineTests.connectLoopback(serverPort)
            guard upstream >= 0 else {
                close(client)
                return
            }
            RunDeadlineTests.pump(client, upstream)
        }
        cleanup.append { slow.stop() }

        let runs = CLI.runAll([
            [
                "check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--revocation", "--timeout",
                "0.6",
            ],
            ["check", "127.0.0.1:\(slow.port)", "--anchor", pki.path("ca.pem"), "--revocation", "--timeout", "1.5"],
        ])
        let files = try runs[0].get()
        #expect(files.status == 0, "\(files.out + files.err)")
        #expect(line(containing: "/ocsp", in: files.err)?.hasSuffix(": timed out") == true, "\(files.err)")
        #expect((line(containing: "/ca.crl: not tried: the deadline had passed", in: files.err)) != nil, "\(files.err)")
        #expect(files.out.contains("no revocation information could be fetched"), "\(files.out)")
        let r = try runs[1].get()
        #expect(r.status == 0, "\(r.out + r.err)")
        #expect(line(containing: "/ocsp", in: r.err)?.hasSuffix(": timed out") == true, "\(r.err)")
        #expect((line(containing: "/ca.crl: not tried: the deadline had passed", in: r.err)) != nil, "\(r.err)")
        #expect(!r.out.contains("revoked"), "\(r.out)")
    }
}

/// HostileResponderTests's shared tear-down, outside the type so its suite attribute can name it.
private func hostileResponderTestsTearDown() { HostileResponderTests.suiteTearDown() }
