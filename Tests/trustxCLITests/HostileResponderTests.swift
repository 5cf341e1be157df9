import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The built `trustx check` against responders that mean harm: an AIA, OCSP or CRL URL answering
/// `Content-Length: -1` or a chunk size that overflows once added to what was read (this crashed
/// the process with SIGILL), one that never answers (fetching then had time of its own past
/// `--timeout`), and one serving an issuer with the right name and the wrong key. Each run must
/// end with an exit status below 128 and a reason in one line.
final class HostileResponderTests: XCTestCase {
    static let negativeLength = "HTTP/1.1 200 OK\r\nContent-Length: -1\r\nConnection: close\r\n\r\n"
    static let overflowingChunk =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\nX\r\n7fffffffffffffff\r\n"

    var cleanup: [() -> Void] = []
    override func tearDown() {
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

    /// A responder on 127.0.0.1 that reads each request's head and answers `reply` (nil: holds the
    /// connection open and says nothing, as a responder that never answers).
    func responder(_ reply: String?) throws -> Int { try responder(bytes: reply.map { Array($0.utf8) }) }

    func responder(bytes reply: [UInt8]?, after delay: useconds_t = 0) throws -> Int {
        let listener = try LoopbackListener { fd in
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), head.count < 65_536, read(fd, &byte, 1) == 1 {
                head.append(byte)
            }
            if let reply {
                usleep(delay)
                _ = reply.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            } else {
                sleep(20)
            }
            close(fd)
        }
        cleanup.append { listener.stop() }
        return listener.port
    }

