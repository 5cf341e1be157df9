import Foundation
import SuiteFixtures
import Testing

/// The private-CA walkthrough the lab is built on (docs/lab.md: an app trusts "Library Test CA"
/// for a server on 127.0.0.1 and pins its key), through the built `trustx check
/// https://127.0.0.1:PORT/` against `openssl s_server -www` serving that PKI, made with the
/// openssl command line as a developer makes it. Expected values come from Apple's rules
/// (docs/steps.md), cited at each assertion, not from running trustx.
@Suite(.serialized, .onTestThreads, .fixture(tearDown: privateCAWalkthroughTestsTearDown))
final class PrivateCAWalkthroughTests {
    var pki: WalkthroughPKI!
    /// The class's servers, one per configuration, started by the first test that needs it and
    /// stopped in the class's tearDown: `s_server -www` answers every connection alike, and no
    /// test changes a server, so the tests of one server share it.
    nonisolated(unsafe) static var servers: [[String]: OpenSSLServer] = [:]

    init() throws {
        pki = try WalkthroughPKI.shared.get()
    }

    static func suiteTearDown() {
        for server in servers.values { server.stop() }
        servers = [:]
        if case .success(let pki) = WalkthroughPKI.shared { try? FileManager.default.removeItem(at: pki.directory) }
    }

    // MARK: helpers

    /// `openssl s_server -www -cert CERT -key KEY` on loopback, as the walkthrough starts it: the
    /// class's server of that configuration, started on first use.
    func serve(_ cert: String, _ key: String, host: String = "127.0.0.1", _ extra: [String] = []) throws
        -> OpenSSLServer
    {
        let configuration = [cert, key, host] + extra
        if let server = Self.servers[configuration], server.process.isRunning { return server }
        let server = try OpenSSLServer(
            ["-cert", pki.path(cert), "-key", pki.path(key)] + extra, host: host, in: pki.directory)
        Self.servers[configuration] = server
        return server
    }

    /// The walkthrough's server: the leaf for 127.0.0.1 issued by Library Test CA, TLS 1.3 by default.
    func serveWalkthroughServer() throws -> OpenSSLServer { try serve("leaf.pem", "leaf.key") }

    /// `trustx check TARGET ARGUMENTS --format json`, with the report parsed.
    func check(_ target: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (RunResult, [String: Any])
    {
        let result = try CLI.run(["check", target] + arguments + ["--format", "json"])
        #expect(result.err == "", "stderr of a JSON report", sourceLocation: sourceLocation)
        return (result, try result.json(sourceLocation: sourceLocation))
    }

    func verdict(_ doc: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(doc["verdict"] as? [String: Any], "no verdict", sourceLocation: sourceLocation)
    }

    func connection(_ doc: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(doc["connection"] as? [String: Any], "no connection", sourceLocation: sourceLocation)
    }

    /// The step with `id` (e.g. `hostname`, `pin`).
    func step(_ id: String, _ doc: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: Any]
    {
        let steps = try #require(doc["steps"] as? [[String: Any]], "no steps", sourceLocation: sourceLocation)
        return try #require(steps.first { $0["id"] as? String == id }, "no \(id) step", sourceLocation: sourceLocation)
    }

    /// Asserts a trusted verdict: exit 0, errSecSuccess, no URLError.
    func assertTrusted(
        _ result: RunResult, _ doc: [String: Any], _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let v = try verdict(doc, sourceLocation: sourceLocation)
        #expect(result.status == 0, "\(label): exit status; \(result.out)", sourceLocation: sourceLocation)
        #expect((v["trusted"] as? Bool) == true, "\(label): trusted", sourceLocation: sourceLocation)
        #expect((v["osstatus"] as? Int) == 0, "\(label): OSStatus", sourceLocation: sourceLocation)
        #expect(
            v["urlError"] is NSNull, "\(label): URLError \(v["urlError"] ?? "missing")", sourceLocation: sourceLocation)
    }

