import Foundation
import SuiteFixtures
import Testing
import TrustBuilder
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#endif

/// The evaluation time of a watch (issue 28, item 1): without `--at` every round evaluates at
/// its own time. The servers are restarted, while the watch is held still (SIGSTOP) after its
/// first round, with leaves whose dates are set to the second around that round's time (made
/// in process, as openssl's command line cannot): one that expires a second after the first
/// round, one issued a second after it. The second round runs once both instants have passed,
/// so the expected verdicts follow from RFC 5280's validity rule alone, whatever the load.
@Suite(.serialized, .onTestThreads) final class WatchClockTests {
    /// A leaf for 127.0.0.1 from the test CA, valid from `notBefore` to `notAfter`, written as
    /// `NAME.pem` and `NAME.key` in `dir`; returns the two paths.
    static func leaf(_ name: String, notBefore: Timestamp, notAfter: Timestamp, in dir: URL) throws -> (
        cert: String, key: String
    ) {
        let pki = try TestPKI.get()
        let caKey = try KeyPair(privateKeyPEM: String(contentsOfFile: pki.path("ca.key"), encoding: .utf8))
        let ca = try #require(try CertificateLoader.load(path: pki.path("ca.pem")).first)
        let key = try KeyPair.generate(.ecP256)
        var b = CertificateBuilder(
            subject: [.commonName("127.0.0.1")], publicKey: key, notBefore: notBefore, notAfter: notAfter)
        b.keyUsage = .init([.digitalSignature])
        b.extendedKeyUsage = .init([.serverAuth])
        b.subjectAltNames = .init([try .ip("127.0.0.1")])
        let cert = try b.sign(issuerKey: caKey, issuer: ca)
        let certPath = dir.appendingPathComponent("\(name).pem").path
        let keyPath = dir.appendingPathComponent("\(name).key").path
        try PEM.encode(cert.der).write(toFile: certPath, atomically: true, encoding: .utf8)
        try key.privateKeyPEM().write(toFile: keyPath, atomically: true, encoding: .utf8)
        return (certPath, keyPath)
    }

    /// Sleeps until the wall clock has reached `time` (whole seconds since 1970).
    static func sleep(until time: Timestamp) {
        while Int64(Date().timeIntervalSince1970) < time.secondsSinceEpoch { usleep(50_000) }
    }

