import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

/// `trustx diff` against `openssl s_server`: the test CA's leaf, the same key in a renewed
/// certificate (made by openssl from the leaf's CSR with another serial and validity), and a leaf
/// with its own key from another CA. Servers start once for the class.
@Suite(.serialized, .onTestThreads, .fixture(setUp: diffCommandTestsSetUp, tearDown: diffCommandTestsTearDown))
final class DiffCommandTests {
    nonisolated(unsafe) static var servers: [OpenSSLServer] = []
    nonisolated(unsafe) static var startError: Error?
    nonisolated(unsafe) static var directory: URL?

    static func suiteSetUp() {
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

    static func suiteTearDown() {
        for s in servers { s.stop() }
        servers = []
    }

    func targets() throws -> [String] {
        if let e = Self.startError { throw e }
        return Self.servers.map { "127.0.0.1:\($0.port)" }
    }

    @Test func testARenewedCertificateWithTheSameKeyIsReportedAsSameKeyAndExitsZero() throws {
        let pki = try TestPKI.get()
        let t = try targets()
        let run = try CLI.run(["diff", t[0], t[1], "--anchor", pki.path("ca.pem")])
        #expect(run.status == 0, "\(run.out + run.err)")
        #expect(run.out.contains("[0] same key, new certificate"), "\(run.out)")
        #expect(run.out.contains("Leaf key  same"), "\(run.out)")
        // openssl was asked for serial 4660 (0x1234) and 4661 (0x1235).
        #expect(run.out.contains("serial\n        A  1234\n        B  1235"), "\(run.out)")
        #expect(run.out.contains("notAfter"), "\(run.out)")
        #expect(!run.out.contains("subjectAltNames"), "\(run.out)")
    }

    @Test func testServersOfDifferentCAsAreDifferentAndExitOne() throws {
        let pki = try TestPKI.get()
        let t = try targets()
        let run = try CLI.run(["diff", t[0], t[2], "--anchor", pki.path("ca.pem"), "--format", "json"])
        #expect(run.status == 1, "\(run.out + run.err)")
        let doc = try run.json()
        #expect((doc["sameLeafKey"] as? Bool) == false)
        #expect((doc["sameVerdict"] as? Bool) == false)
        let presented = try #require(doc["presented"] as? [[String: Any]])
        #expect((presented.first?["relation"] as? String) == "different")
        let fields = (presented.first?["differences"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
        #expect(fields?.contains("issuer") ?? false, "\(String(describing: fields))")
        #expect(fields?.contains("key") ?? false, "\(String(describing: fields))")
        let steps = try #require(doc["steps"] as? [[String: Any]])
        #expect(!steps.isEmpty, "\(run.out)")
        let b = (doc["b"] as? [String: Any])?["report"] as? [String: Any]
        #expect(((b?["verdict"] as? [String: Any])?["trusted"] as? Bool) == false)
    }

    @Test func testAChainFileSideMatchesTheServerThatSendsIt() throws {
        let pki = try TestPKI.get()
        let t = try targets()
        let run = try CLI.run([
            "diff", "file:" + pki.path("leaf.pem"), t[0], "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1",
        ])
        #expect(run.status == 0, "\(run.out + run.err)")
        #expect(run.out.contains("[0] same certificate"), "\(run.out)")
        #expect(run.out.contains("Steps whose status differs\n  none"), "\(run.out)")
    }

    @Test func testAnUnreachableSideExitsSixtyNineNamingIt() throws {
        let t = try targets()
        let run = try CLI.run(["diff", t[0], "127.0.0.1:1"])
        #expect(run.status == 69)
        #expect(run.err.contains("127.0.0.1:1: "), "\(run.err)")
    }

    @Test func testOneSideIsAUsageError() throws {
        let run = try CLI.run(["diff", "127.0.0.1:1"])
        #expect(run.status == 64)
    }
}

extension DiffCommandTests {
    @Test func testAConnectToPairGivesEachSideItsOwnNodeBehindOneName() throws {
        let pki = try TestPKI.get()
        let t = try targets()
        let run = try CLI.run([
            "diff", "127.0.0.1:443", "127.0.0.1:443", "--connect-to", "\(t[0]),\(t[2])", "--anchor", pki.path("ca.pem"),
            "--format", "json",
        ])
        #expect(run.status == 1, "\(run.out + run.err)")
        let doc = try run.json()
        let connectTo = ["a", "b"].map {
            (((doc[$0] as? [String: Any])?["report"] as? [String: Any])?["target"] as? [String: Any])?["connectTo"]
                as? String
        }
        #expect(connectTo == ([t[0], t[2]]))
        #expect((doc["sameLeafKey"] as? Bool) == false)
    }
}

/// DiffCommandTests's shared set-up, outside the type so its suite attribute can name it.
private func diffCommandTestsSetUp() { DiffCommandTests.suiteSetUp() }

/// DiffCommandTests's shared tear-down, outside the type so its suite attribute can name it.
private func diffCommandTestsTearDown() { DiffCommandTests.suiteTearDown() }