    /// Asserts a verdict that is not trusted after evaluation: exit 1, the OSStatus and URLError given.
    func assertNotTrusted(
        _ result: RunResult, _ doc: [String: Any], osstatus: Int, urlError: Int, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let v = try verdict(doc, sourceLocation: sourceLocation)
        #expect(result.status == 1, "\(label): exit status; \(result.out)", sourceLocation: sourceLocation)
        #expect((v["trusted"] as? Bool) == false, "\(label): trusted", sourceLocation: sourceLocation)
        #expect((v["osstatus"] as? Int) == osstatus, "\(label): OSStatus", sourceLocation: sourceLocation)
        #expect((v["urlError"] as? Int) == urlError, "\(label): URLError", sourceLocation: sourceLocation)
    }

    // MARK: 1. the default refusal

    @Test func testWalkthroughServerIsUntrustedByDefault() throws {
        let server = try serveWalkthroughServer()
        let (result, doc) = try check("https://127.0.0.1:\(server.port)/")
        // No anchors: system roots only. The server sends its leaf alone, whose issuer is neither
        // sent nor a system root: MissingIntermediate -25318 (docs/steps.md); URLSession's
        // default handling refuses with -1202 (6).
        try assertNotTrusted(result, doc, osstatus: -25318, urlError: -1202, "default")
        #expect((try verdict(doc)["osstatusName"] as? String) == "errSecCreateChainFailed")
        let presented = try #require(doc["presented"] as? [[String: Any]])
        #expect((presented.map { $0["subject"] as? String }) == ["CN=127.0.0.1"])
        #expect((presented.first?["source"] as? String) == "server")
    }

    // MARK: 2. a custom anchor

    @Test func testWalkthroughServerIsTrustedWithItsCAAsTheOnlyAnchorInPEMAndInDER() throws {
        let server = try serveWalkthroughServer()
        for anchor in ["ca.pem", "ca.der"] {
            let (result, doc) = try check("https://127.0.0.1:\(server.port)/", ["--anchor", pki.path(anchor)])
            // The CA has no keyUsage, which Apple checks only when present (docs/steps.md); the
            // leaf has SAN IP:127.0.0.1, EKU serverAuth, P-256, 365 days (5).
            try assertTrusted(result, doc, anchor)
            let path = try #require(doc["path"] as? [[String: Any]], "\(anchor)")
            #expect((path.map { $0["subject"] as? String }) == ["CN=127.0.0.1", "CN=Library Test CA"], "\(anchor)")
            #expect((path.last?["anchor"] as? String) == "custom", "\(anchor)")
            // s_server's default protocol range ends at TLS 1.3, as trustx's does.
            #expect((try connection(doc)["protocol"] as? String) == "TLS 1.3", "\(anchor)")
        }
    }

    // MARK: 3. the hostname pitfall

    @Test func testWalkthroughServerReachedAsLocalhostFailsTheHostnameStep() throws {
        let server = try serveWalkthroughServer()
        let (result, doc) = try check("https://localhost:\(server.port)/", ["--anchor", pki.path("ca.pem")])
        // localhost is compared only with SAN dNSName entries, of which the leaf has none
        // (docs/steps.md): SSLHostname -67602. With custom anchors the app's delegate decides
        // and cancels: -999 (6).
        try assertNotTrusted(result, doc, osstatus: -67602, urlError: -999, "localhost")
        #expect((try verdict(doc)["osstatusName"] as? String) == "errSecHostNameMismatch")
        let hostname = try step("hostname", doc)
        #expect((hostname["status"] as? String) == "failed")
        #expect((hostname["certificate"] as? Int) == 0)
        #expect((hostname["osstatus"] as? Int) == -67602)
    }

    // MARK: 4. Basic X.509 hides it

