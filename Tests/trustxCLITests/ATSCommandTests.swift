import Foundation
import SuiteFixtures
import Testing
import TrustLab

/// `trustx ats` against real servers on loopback, reached by a DNS name with `--connect-to` so
/// that ATS's rules apply (loopback addresses are exempt). Expected outcomes follow ATS's rules:
/// TLS 1.2 at least unless NSExceptionMinimumTLSVersion lowers it, ECDHE unless
/// NSExceptionRequiresForwardSecrecy is NO.
@Suite(.serialized, .onTestThreads, .fixture(tearDown: aTSCommandTestsTearDown)) final class ATSCommandTests {
    static let host = "ats.trustx.test"

    /// A leaf for `ats.trustx.test` (and 127.0.0.1) under the test CA.
    static let leaf: Result<TestPKI, Error> = Result {
        let pki = try TestPKI.get()
        try """
        basicConstraints=CA:FALSE
        keyUsage=critical,digitalSignature
        extendedKeyUsage=serverAuth
        subjectAltName=DNS:\(host),IP:127.0.0.1

        """.write(to: pki.directory.appendingPathComponent("ats-leaf.ext"), atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Shell.openssl(
            ["req"] + ec + ["-keyout", "ats-leaf.key", "-out", "ats-leaf.csr", "-subj", "/CN=\(host)"],
            in: pki.directory)
        try Shell.openssl(
            [
                "x509", "-req", "-in", "ats-leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "4661",
                "-days", "365", "-extfile", "ats-leaf.ext", "-out", "ats-leaf.pem",
            ], in: pki.directory)
        return pki
    }

    /// One s_server per configuration for the whole class (the tests only connect to it),
    /// stopped in the class's tearDown.
    nonisolated(unsafe) static var servers: [[String]: OpenSSLServer] = [:]

    static func suiteTearDown() {
        servers.values.forEach { $0.stop() }
        servers = [:]
    }

    func server(_ extra: [String]) throws -> (OpenSSLServer, TestPKI) {
        let pki = try Self.leaf.get()
        if let running = Self.servers[extra] { return (running, pki) }
        let s = try OpenSSLServer(["-cert", "ats-leaf.pem", "-key", "ats-leaf.key"] + extra, in: pki.directory)
        Self.servers[extra] = s
        return (s, pki)
    }

    func arguments(_ port: Int, _ pki: TestPKI, _ extra: [String] = []) -> [String] {
        ["ats", "https://\(Self.host):\(port)/", "--connect-to", "127.0.0.1", "--anchor", pki.path("ca.pem")] + extra
    }

    func ats(_ port: Int, _ pki: TestPKI, _ extra: [String] = []) throws -> RunResult {
        try CLI.run(arguments(port, pki, extra))
    }

    func combination(_ json: [String: Any], _ name: String) throws -> [String: Any] {
        let all = try #require(json["combinations"] as? [[String: Any]])
        return try #require(all.first { $0["name"] as? String == name }, "no combination \(name)")
    }

    @Test func testATLS11OnlyServerFailsTheDefaultAndNeedsNSExceptionMinimumTLSVersion() throws {
        // TLS 1.0/1.1 sign with SHA-1, which s_server refuses above security level 0.
        let (server, pki) = try server(["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        // The text and the JSON diagnosis run side by side.
        let runs = try CLI.runAll([arguments(server.port, pki), arguments(server.port, pki, ["--format", "json"])])
            .map { try $0.get() }
        let text = runs[0]
        #expect(text.status == 1, "\(text.out + text.err)")
        let lines = text.out.split(separator: "\n").map(String.init)
        let row = try #require(lines.firstIndex(of: "  FAIL  ATS default connection"), "\(text.out)")
        #expect(lines[row + 1].contains("URLError -1200"), "\(lines[row + 1])")
        #expect(
            text.out.contains("Smallest set of exceptions the server needs: NSExceptionMinimumTLSVersion = TLSv1.1\n"),
            "\(text.out)")
        #expect(text.out.contains("it speaks at most TLS 1.1"), "\(text.out)")

        let json = try runs[1].json()
        #expect((json["defaultPasses"] as? Bool) == false)
        #expect(((json["combinations"] as? [Any])?.count) == 16)
        // The default platform is an app built with a 26 SDK: with arbitrary loads nothing sets a
        // minimum, and the SDK's default is TLS 1.2 (protocol/SecProtocol.c,
        // sec_protocol_options_get_default_min_tls_protocol_version); an explicit exception still
        // lowers it (D422).
        for (name, result) in [
            ("ATS default connection", "FAIL"), ("NSAllowsArbitraryLoads = YES", "FAIL"),
            ("NSExceptionMinimumTLSVersion = TLSv1.3", "FAIL"), ("NSExceptionMinimumTLSVersion = TLSv1.2", "FAIL"),
            ("NSExceptionMinimumTLSVersion = TLSv1.1", "PASS"), ("NSExceptionMinimumTLSVersion = TLSv1.0", "PASS"),
            ("NSExceptionRequiresForwardSecrecy = NO", "FAIL"),
        ] {
            #expect((try combination(json, name)["result"] as? String) == result, "\(name)")
        }
        let passed = try combination(json, "NSExceptionMinimumTLSVersion = TLSv1.0")
        #expect(((passed["negotiated"] as? [String: Any])?["protocol"] as? String) == "TLS 1.1")
        let smallest = try #require(json["smallest"] as? [String: Any])
        #expect((smallest["keys"] as? [String: String]) == ["NSExceptionMinimumTLSVersion": "TLSv1.1"])
        // The fragment is a real property list: Foundation's parser reads the exception back.
        let fragment = try #require(smallest["infoPlist"] as? String)
        let document = "<plist version=\"1.0\"><dict>\(fragment)</dict></plist>"
        let parsed = try #require(
            PropertyListSerialization.propertyList(from: Data(document.utf8), format: nil) as? [String: Any])
        let ats = try #require(parsed["NSAppTransportSecurity"] as? [String: Any])
        let domains = try #require(ats["NSExceptionDomains"] as? [String: [String: Any]])
        #expect((domains[Self.host]?["NSExceptionMinimumTLSVersion"] as? String) == "TLSv1.1")
    }

    @Test func testArbitraryLoadsReachATLS11ServerOnlyFromAnOlderSDK() throws {
        // Before the 26 SDKs the unset minimum is TLS 1.0 (SecProtocol.c), so NSAllowsArbitraryLoads
        // reaches a TLS 1.1 server; from them it is TLS 1.2.
        let (server, pki) = try server(["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        let runs = try CLI.runAll(
            ["ios17", "ios26", "macos26"].map { arguments(server.port, pki, ["--platform", $0, "--format", "json"]) }
        ).map { try $0.get().json() }
        let results = try runs.map { try combination($0, "NSAllowsArbitraryLoads = YES")["result"] as? String }
        #expect(results == ["PASS", "FAIL", "FAIL"])
        #expect(runs.map { $0["platform"] as? String } == ["ios17", "ios26", "macos26"])
    }

    @Test func testATLS13ServerPassesTheDefault() throws {
        let (server, pki) = try server(["-tls1_3"])
        let r = try ats(server.port, pki)
        #expect(r.status == 0, "\(r.out + r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        let row = try #require(lines.firstIndex(of: "  PASS  ATS default connection"), "\(r.out)")
        #expect(lines[row + 1].hasPrefix("        TLS 1.3, TLS_"), "\(lines[row + 1])")
        #expect(r.out.contains("The default ATS policy passes: the server needs no exception."), "\(r.out)")
        // A TLS 1.3-only server refuses every offer whose range stops below it: none does.
        #expect(!r.out.contains("FAIL"), "\(r.out)")
    }

    @Test func testAChainTheAppWouldNotTrustFailsAtTheChainStepOrUnderItsCAAsSystemStoreAtCT() throws {
        let (server, pki) = try server(["-tls1_3"])
        // No --anchor: the test CA is in no system store. The second run (below) names the store
        // itself; both run side by side.
        let target = ["ats", "https://\(Self.host):\(server.port)/", "--connect-to", "127.0.0.1", "--format", "json"]
        // A child each: the system store is read from SSL_CERT_FILE and SSL_CERT_DIR, the process's.
        let runs = try CLI.spawnAll(
            [target, target + ["--store", pki.path("ca.pem")]],
            environment: ["SSL_CERT_FILE": pki.path("garbage.pem"), "SSL_CERT_DIR": pki.path("nowhere")]
        ).map { try $0.get() }
        let json = runs[0]
        #expect(json.status == 1)
        let object = try json.json()
        #expect(object["smallest"] is NSNull)
        let first = try combination(object, "ATS default connection")
        #expect((first["result"] as? String) == "FAIL")
        #expect(
            (first["urlError"] as? Int) == -1202, "default handling rejects the chain: serverCertificateUntrusted")
        #expect((first["step"] as? String) == "chain")
        // The same CA as the system store (`--store PATH`): the chain now ends at a system root, and
        // a leaf under a system root needs SCTs (none here), so the first failing step moves on.
        let stored = runs[1]
        #expect(stored.status == 1, "\(stored.out + stored.err)")
        let system = try combination(try stored.json(), "ATS default connection")
        #expect((system["urlError"] as? Int) == -1202)
        #expect((system["step"] as? String) == "certificate-transparency")
    }

    @Test func testTheLabsNoForwardSecrecyServerNeedsNSExceptionRequiresForwardSecrecy() throws {
        let lab = try Lab.start(LabOptions(scenarios: ["no-forward-secrecy"]).patient)
        defer { lab.stop() }
        let s = try #require(lab.scenario("no-forward-secrecy"))
        let connectTo = try #require(s.connectTo)
        let r = try CLI.run(["ats", s.url, "--connect-to", connectTo, "--anchor", s.anchorPath])
        #expect(r.status == 1, "\(r.out + r.err)")
        #expect(
            r.out.contains("Smallest set of exceptions the server needs: NSExceptionRequiresForwardSecrecy = NO\n"),
            "\(r.out)")
        #expect(r.out.contains("<key>NSExceptionRequiresForwardSecrecy</key>\n"), "\(r.out)")
        #expect(r.out.contains("RSA key exchange, no forward secrecy"), "\(r.out)")
    }

    @Test func testALoopbackAddressStillMeetsEachCombinationsOffer() throws {
        // ATS exempts 127.0.0.1, but the diagnosis is of the server's TLS: each offer is still made.
        let (server, pki) = try server(["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        let r = try CLI.run(
            ["ats", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem"), "--format", "json"])
        #expect(r.status == 1, "\(r.out + r.err)")
        let json = try r.json()
        #expect((json["host"] as? String) == "127.0.0.1")
        // A real app would be exempt: loopback is a local host for ATS (unless NSAllowsLocalNetworking is NO).
        let exemption = try #require(json["exemption"] as? String, "\(json)")
        #expect(exemption.lowercased().contains("loopback") || exemption.lowercased().contains("local"), "\(exemption)")
        #expect((try combination(json, "ATS default connection")["step"] as? String) == "handshake")
        #expect((try combination(json, "NSExceptionMinimumTLSVersion = TLSv1.1")["result"] as? String) == "PASS")
    }

    @Test func testAnUnreachableServerExits69() throws {
        // A loopback port nothing listens on (bound, then closed).
        let listener = try LoopbackListener { close($0) }
        let port = listener.port
        listener.stop()
        let r = try ats(port, try Self.leaf.get())
        #expect(r.status == 69, "\(r.out + r.err)")
        #expect(r.out.contains("Cannot diagnose: 127.0.0.1:\(port) refused the connection"), "\(r.out)")
    }

    @Test func testATargetIsRequired() throws {
        let r = try CLI.run(["ats"])
        #expect(r.status == 64)
        #expect(r.err.contains("Missing expected argument '<target>'"), "\(r.err)")
    }
}

/// ATSCommandTests's shared tear-down, outside the type so its suite attribute can name it.
private func aTSCommandTestsTearDown() { ATSCommandTests.suiteTearDown() }