    /// The root and intermediate, made by openssl once for the class (`OpenSSLPKI.makeCAs`);
    /// each test copies them and issues its own leaf.
    static let cas: Result<URL, any Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-hostile-cas-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try OpenSSLPKI.makeCAs(in: dir, root: "Hostile Test Root", intermediate: "Hostile Test Intermediate")
        return dir
    }

    override class func tearDown() {
        if case .success(let dir) = cas { try? FileManager.default.removeItem(at: dir) }
        super.tearDown()
    }

    /// Root, intermediate and a leaf for 127.0.0.1 with `leafExtensions`, made by openssl, in `dir`.
    func makePKI(in dir: URL, leafExtensions: String, leafIssuedByRoot: Bool = false) throws {
        let cas = try Self.cas.get()
        for name in OpenSSLPKI.caFiles {
            try FileManager.default.copyItem(at: cas.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        try OpenSSLPKI.issueLeaf(in: dir, leafExtensions: leafExtensions, leafIssuedByRoot: leafIssuedByRoot)
    }

    /// `openssl s_server` presenting `leaf.pem` alone.
    func serveLeaf(in dir: URL) throws -> Int {
        let server = try OpenSSLServer(
            [
                "-cert", dir.appendingPathComponent("leaf.pem").path, "-key",
                dir.appendingPathComponent("leaf.key").path,
            ],
            in: dir)
        cleanup.append { server.stop() }
        return server.port
    }

    /// The one line of `text` that contains `needle`.
    func line(containing needle: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.contains(needle) }.map(String.init)
    }

    // MARK: AIA, on by default

    func checkWithHostileAIA(_ reply: String, expecting reason: String) throws {
        let dir = try scratch()
        let aia = try responder(reply)
        try makePKI(in: dir, leafExtensions: "authorityInfoAccess=caIssuers;URI:http://127.0.0.1:\(aia)/int.cer")
        let port = try serveLeaf(in: dir)
        let r = try CLI.run([
            "check", "127.0.0.1:\(port)", "--anchor", dir.appendingPathComponent("ca.pem").path, "--timeout", "5",
        ])
        // Not trusted (the intermediate could not be fetched), and the fetch's reason in the report.
        XCTAssertEqual(r.status, 1, r.out + r.err)
        let fetch = try XCTUnwrap(line(containing: "/int.cer", in: r.out), r.out)
        XCTAssertTrue(fetch.contains("failed: http://127.0.0.1:\(aia)/int.cer: \(reason)"), fetch)
    }

    func testAIAResponderWithNegativeContentLengthIsAFailedFetch() throws {
        try checkWithHostileAIA(Self.negativeLength, expecting: "malformed Content-Length \"-1\"")
    }

    func testAIAResponderWithOverflowingChunkSizeIsAFailedFetch() throws {
        try checkWithHostileAIA(Self.overflowingChunk, expecting: "the response is larger than 64 KiB")
    }

    func testATSAndExportSurviveAnAIAResponderWithNegativeContentLength() throws {
        let dir = try scratch()
        let aia = try responder(Self.negativeLength)
        try makePKI(in: dir, leafExtensions: "authorityInfoAccess=caIssuers;URI:http://127.0.0.1:\(aia)/int.cer")
        let port = try serveLeaf(in: dir)
        let anchor = dir.appendingPathComponent("ca.pem").path
        // Both connect and complete the chain as check does; the fetch fails, the chain stays
        // incomplete, and each still writes its answer: ats that the default policy fails (1).
        let ats = try CLI.run(["ats", "127.0.0.1:\(port)", "--anchor", anchor, "--timeout", "5"])
        XCTAssertEqual(ats.status, 1, ats.out + ats.err)
        XCTAssertTrue(ats.out.contains("chain: Issuer not found (errSecCreateChainFailed)"), ats.out)
        let export = try CLI.run(["export", "plist", "127.0.0.1:\(port)", "--anchor", anchor, "--timeout", "5"])
        XCTAssertEqual(export.status, 0, export.out + export.err)
        XCTAssertTrue(export.out.contains("<key>NSPinnedDomains</key>"), export.out)
        XCTAssertTrue(export.err.contains("these settings do not trust the chain"), export.err)
    }

    func testAIAIssuerWithTheRightNameAndTheWrongKeyIsReportedAsFetched() throws {
        let dir = try scratch()
        // The responder serves a certificate named as the intermediate, with a key of its own.
        try Shell.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "impostor.key", "-out", "impostor.der", "-outform", "DER", "-days", "30", "-subj",
                "/CN=Hostile Test Intermediate", "-addext", "basicConstraints=critical,CA:TRUE",
            ], in: dir)
        let impostor = [UInt8](try Data(contentsOf: dir.appendingPathComponent("impostor.der")))
        let aia = try responder(
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: \(impostor.count)\r\n\r\n".utf8) + impostor)
        try makePKI(in: dir, leafExtensions: "authorityInfoAccess=caIssuers;URI:http://127.0.0.1:\(aia)/int.cer")
        let port = try serveLeaf(in: dir)
        let r = try CLI.run([
            "check", "127.0.0.1:\(port)", "--anchor", dir.appendingPathComponent("ca.pem").path, "--timeout", "5",
            "--format", "json",
        ])
        XCTAssertEqual(r.status, 1, r.out + r.err)
        let steps = try XCTUnwrap(try r.json()["steps"] as? [[String: Any]], r.out)
        let chain = try XCTUnwrap(steps.first { $0["id"] as? String == "chain" }, r.out)
        let detail = try XCTUnwrap(chain["detail"] as? String, "\(chain)")
        XCTAssertTrue(
            detail.hasPrefix("A certificate named CN=Hostile Test Intermediate fetched from the AIA caIssuers URL"),
            detail)
        XCTAssertFalse(detail.contains("would also try"), detail)
        XCTAssertFalse(detail.contains("No certificate named"), detail)
    }

    // MARK: --revocation

    /// `check` with `--revocation` against a leaf whose OCSP and CRL URLs both reach a responder
    /// answering `reply`; the chain is complete, so AIA is not involved.
    func checkWithHostileRevocation(_ reply: String?, files: Bool, timeout: String = "5") throws -> RunResult {
        let dir = try scratch()
        let url = "http://127.0.0.1:\(try responder(reply))"
        try makePKI(
            in: dir,
            leafExtensions: "authorityInfoAccess=OCSP;URI:\(url)/ocsp\ncrlDistributionPoints=URI:\(url)/ca.crl",
            leafIssuedByRoot: true)
        let anchor = ["--anchor", dir.appendingPathComponent("ca.pem").path]
        let target =
            files ? ["--chain", dir.appendingPathComponent("leaf.pem").path] : ["127.0.0.1:\(try serveLeaf(in: dir))"]
        return try CLI.run(["check"] + target + anchor + ["--revocation", "--timeout", timeout])
    }

    func testRevocationResponderWithNegativeContentLengthIsAFailedFetch() throws {
        let r = try checkWithHostileRevocation(Self.negativeLength, files: false)
        // Apple's revocation checking fails soft: trusted, with each failed fetch named.
        XCTAssertEqual(r.status, 0, r.out + r.err)
        let note = try XCTUnwrap(line(containing: "/ocsp", in: r.err), r.err)
        XCTAssertTrue(note.hasPrefix("Note: --revocation: http://127.0.0.1:"), note)
        XCTAssertTrue(note.hasSuffix(": malformed Content-Length \"-1\""), note)
        XCTAssertNotNil(line(containing: "/ca.crl: malformed Content-Length \"-1\"", in: r.err), r.err)
    }

    func testRevocationResponderWithOverflowingChunkSizeIsAFailedFetch() throws {
        let r = try checkWithHostileRevocation(Self.overflowingChunk, files: true)
        XCTAssertEqual(r.status, 0, r.out + r.err)
        XCTAssertNotNil(
            line(containing: "/ocsp", in: r.err).flatMap { $0.hasSuffix("larger than 64 KiB") ? $0 : nil }, r.err)
        XCTAssertNotNil(line(containing: "/ca.crl: the response is larger than 4096 KiB", in: r.err), r.err)
    }

    // MARK: one deadline

    func testTimeoutIsAcceptedWithChainFilesAndBoundsTheirRevocationFetches() throws {
        // A responder that never answers: fetching ends before the run's deadline and fails
        // soft. Before, --timeout was refused with --chain and fetching had a fixed 10 s. A
        // deadline of 0.6 s is as telling as a longer one: nothing but the fetch waits on it.
        let r = try checkWithHostileRevocation(nil, files: true, timeout: "0.6")
        XCTAssertEqual(r.status, 0, r.out + r.err)
        XCTAssertTrue(line(containing: "/ocsp", in: r.err)?.hasSuffix(": timed out") == true, r.err)
        XCTAssertNotNil(line(containing: "/ca.crl: not tried: the deadline had passed", in: r.err), r.err)
        XCTAssertTrue(r.out.contains("no revocation information could be fetched"), r.out)
    }

    func testRevocationFetchesGetWhatIsLeftOfTheRunsTimeoutNotTimeOfTheirOwn() throws {
        // The server takes 0.5 s of the run's 1.5 s before its handshake starts; the OCSP
        // responder answers HTTP 500 after 1.1 s, and the CRL revokes the leaf. Fetching with a
        // fresh 1.5 s (less the tenth kept back) reaches the OCSP answer and the leaf reads
        // revoked; with what is left of the run (under 0.9 s), the OCSP fetch times out first and
        // revocation fails soft. The handshake keeps the full second of slack it had at 3 s of 4.
        let dir = try scratch()
        let ocsp = try responder(
            bytes: Array("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n".utf8), after: 1_100_000)
        let crlPath = dir.appendingPathComponent("crl.der")
        let crl = try LoopbackListener { fd in
            var byte: UInt8 = 0
            var head: [UInt8] = []
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), read(fd, &byte, 1) == 1 { head.append(byte) }
            let body = [UInt8]((try? Data(contentsOf: crlPath)) ?? Data())
            let reply = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            _ = reply.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        cleanup.append { crl.stop() }
        try makePKI(
            in: dir,
            leafExtensions:
                "authorityInfoAccess=OCSP;URI:http://127.0.0.1:\(ocsp)/ocsp\n"
                + "crlDistributionPoints=URI:http://127.0.0.1:\(crl.port)/ca.crl",
            leafIssuedByRoot: true)
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
        let serverPort = try serveLeaf(in: dir)
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

        let r = try CLI.run([
            "check", "127.0.0.1:\(slow.port)", "--anchor", dir.appendingPathComponent("ca.pem").path, "--revocation",
            "--timeout", "1.5",
        ])
        XCTAssertEqual(r.status, 0, r.out + r.err)
        XCTAssertTrue(line(containing: "/ocsp", in: r.err)?.hasSuffix(": timed out") == true, r.err)
        XCTAssertNotNil(line(containing: "/ca.crl: not tried: the deadline had passed", in: r.err), r.err)
        XCTAssertFalse(r.out.contains("revoked"), r.out)
    }
}
