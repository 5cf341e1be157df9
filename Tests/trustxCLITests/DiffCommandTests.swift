import Foundation
import XCTest

/// `trustx diff` against `openssl s_server`: the test CA's leaf, the same key in a renewed
/// certificate (made by openssl from the leaf's CSR with another serial and validity), and a leaf
/// with its own key from another CA. Servers start once for the class.
final class DiffCommandTests: XCTestCase {
    nonisolated(unsafe) static var servers: [OpenSSLServer] = []
    nonisolated(unsafe) static var startError: Error?
    nonisolated(unsafe) static var directory: URL?

    override class func setUp() {
        super.setUp()
        do {
            let pki = try TestPKI.get()
            let dir = pki.directory.appendingPathComponent("diff")
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            directory = dir
            // The renewal: the leaf's own CSR (so its key), another serial, another validity.
            try Shell.openssl(
                [
                    "x509", "-req", "-in", pki.path("leaf.csr"), "-CA", pki.path("ca.pem"), "-CAkey",
                    pki.path("ca.key"),
                    "-set_serial", "4661", "-days", "200", "-extfile", pki.path("leaf.ext"), "-out", "renewed.pem",
                ], in: dir)
            // Another CA with a leaf of its own key for the same address.
            let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
            try Shell.openssl(
                ["req", "-x509"] + ec + [
                    "-keyout", "other-ca.key", "-out", "other-ca.pem", "-days", "3650", "-subj", "/CN=Other Test CA",
                    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
                ], in: dir)
            try Shell.openssl(
                ["req"] + ec + ["-keyout", "other.key", "-out", "other.csr", "-subj", "/CN=127.0.0.1"], in: dir)
            try Shell.openssl(
                [
                    "x509", "-req", "-in", "other.csr", "-CA", "other-ca.pem", "-CAkey", "other-ca.key",
                    "-set_serial", "77", "-days", "365", "-extfile", pki.path("leaf.ext"), "-out", "other.pem",
                ], in: dir)
            servers = [
                try OpenSSLServer(["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: dir),
                try OpenSSLServer(["-cert", "renewed.pem", "-key", pki.path("leaf.key")], in: dir),
                try OpenSSLServer(["-cert", "other.pem", "-key", "other.key"], in: dir),
            ]
        } catch {
            startError = error
        }
    }

    override class func tearDown() {
        for s in servers { s.stop() }
        servers = []
        super.tearDown()
    }

    func targets() throws -> [String] {
        if let e = Self.startError { throw e }
        return Self.servers.map { "127.0.0.1:\($0.port)" }
    }

    func testARenewedCertificateWithTheSameKeyIsReportedAsSameKeyAndExitsZero() throws {
        let pki = try TestPKI.get()
        let t = try targets()
        let run = try CLI.run(["diff", t[0], t[1], "--anchor", pki.path("ca.pem")])
        XCTAssertEqual(run.status, 0, run.out + run.err)
        XCTAssertTrue(run.out.contains("[0] same key, new certificate"), run.out)
        XCTAssertTrue(run.out.contains("Leaf key  same"), run.out)
        // openssl was asked for serial 4660 (0x1234) and 4661 (0x1235).
        XCTAssertTrue(run.out.contains("serial\n        A  1234\n        B  1235"), run.out)
        XCTAssertTrue(run.out.contains("notAfter"), run.out)
        XCTAssertFalse(run.out.contains("subjectAltNames"), run.out)
    }

    func testServersOfDifferentCAsAreDifferentAndExitOne() throws {
        let pki = try TestPKI.get()
        let t = try targets()
        let run = try CLI.run(["diff", t[0], t[2], "--anchor", pki.path("ca.pem"), "--format", "json"])
        XCTAssertEqual(run.status, 1, run.out + run.err)
        let doc = try run.json()
        XCTAssertEqual(doc["sameLeafKey"] as? Bool, false)
        XCTAssertEqual(doc["sameVerdict"] as? Bool, false)
        let presented = try XCTUnwrap(doc["presented"] as? [[String: Any]])
        XCTAssertEqual(presented.first?["relation"] as? String, "different")
        let fields = (presented.first?["differences"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
        XCTAssertTrue(fields?.contains("issuer") ?? false, "\(String(describing: fields))")
        XCTAssertTrue(fields?.contains("key") ?? false, "\(String(describing: fields))")
        let steps = try XCTUnwrap(doc["steps"] as? [[String: Any]])
        XCTAssertFalse(steps.isEmpty, run.out)
        let b = (doc["b"] as? [String: Any])?["report"] as? [String: Any]
        XCTAssertEqual((b?["verdict"] as? [String: Any])?["trusted"] as? Bool, false)
    }

    func testAChainFileSideMatchesTheServerThatSendsIt() throws {
        let pki = try TestPKI.get()
        let t = try targets()
        let run = try CLI.run([
            "diff", "file:" + pki.path("leaf.pem"), t[0], "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1",
        ])
        XCTAssertEqual(run.status, 0, run.out + run.err)
        XCTAssertTrue(run.out.contains("[0] same certificate"), run.out)
        XCTAssertTrue(run.out.contains("Steps whose status differs\n  none"), run.out)
    }

    func testAnUnreachableSideExitsSixtyNineNamingIt() throws {
        let t = try targets()
        let run = try CLI.run(["diff", t[0], "127.0.0.1:1"])
        XCTAssertEqual(run.status, 69)
        XCTAssertTrue(run.err.contains("127.0.0.1:1: "), run.err)
    }

    func testOneSideIsAUsageError() throws {
        let run = try CLI.run(["diff", "127.0.0.1:1"])
        XCTAssertEqual(run.status, 64)
    }
}

extension DiffCommandTests {
    func testAConnectToPairGivesEachSideItsOwnNodeBehindOneName() throws {
        let pki = try TestPKI.get()
        let t = try targets()
        let run = try CLI.run([
            "diff", "127.0.0.1:443", "127.0.0.1:443", "--connect-to", "\(t[0]),\(t[2])", "--anchor", pki.path("ca.pem"),
            "--format", "json",
        ])
        XCTAssertEqual(run.status, 1, run.out + run.err)
        let doc = try run.json()
        let connectTo = ["a", "b"].map {
            (((doc[$0] as? [String: Any])?["report"] as? [String: Any])?["target"] as? [String: Any])?["connectTo"]
                as? String
        }
        XCTAssertEqual(connectTo, [t[0], t[2]])
        XCTAssertEqual(doc["sameLeafKey"] as? Bool, false)
    }
}