    @Test func testBasicPolicyTrustsTheLocalhostCaseAndSkipsTheHostnameStep() throws {
        let server = try serveWalkthroughServer()
        let (result, doc) = try check(
            "https://localhost:\(server.port)/", ["--anchor", pki.path("ca.pem"), "--policy", "basic"])
        // Basic X.509 has no hostname check (docs/steps.md).
        try assertTrusted(result, doc, "basic")
        #expect((try step("hostname", doc)["status"] as? String) == "skipped")
        #expect(((doc["settings"] as? [String: Any])?["policy"] as? String) == "basic")
    }

    // MARK: 5. pinning, with the pin computed by openssl

    @Test func testPinComputedByOpenSSLPasses() throws {
        let server = try serveWalkthroughServer()
        let (result, doc) = try check(
            "https://127.0.0.1:\(server.port)/", ["--anchor", pki.path("ca.pem"), "--pin", "sha256//" + pki.leafPin])
        // The pin is the SHA-256 of the leaf's DER SPKI, what `openssl pkey -pubin -outform der`
        // writes (docs/steps.md).
        try assertTrusted(result, doc, "pin")
        #expect((try step("pin", doc)["status"] as? String) == "passed")
    }

    @Test func testWrongPinFailsAfterEvaluationPasses() throws {
        let server = try serveWalkthroughServer()
        // Another key's pin: the Rogue CA leaf's, computed the same way.
        #expect(pki.roguePin != pki.leafPin)
        let (result, doc) = try check(
            "https://127.0.0.1:\(server.port)/", ["--anchor", pki.path("ca.pem"), "--pin", "sha256//" + pki.roguePin])
        // Pins are checked after evaluation passed (errSecSuccess); the delegate finds no pinned
        // key and cancels: -999 (docs/steps.md).
        try assertNotTrusted(result, doc, osstatus: 0, urlError: -999, "wrong pin")
        #expect((try step("pin", doc)["status"] as? String) == "failed")
    }

    // MARK: 6. TLS versions

    @Test func testTLS12OnlyServerFailsUnderTLSMinimum13WithSecureConnectionFailed() throws {
        let server = try serve("leaf.pem", "leaf.key", ["-tls1_2"])
        let (result, doc) = try check(
            "https://127.0.0.1:\(server.port)/", ["--anchor", pki.path("ca.pem"), "--tls-min", "1.3"])
        // No common version: the handshake fails before any certificate is seen, -1200
        // (docs/steps.md); a connection failure exits 69.
        #expect(result.status == 69, "\(result.out)")
        let v = try verdict(doc)
        #expect((v["trusted"] as? Bool) == false)
        #expect((v["urlError"] as? Int) == -1200)
        #expect(v["osstatus"] is NSNull, "nothing was evaluated: \(v["osstatus"] ?? "missing")")
        let error = try #require(try connection(doc)["error"] as? [String: Any], "connection.error")
        let kind = try #require(error["kind"] as? String, "connection.error.kind")
        #expect(!kind.isEmpty)
    }

    @Test func testTLS12OnlyServerIsTrustedByDefault() throws {
        let server = try serve("leaf.pem", "leaf.key", ["-tls1_2"])
        let (result, doc) = try check("https://127.0.0.1:\(server.port)/", ["--anchor", pki.path("ca.pem")])
        // URLSession's minimum is TLS 1.2 (ATS requires >= 1.2, docs/steps.md).
        try assertTrusted(result, doc, "TLS 1.2")
        let conn = try connection(doc)
        #expect((conn["protocol"] as? String) == "TLS 1.2")
        #expect(conn["error"] is NSNull)
    }

    // MARK: 7. the Rogue CA exercise

    @Test func testRogueCAServerIsRejectedWithTheTestCAAsAnchor() throws {
        let rogue = try serve("rogue-leaf.pem", "rogue-leaf.key")
        let (result, doc) = try check("https://127.0.0.1:\(rogue.port)/", ["--anchor", pki.path("ca.pem")])
        // The rogue leaf's issuer is neither sent nor an anchor: -25318 (docs/steps.md); custom
        // anchors, so the delegate cancels: -999.
        try assertNotTrusted(result, doc, osstatus: -25318, urlError: -999, "rogue, test CA")
    }