    @Test func testAWatchEvaluatesEachRoundAtItsOwnTimeNotTheStartTime() throws {
        let pki = try TestPKI.get()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-watch-clock-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")]
        var expiring = try OpenSSLServer(served, in: dir)
        var issued = try OpenSSLServer(served, in: dir)
        var untrusted = try OpenSSLServer(served, in: dir)
        defer { for s in [expiring, issued, untrusted] { s.stop() } }
        let (a, b, c) = (expiring.port, issued.port, untrusted.port)
        let json = try WatchRun([
            "check", "127.0.0.1:\(a)", "127.0.0.1:\(b)", "--anchor", pki.path("ca.pem"), "--watch", "1",
            "--watch-count", "2", "--format", "json",
        ])
        let text = try WatchRun([
            "check", "127.0.0.1:\(c)", "--anchor", pki.path("ca.pem"), "--watch", "1", "--watch-count", "2",
        ])
        let held = WatchRun.hold([
            (json, { $0.split(separator: "\n").count == 2 && $0.hasSuffix("\n") }),
            (text, { $0.contains("\nPath") }),
        ])
        #expect(held == [true, true], "no initial lines (JSON) or no report (text)")

        // The first round's time, as its initial lines state it; its reports were evaluated
        // then, and say that the time is the clock's.
        let initial = try json.out.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let firstTime = try #require(initial[0]["time"] as? String)
        let t0 = try #require(Timestamp(rfc3339: firstTime))
        for line in initial {
            let report = try #require(line["report"] as? [String: Any])
            let settings = try #require(report["settings"] as? [String: Any])
            let time = try #require(settings["evaluationTime"] as? [String: Any])
            #expect((time["mode"] as? String) == "now")
            #expect((time["at"] as? String) == t0.rfc3339, "the round evaluates at its own time")
            #expect(((report["verdict"] as? [String: Any])?["trusted"] as? Bool) == true)
        }

        // Valid at t0 but expired a second later; and not valid until a second after t0.
        let expired = try Self.leaf(
            "expires", notBefore: t0.adding(seconds: -3600), notAfter: t0.adding(seconds: 1), in: dir)
        let fresh = try Self.leaf(
            "fresh", notBefore: t0.adding(seconds: 1), notAfter: t0.adding(seconds: 86_400), in: dir)
        // The text watch's server: a self-signed leaf with a key of its own, which no anchor trusts.
        try Shell.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "self.key", "-out", "self.pem", "-days", "30", "-subj", "/CN=127.0.0.1", "-addext",
                "subjectAltName=IP:127.0.0.1",
            ], in: dir)
        Self.sleep(until: t0.adding(seconds: 3))
        for s in [expiring, issued, untrusted] { s.stop() }
        expiring = try OpenSSLServer(["-cert", expired.cert, "-key", expired.key], port: a, in: dir)
        issued = try OpenSSLServer(["-cert", fresh.cert, "-key", fresh.key], port: b, in: dir)
        untrusted = try OpenSSLServer(
            [
                "-cert", dir.appendingPathComponent("self.pem").path, "-key",
                dir.appendingPathComponent("self.key").path,
            ],
            port: c, in: dir)
        for run in [json, text] { run.process.signal(SIGCONT) }

        let result = json.finish()
        let changes = try result.out.split(separator: "\n").dropFirst(2).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        func kinds(_ port: Int) -> [String] {
            changes.filter { $0["target"] as? String == "127.0.0.1:\(port)" }.compactMap { $0["kind"] as? String }
        }
        // The leaf that expired after the first round: its verdict flips to TemporalValidity,
        // errSecCertificateExpired (-67818). Evaluated at the start time it stayed trusted.
        #expect(kinds(a).contains("verdict-flipped"), "\(result.out)")
        let flip = changes.first {
            $0["target"] as? String == "127.0.0.1:\(a)" && $0["kind"] as? String == "verdict-flipped"
        }
        #expect(((flip?["new"] as? [String: Any])?["osstatus"] as? Int) == -67818, "\(result.out)")
        // The leaf issued after the watch began is a new leaf, trusted: at the start time it was
        // "not yet valid" (-67818 too), a flip no device would see.
        #expect(kinds(b) == ["new-leaf-new-key"], "\(result.out)")
        let renewal = changes.first { $0["target"] as? String == "127.0.0.1:\(b)" }
        #expect(((renewal?["new"] as? [String: Any])?["trusted"] as? Bool) == true, "\(result.out)")
        #expect(result.status == 1, "\(result.err)")

        // Item 18: the closing line counts what was printed. One line carries the untrusted
        // server's two changes (a new leaf and its verdict); the count is of lines, one.
        let summary = text.finish()
        let lines = summary.out.split(separator: "\n").filter { $0.contains("127.0.0.1:\(c)  ") }
        #expect(lines.count == 1, "\(summary.out)")
        #expect(lines.first?.contains("new leaf (new key)") == true && lines.first?.contains("; verdict ") == true)
        #expect(summary.err.hasSuffix(": 1 change.\n"), "\(summary.err)")
    }
}

/// The explorer's `l` under a real terminal (issue 28, item 1): a watched server is restarted,
/// once the watch has its first evaluation, with a leaf that expired a second after it was made;
/// the next rounds find it after that second has passed (a few seconds are waited out), so they
/// must report the verdict flipping to TemporalValidity, errSecCertificateExpired (-67818).
/// Evaluated at the session's start time, as before, the new leaf stayed trusted.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class WatchClockTmuxTests {
    @Test func testWatchingWithLReportsALeafThatExpiresDuringTheWatch() async throws {
        let pki = try TestPKI.get()
        let dir = try TmuxSession.directory("watch-clock")
        defer { try? FileManager.default.removeItem(at: dir) }
        var server = try OpenSSLServer(
            ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: pki.directory)
        defer { server.stop() }
        let port = server.port
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["explore", "https://127.0.0.1:\(port)", "--anchor", pki.path("ca.pem"), "--watch", "1"], in: dir)
        _ = try await tmux.screen(containing: "✓ Trusted")
        try tmux.send("1")
        try tmux.send("l")
        _ = try await tmux.screen { WatchTmuxTests.detail($0).contains("first evaluation: trusted") }

        // Made now, after the session started: valid at its start, expired a second from now.
        let made = Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        let expiring = try WatchClockTests.leaf(
            "expiring", notBefore: made.adding(seconds: -3600), notAfter: made.adding(seconds: 1), in: dir)
        // The explorer's clock counts whole seconds from its start: a few past notAfter are
        // past it on that clock too.
        WatchClockTests.sleep(until: made.adding(seconds: 4))
        server.stop()
        server = try OpenSSLServer(["-cert", expiring.cert, "-key", expiring.key], port: port, in: dir)
        let screen = try await tmux.screen { WatchTmuxTests.detail($0).contains("(-67818") }
        #expect(WatchTmuxTests.detail(screen).contains("verdict trusted -> not trusted"), "\(screen)")
        try tmux.send("l")
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
