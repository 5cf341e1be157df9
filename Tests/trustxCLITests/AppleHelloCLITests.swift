import Foundation
import SuiteFixtures
import Testing

/// `check` sends iOS 26's ClientHello beside its own handshake and says what came back, in JSON
/// (`connection.appleClientHello`) and text; `--no-apple-hello` leaves it out.
@Suite(.serialized, .onTestThreads) final class AppleHelloCLITests {
    @Test func testTheJSONSaysWhatTheServerAnsweredToIOS26sHello() throws {
        let pki = try TestPKI.get()
        let server = try OpenSSLServer(
            ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: pki.directory)
        defer { server.stop() }
        let run = try CLI.run([
            "check", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem"), "--format", "json",
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.out)")
        let hello = try #require(
            (report["connection"] as? [String: Any])?["appleClientHello"] as? [String: Any], "\(run.out)")
        // OpenSSL 3.0 has no ML-KEM: it takes the x25519 share sent beside the hybrid's (RFC 8446 4.2.8).
        #expect(hello["outcome"] as? String == "server-hello", "\(hello)")
        #expect(hello["group"] as? String == "x25519")
        #expect(hello["hybridShareBytes"] as? Int == 1216, "draft-ietf-tls-ecdhe-mlkem: 1,184 + 32")
        #expect((hello["helloBytes"] as? Int ?? 0) > 1200, "Apple: the hello grows past 1,200 bytes")
        #expect(hello["serverChoseHybrid"] as? Bool == false)
        #expect(((report["verdict"] as? [String: Any])?["trusted"] as? Bool) == true, "\(run.out)")

        let text = try CLI.run(["check", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem")])
        #expect(text.out.contains("  apple hello iOS 26's "), "\(text.out)")

        let without = try CLI.run([
            "check", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem"), "--format", "json",
            "--no-apple-hello",
        ])
        let quiet = try #require(try JSONSerialization.jsonObject(with: without.stdout) as? [String: Any])
        #expect((quiet["connection"] as? [String: Any])?["appleClientHello"] is NSNull, "\(without.out)")
    }

    @Test func testNoAppleHelloAppliesToServersOnly() throws {
        let pki = try TestPKI.get()
        let run = try CLI.run(["check", "--chain", pki.path("leaf.pem"), "--no-apple-hello"])
        #expect(run.status == 64)
        #expect(run.err.contains("--no-apple-hello applies to a server target"), "\(run.err)")
    }
}
