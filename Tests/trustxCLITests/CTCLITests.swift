import Foundation
import SuiteFixtures
import Testing
import TrustBuilder
import TrustSupport
import TrustX509

/// `--ct-logs`, `--sct` and `--ocsp-response` through the built executable, with SCTs from logs
/// made here and a root given as the system store (`--store PATH`). Expected values are trustd's
/// rule (docs/steps.md, `certificate-transparency`): a one-year leaf issued in 2025 needs embedded
/// SCTs from 3 logs, or 2 logs' SCTs delivered beside it, at a non-Apple system root.
@Suite(.serialized, .onTestThreads, .fixture(setUp: cTCLITestsSetUp, tearDown: cTCLITestsTearDown))
final class CTCLITests {
    nonisolated(unsafe) static var dir: URL!
    static let at = "2025-06-01T00:00:00Z"
    static let issued = Timestamp(year: 2025, month: 5, day: 1)!

    static func suiteSetUp() {
        do { try makeFiles() } catch { Issue.record("could not make the CT files: \(error)") }
    }

    static func suiteTearDown() {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: dir.appendingPathComponent(name))
    }

    static func pem(_ c: Certificate) -> [UInt8] {
        let b64 = Data(c.der).base64EncodedString(options: .lineLength64Characters)
        return Array("-----BEGIN CERTIFICATE-----\n\(b64)\n-----END CERTIFICATE-----\n".utf8)
    }

    static func makeFiles() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-ct-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let logs = try (0..<4).map { try CTTestLog("CLI log \($0)", operatorName: "Operator \($0)") }
        let rootKey = try KeyPair.generate(.ecP256)
        var r = CertificateBuilder(
            subject: [.commonName("CT CLI Root")], publicKey: rootKey,
            notBefore: Timestamp(year: 2020, month: 1, day: 1)!,
            notAfter: Timestamp(year: 2040, month: 1, day: 1)!)
        r.basicConstraints = .init(isCA: true)
        r.keyUsage = .init([.keyCertSign, .cRLSign])
        let root = try r.selfSign(key: rootKey)
        var l = CertificateBuilder(
            subject: [.commonName("www.example.com")], publicKey: try KeyPair.generate(.ecP256), notBefore: issued,
            notAfter: issued.adding(seconds: 365 * 86_400))
        l.keyUsage = .init([.digitalSignature])
        l.extendedKeyUsage = .init([.serverAuth])
        l.subjectAltNames = .dns("www.example.com")
        let embedded = try l.signWithEmbeddedSCTs(
            logs[0..<3].map { EmbeddedSCTRequest($0, at: issued) }, issuerKey: rootKey, issuer: root)
        let bare = try l.sign(issuerKey: rootKey, issuer: root)
        try write("root.pem", pem(root))
        try write("embedded.pem", pem(embedded))
        try write("bare.pem", pem(bare))
        let delivered = try logs[1..<3].map { try $0.sct(for: bare, at: issued) }
        try write("scts.bin", SignedCertificateTimestampList.encode(delivered.map(\.encoded)))
        try write("one-sct.bin", delivered[0].encoded)
        try write("garbage-sct.bin", [1, 2, 3])
        var ocsp = OCSPResponseBuilder(
            status: .good, thisUpdate: Timestamp(year: 2025, month: 5, day: 31)!,
            nextUpdate: Timestamp(year: 2025, month: 6, day: 7)!)
        ocsp.signedCertificateTimestamps = try logs[2..<4].map { try $0.sct(for: bare, at: issued) }
        let response = try ocsp.sign(certificate: bare, issuer: root, key: rootKey)
        try write("ocsp.der", response)
        try write("ocsp-truncated.der", Array(response.prefix(response.count - 10)))
        // Apple's JSON format (schema v5), with one log of each kind of entry besides.
        let entries = logs.map { log in
            """
            {"description": "\(log.description)", "key": "\(Base64.encode(log.key.spkiDER))", \
            "log_id": "\(Base64.encode(log.logID))", "mmd": 86400, \
            "state": {"usable": {"timestamp": "2024-01-01T00:00:00Z"}}}
            """
        }
        let operators = logs.indices.map { i in
            "{\"name\": \"\(logs[i].operatorName)\", \"email\": [], \"logs\": [\(entries[i])], \"tiled_logs\": []}"
        }
        let json = """
            {"$schema": "https://valid.apple.com/ct/log_list/schema_versions/log_list_schema_v5.json",
             "operators": [\(operators.joined(separator: ", ")), {"name": "Keyless", "logs": [{"description": "no key",
             "state": {"usable": {"timestamp": "2024-01-01T00:00:00Z"}}}], "tiled_logs": []}]}
            """
        try write("logs.json", Array(json.utf8))
        // SecTrustSetTrustedLogs' array: dictionaries with key and operator; one without a key.
        let dicts = logs.map {
            "<dict><key>key</key><data>\(Base64.encode($0.key.spkiDER))</data><key>operator</key><string>\($0.operatorName)</string></dict>"
        }
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>\(dicts.joined())<dict><key>operator</key><string>No key</string></dict><string>not a log</string></array></plist>
            """
        try write("logs.plist", Array(plist.utf8))
        try write("broken.json", Array("{\"operators\": [".utf8))
    }

    func check(_ chain: String, _ extra: [String]) throws -> RunResult {
        try CLI.run(
            [
                "check", "--chain", Self.path(chain), "--host", "www.example.com", "--at", Self.at, "--format", "json",
                "--store", Self.path("root.pem"),
            ] + extra)
    }

    func ct(_ r: RunResult) throws -> (verdict: [String: Any], scts: [String: Any]) {
        let doc = try r.json()
        let steps = try #require(doc["steps"] as? [[String: Any]])
        let step = try #require(steps.first { $0["id"] as? String == "certificate-transparency" })
        return (try #require(doc["verdict"] as? [String: Any]), try #require(step["scts"] as? [String: Any]))
    }

    func outcomes(_ scts: [String: Any]) -> [String] {
        ((scts["list"] as? [[String: Any]]) ?? []).compactMap { $0["outcome"] as? String }
    }

    @Test func testEmbeddedSCTsFromLogsOfAJSONListQualifyTheLeafAtASystemRoot() throws {
        let r = try check("embedded.pem", ["--ct-logs", Self.path("logs.json")])
        #expect(r.status == 0, "\(r.out + r.err)")
        let (verdict, scts) = try ct(r)
        #expect((verdict["certificateTransparency"] as? Bool) == true)
        #expect((scts["requiredEmbedded"] as? Int) == 3)
        #expect(
            ((scts["list"] as? [[String: Any]])?.compactMap { $0["log"] as? String })
                == ["CLI log 0", "CLI log 1", "CLI log 2"])
    }

    @Test func testTheSameLeafAgainstApplesListHasSCTsFromUnknownLogsAndFails() throws {
        let r = try check("embedded.pem", [])
        #expect(r.status == 1, "\(r.out + r.err)")
        let (verdict, scts) = try ct(r)
        #expect((verdict["osstatus"] as? Int) == -67825)
        #expect(outcomes(scts) == (Array(repeating: "no log in the list has this log ID", count: 3)))
        #expect((scts["logList"] as? String)?.hasPrefix("Apple security_certificates-") ?? false)
    }

    @Test func testAPropertyListArrayOfLogsIsReadAsSecTrustSetTrustedLogsTakesIt() throws {
        let r = try check("embedded.pem", ["--ct-logs", Self.path("logs.plist")])
        #expect(r.status == 0, "\(r.out + r.err)")
        #expect((try ct(r).scts["operators"] as? [String]) == ["Operator 0", "Operator 1", "Operator 2"])
    }

    @Test func testTwoSCTsFromSCTFilesQualifyALeafWithoutEmbeddedOnes() throws {
        let list = try check("bare.pem", ["--ct-logs", Self.path("logs.json"), "--sct", Self.path("scts.bin")])
        #expect(list.status == 0, "\(list.out + list.err)")
        #expect((try ct(list).scts["qualifiedBy"] as? String) == "delivered")
        let one = try check("bare.pem", ["--ct-logs", Self.path("logs.json"), "--sct", Self.path("one-sct.bin")])
        #expect(one.status == 1, "\(one.out + one.err)")
        #expect((try ct(one).verdict["osstatus"] as? Int) == -67825)
    }

    @Test func testTwoSCTsInAnOCSPResponseFileQualifyTheLeaf() throws {
        let r = try check("bare.pem", ["--ct-logs", Self.path("logs.json"), "--ocsp-response", Self.path("ocsp.der")])
        #expect(r.status == 0, "\(r.out + r.err)")
        #expect(
            ((try ct(r).scts["list"] as? [[String: Any]])?.compactMap { $0["source"] as? String })
                == ["ocsp-response", "ocsp-response"])
    }

    @Test func testATruncatedOCSPResponseAndAnUnreadableSCTAreIgnoredNotErrors() throws {
        let r = try check(
            "bare.pem",
            [
                "--ct-logs", Self.path("logs.json"), "--ocsp-response", Self.path("ocsp-truncated.der"), "--sct",
                Self.path("garbage-sct.bin"),
            ])
        #expect(r.status == 1, "\(r.out + r.err)")
        let (verdict, scts) = try ct(r)
        #expect((verdict["osstatus"] as? Int) == -67825)
        #expect(outcomes(scts) == (["not an SCT (shorter than an SCT's 43 fixed bytes); ignored"]))
    }

    @Test func testALogListThatIsNeitherFormatIsMalformedInput() throws {
        let r = try check("embedded.pem", ["--ct-logs", Self.path("broken.json")])
        #expect(r.status == 65)
        #expect(r.err.contains("broken.json: JSON at byte"), "\(r.err)")
    }

    @Test func testSCTFilesDoNotApplyToAServer() throws {
        let r = try CLI.run(["check", "localhost:1", "--sct", Self.path("scts.bin")])
        #expect(r.status == 64)
        #expect(r.err.contains("--sct applies to --chain files"), "\(r.err)")
    }
}

/// CTCLITests's shared set-up, outside the type so its suite attribute can name it.
private func cTCLITestsSetUp() { CTCLITests.suiteSetUp() }

/// CTCLITests's shared tear-down, outside the type so its suite attribute can name it.
private func cTCLITestsTearDown() { CTCLITests.suiteTearDown() }