    @Test func testRogueCAServerIsAcceptedWhenBothCAsAreAnchors() throws {
        let rogue = try serve("rogue-leaf.pem", "rogue-leaf.key")
        let (result, doc) = try check(
            "https://127.0.0.1:\(rogue.port)/", ["--anchor", pki.path("ca.pem"), "--anchor", pki.path("rogue.pem")])
        // Any certificate in the custom anchors is an anchor (docs/steps.md).
        try assertTrusted(result, doc, "rogue, both CAs")
        let path = try #require(doc["path"] as? [[String: Any]])
        #expect((path.last?["subject"] as? String) == "CN=Rogue CA")
    }

    @Test func testTestServerPinRejectsTheRogueServerEvenWhenBothCAsAreTrusted() throws {
        let rogue = try serve("rogue-leaf.pem", "rogue-leaf.key")
        let (result, doc) = try check(
            "https://127.0.0.1:\(rogue.port)/",
            [
                "--anchor", pki.path("ca.pem"), "--anchor", pki.path("rogue.pem"), "--pin", "sha256//" + pki.leafPin,
            ])
        // Evaluation passes (both CAs are anchors); the pin of the real server's key does not
        // match, so the delegate cancels: 0 and -999 (docs/steps.md).
        try assertNotTrusted(result, doc, osstatus: 0, urlError: -999, "rogue, both CAs, test pin")
        #expect((try step("pin", doc)["status"] as? String) == "failed")
    }

    // MARK: beyond the walkthrough

    @Test func testWalkthroughCAIsTrustedForAnIPv6LoopbackServer() throws {
        guard OpenSSLServer.canBindIPv6Loopback() else { try Test.cancel("::1 cannot be bound on this machine") }
        let server = try serve("leaf6.pem", "leaf6.key", host: "::1")
        let (result, doc) = try check("https://[::1]:\(server.port)/", ["--anchor", pki.path("ca.pem")])
        // An IPv6 host is compared byte-wise with SAN iPAddress entries, brackets allowed
        // (docs/steps.md); the leaf has IP:::1.
        try assertTrusted(result, doc, "[::1]")
        let target = try #require(doc["target"] as? [String: Any])
        #expect((target["host"] as? String) == "::1")
        #expect((target["port"] as? Int) == server.port)
    }

    @Test func testConnectToKeepsLocalhostForTheHostCheckButConnectsThere() throws {
        let server = try serveWalkthroughServer()
        let (result, doc) = try check(
            "https://localhost:\(server.port)/",
            ["--anchor", pki.path("ca.pem"), "--connect-to", "127.0.0.1:\(server.port)"])
        // The connection is made (TLS 1.3, no error), and the name checked is still localhost:
        // -67602, -999 as in step 3.
        try assertNotTrusted(result, doc, osstatus: -67602, urlError: -999, "connect-to")
        #expect((try step("hostname", doc)["status"] as? String) == "failed")
        let conn = try connection(doc)
        #expect(conn["error"] is NSNull)
        #expect((conn["protocol"] as? String) == "TLS 1.3")
        let target = try #require(doc["target"] as? [String: Any])
        #expect((target["host"] as? String) == "localhost")
        #expect((target["sni"] as? String) == "localhost")
        #expect((target["connectTo"] as? String) == ("127.0.0.1:\(server.port)"))
    }

    @Test func testTextReportOfTheLocalhostCaseNamesTheOSStatusWithoutEscapes() throws {
        let server = try serveWalkthroughServer()
        let result = try CLI.run(["check", "https://localhost:\(server.port)/", "--anchor", pki.path("ca.pem")])
        #expect(result.status == 1, "\(result.out + result.err)")
        #expect(result.out.contains("errSecHostNameMismatch"), "\(result.out)")
        #expect(result.out.contains("-67602"), "\(result.out)")
        #expect(!result.stdout.contains(0x1B), "raw ESC in the text report")
        #expect(!result.stderr.contains(0x1B), "raw ESC on stderr")
    }
}

