import Foundation
import SuiteFixtures
import Testing

/// `trustx check` against `openssl s_server -status_file`, which staples an OCSP response that
/// `openssl ocsp` made: the server's stapled "revoked" fails the evaluation with Apple's
/// Revocation check (errSecCertificateRevoked, -67820), over real TLS on loopback.
@Suite(.serialized, .onTestThreads) final class OCSPStapleCLITests {
    @Test func testServerStaplingARevokedResponseIsNotTrusted() throws {
        let pki = try TestPKI.get()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-ocsp-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // The leaf's serial is 4660 (0x1234), set when the PKI was made.
        try "R\t991231235959Z\t250101000000Z\t1234\tunknown\t/CN=127.0.0.1\n".write(
            to: dir.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
        try Shell.openssl(
            ["ocsp", "-issuer", pki.path("ca.pem"), "-cert", pki.path("leaf.pem"), "-no_nonce", "-reqout", "req.der"],
            in: dir)
        try Shell.openssl(
            [
                "ocsp", "-index", "index.txt", "-CA", pki.path("ca.pem"), "-rsigner", pki.path("ca.pem"), "-rkey",
                pki.path("ca.key"), "-reqin", "req.der", "-respout", "resp.der", "-ndays", "1",
            ], in: dir)
        let server = try OpenSSLServer(
            [
                "-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key"), "-status_file",
                dir.appendingPathComponent("resp.der").path,
            ], in: dir)
        defer { server.stop() }
        let r = try CLI.run(
            ["check", "https://127.0.0.1:\(server.port)/", "--anchor", pki.path("ca.pem"), "--format", "json"])
        #expect(r.status == 1, "\(r.out + r.err)")
        let doc = try r.json()
        #expect(((doc["connection"] as? [String: Any])?["ocsp"] as? String) == "revoked")
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == -67820)
        let steps = try #require(doc["steps"] as? [[String: Any]])
        let revocation = try #require(steps.first { $0["id"] as? String == "revocation" })
        #expect((revocation["appleCheck"] as? String) == "Revocation")
    }
}
