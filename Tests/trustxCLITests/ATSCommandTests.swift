import Foundation
import TrustLab
import XCTest

/// `trustx ats` against real servers on loopback, reached by a DNS name with `--connect-to` so
/// that ATS's rules apply (loopback addresses are exempt). Expected outcomes follow ATS's rules:
/// TLS 1.2 at least unless NSExceptionMinimumTLSVersion lowers it, ECDHE unless
/// NSExceptionRequiresForwardSecrecy is NO.
final class ATSCommandTests: XCTestCase {
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

    override class func tearDown() {
        servers.values.forEach { $0.stop() }
        servers = [:]
        super.tearDown()
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
        let all = try XCTUnwrap(json["combinations"] as? [[String: Any]])
        return try XCTUnwrap(all.first { $0["name"] as? String == name }, "no combination \(name)")
    }

    func testATLS11OnlyServerFailsTheDefaultAndNeedsNSExceptionMinimumTLSVersion() throws {
        // TLS 1.0/1.1 sign with SHA-1, which s_server refuses above security level 0.
        let (server, pki) = try server(["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        // The text and the JSON diagnosis run side by side.
        let runs = try CLI.runAll([arguments(server.port, pki), arguments(server.port, pki, ["--format", "json"])])
            .map { try $0.get() }
        let text = runs[0]
        XCTAssertEqual(text.status, 1, text.out + text.err)
        let lines = text.out.split(separator: "\n").map(String.init)
        let row = try XCTUnwrap(lines.firstIndex(of: "  FAIL  ATS default connection"), text.out)
        XCTAssertTrue(lines[row + 1].contains("URLError -1200"), lines[row + 1])
        XCTAssertTrue(
            text.out.contains("Smallest set of exceptions the server needs: NSExceptionMinimumTLSVersion = TLSv1.1\n"),
            text.out)
        XCTAssertTrue(text.out.contains("it speaks at most TLS 1.1"), text.out)

        let json = try runs[1].json()
        XCTAssertEqual(json["defaultPasses"] as? Bool, false)
        XCTAssertEqual((json["combinations"] as? [Any])?.count, 16)
        for (name, result) in [
            ("ATS default connection", "FAIL"), ("NSAllowsArbitraryLoads = YES", "PASS"),
            ("NSExceptionMinimumTLSVersion = TLSv1.3", "FAIL"), ("NSExceptionMinimumTLSVersion = TLSv1.2", "FAIL"),
            ("NSExceptionMinimumTLSVersion = TLSv1.1", "PASS"), ("NSExceptionMinimumTLSVersion = TLSv1.0", "PASS"),
            ("NSExceptionRequiresForwardSecrecy = NO", "FAIL"),
        ] {
            XCTAssertEqual(try combination(json, name)["result"] as? String, result, name)
        }
        let passed = try combination(json, "NSExceptionMinimumTLSVersion = TLSv1.0")
        XCTAssertEqual((passed["negotiated"] as? [String: Any])?["protocol"] as? String, "TLS 1.1")
        let smallest = try XCTUnwrap(json["smallest"] as? [String: Any])
        XCTAssertEqual(smallest["keys"] as? [String: String], ["NSExceptionMinimumTLSVersion": "TLSv1.1"])
        // The fragment is a real property list: Foundation's parser reads the exception back.
        let fragment = try XCTUnwrap(smallest["infoPlist"] as? String)
        let document = "<plist version=\"1.0\"><dict>\(fragment)</dict></plist>"
        let parsed = try XCTUnwrap(
            PropertyListSerialization.propertyList(from: Data(document.utf8), format: nil) as? [String: Any])
        let ats = try XCTUnwrap(parsed["NSAppTransportSecurity"] as? [String: Any])
        let domains = try XCTUnwrap(ats["NSExceptionDomains"] as? [String: [String: Any]])
        XCTAssertEqual(domains[Self.host]?["NSExceptionMinimumTLSVersion"] as? String, "TLSv1.1")
    }

    func testATLS13ServerPassesTheDefault() throws {
        let (server, pki) = try server(["-tls1_3"])
        let r = try ats(server.port, pki)
        XCTAssertEqual(r.status, 0, r.out + r.err)
        let lines = r.out.split(separator: "\n").map(String.init)
        let row = try XCTUnwrap(lines.firstIndex(of: "  PASS  ATS default connection"), r.out)
        XCTAssertTrue(lines[row + 1].hasPrefix("        TLS 1.3, TLS_"), lines[row + 1])
        XCTAssertTrue(r.out.contains("The default ATS policy passes: the server needs no exception."), r.out)
        // A TLS 1.3-only server refuses every offer whose range stops below it: none does.
        XCTAssertFalse(r.out.contains("FAIL"), r.out)
    }

    func testAChainTheAppWouldNotTrustFailsAtTheChainStepOrUnderItsCAAsSystemStoreAtCT() throws {
        let (server, pki) = try server(["-tls1_3"])
        // No --anchor: the test CA is in no system store. The second run (below) names the store
        // itself; both run side by side.
        let target = ["ats", "https://\(Self.host):\(server.port)/", "--connect-to", "127.0.0.1", "--format", "json"]
        let runs = try CLI.runAll(
            [target, target + ["--store", pki.path("ca.pem")]],
            environment: ["SSL_CERT_FILE": pki.path("garbage.pem"), "SSL_CERT_DIR": pki.path("nowhere")]
        ).map { try $0.get() }
        let json = runs[0]
        XCTAssertEqual(json.status, 1)
        let object = try json.json()
        XCTAssertTrue(object["smallest"] is NSNull)
        let first = try combination(object, "ATS default connection")
        XCTAssertEqual(first["result"] as? String, "FAIL")
        XCTAssertEqual(
            first["urlError"] as? Int, -1202, "default handling rejects the chain: serverCertificateUntrusted")
        XCTAssertEqual(first["step"] as? String, "chain")
        // The same CA as the system store (`--store PATH`): the chain now ends at a system root, and
        // a leaf under a system root needs SCTs (none here), so the first failing step moves on.
        let stored = runs[1]
        XCTAssertEqual(stored.status, 1, stored.out + stored.err)
        let system = try combination(try stored.json(), "ATS default connection")
        XCTAssertEqual(system["urlError"] as? Int, -1202)
        XCTAssertEqual(system["step"] as? String, "certificate-transparency")
    }

    func testTheLabsNoForwardSecrecyServerNeedsNSExceptionRequiresForwardSecrecy() throws {
        let lab = try Lab.start(LabOptions(scenarios: ["no-forward-secrecy"]))
        defer { lab.stop() }
        let s = try XCTUnwrap(lab.scenario("no-forward-secrecy"))
        let connectTo = try XCTUnwrap(s.connectTo)
        let r = try CLI.run(["ats", s.url, "--connect-to", connectTo, "--anchor", s.anchorPath])
        XCTAssertEqual(r.status, 1, r.out + r.err)
        XCTAssertTrue(
            r.out.contains("Smallest set of exceptions the server needs: NSExceptionRequiresForwardSecrecy = NO\n"),
            r.out)
        XCTAssertTrue(r.out.contains("<key>NSExceptionRequiresForwardSecrecy</key>\n"), r.out)
        XCTAssertTrue(r.out.contains("RSA key exchange, no forward secrecy"), r.out)
    }

    func testALoopbackAddressStillMeetsEachCombinationsOffer() throws {
        // ATS exempts 127.0.0.1, but the diagnosis is of the server's TLS: each offer is still made.
        let (server, pki) = try server(["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        let r = try CLI.run(
            ["ats", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem"), "--format", "json"])
        XCTAssertEqual(r.status, 1, r.out + r.err)
        let json = try r.json()
        XCTAssertEqual(json["host"] as? String, "127.0.0.1")
        // A real app would be exempt: loopback is a local host for ATS (unless NSAllowsLocalNetworking is NO).
        let exemption = try XCTUnwrap(json["exemption"] as? String, "\(json)")
        XCTAssertTrue(
            exemption.lowercased().contains("loopback") || exemption.lowercased().contains("local"), exemption)
        XCTAssertEqual(try combination(json, "ATS default connection")["step"] as? String, "handshake")
        XCTAssertEqual(try combination(json, "NSExceptionMinimumTLSVersion = TLSv1.1")["result"] as? String, "PASS")
    }

    func testAnUnreachableServerExits69() throws {
        // A loopback port nothing listens on (bound, then closed).
        let listener = try LoopbackListener { close($0) }
        let port = listener.port
        listener.stop()
        let r = try ats(port, try Self.leaf.get())
        XCTAssertEqual(r.status, 69, r.out + r.err)
        XCTAssertTrue(r.out.contains("Cannot diagnose: 127.0.0.1:\(port) refused the connection"), r.out)
    }

    func testATargetIsRequired() throws {
        let r = try CLI.run(["ats"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("Missing expected argument '<target>'"), r.err)
    }
}