/// The walkthrough's PKI, made with the openssl command line in a temporary directory the way a
/// developer makes it: a private CA "Library Test CA" from `openssl req -x509` with no extension
/// file (so no keyUsage), a P-256 leaf for IP 127.0.0.1 signed from a CSR with an extfile, and
/// the exercise's "Rogue CA" with its own leaf for 127.0.0.1. Plus a leaf for ::1 and the pins,
/// computed by openssl.
struct WalkthroughPKI: Sendable {
    let directory: URL
    /// The walkthrough's leaf pin, base64 of the SHA-256 of its DER SPKI, as openssl computes it.
    let leafPin: String
    /// The Rogue CA leaf's pin, computed the same way.
    let roguePin: String

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Made once per test process; the files are only read afterwards.
    static let shared: Result<WalkthroughPKI, Error> = Result { try WalkthroughPKI.make() }

    static func make() throws -> WalkthroughPKI {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-walkthrough-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]

        /// `openssl req -x509`, no extension file: the CA gets only openssl.cnf's defaults.
        func makeCA(_ name: String, _ cn: String) throws {
            try Shell.openssl(
                ["req", "-x509"] + ec + [
                    "-keyout", "\(name).key", "-out", "\(name).pem", "-days", "3650", "-subj", "/CN=\(cn)",
                ],
                in: dir)
        }
        /// A CSR signed by `ca` with an extfile naming `ip`, for 365 days.
        func makeLeaf(_ name: String, ip: String, ca: String) throws {
            try Shell.openssl(
                ["req"] + ec + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(ip)"], in: dir)
            try "subjectAltName=IP:\(ip)\nextendedKeyUsage=serverAuth\n".write(
                to: dir.appendingPathComponent("\(name).ext"), atomically: true, encoding: .utf8)
            try Shell.openssl(
                [
                    "x509", "-req", "-in", "\(name).csr", "-CA", "\(ca).pem", "-CAkey", "\(ca).key", "-CAcreateserial",
                    "-out", "\(name).pem", "-days", "365", "-extfile", "\(name).ext",
                ], in: dir)
        }
        /// The walkthrough's pin pipeline, through the shell.
        func pin(_ cert: String) throws -> String {
            let pipeline =
                "openssl x509 -in \(cert) -pubkey -noout | openssl pkey -pubin -outform der"
                + " | openssl dgst -sha256 -binary | base64"
            let result = try Shell.run(URL(fileURLWithPath: "/bin/sh"), ["-c", pipeline], in: dir)
            let value = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
            guard result.status == 0, value.count == 44, Data(base64Encoded: value)?.count == 32 else {
                throw TestPKI.Failure(message: "pin of \(cert): \(result.out)\(result.err)")
            }
            return value
        }

        try makeCA("ca", "Library Test CA")
        try makeLeaf("leaf", ip: "127.0.0.1", ca: "ca")
        try Shell.openssl(["x509", "-in", "ca.pem", "-outform", "der", "-out", "ca.der"], in: dir)
        try makeCA("rogue", "Rogue CA")
        try makeLeaf("rogue-leaf", ip: "127.0.0.1", ca: "rogue")
        try makeLeaf("leaf6", ip: "::1", ca: "ca")
        return WalkthroughPKI(directory: dir, leafPin: try pin("leaf.pem"), roguePin: try pin("rogue-leaf.pem"))
    }
}

/// PrivateCAWalkthroughTests's shared tear-down, outside the type so its suite attribute can name it.
private func privateCAWalkthroughTestsTearDown() { PrivateCAWalkthroughTests.suiteTearDown() }
