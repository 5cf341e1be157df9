import Foundation
import SuiteFixtures
import Testing

/// `check --ats` / `--ats-plist` against `openssl s_server` on loopback, reached by a DNS name
/// through `--connect-to` (loopback addresses are local hosts, which ATS exempts). The root is
/// device-trusted (`--anchor-class device`), so URLSession's default handling decides and a
/// rejection is not the delegate's -999. Pins come from the openssl command line.
@Suite(.serialized, .onTestThreads, .fixture(tearDown: aTSCLITestsTearDown)) final class ATSCLITests {
    static let host = "ats.example.test"

    /// A CA, an EC leaf and an RSA leaf for `host`, and each one's SPKI pin as openssl computes it.
    struct PKI: Sendable {
        let directory: URL
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        /// The pin of `file` ("leaf.pem", "ca.pem" or "rsa-leaf.pem"): all three are computed by
        /// one shell run of openssl, once per class.
        func pin(_ file: String) throws -> String {
            try #require(try ATSCLITests.pins.get()[file], "no pin computed for \(file)")
        }
    }

    /// Each certificate's SubjectPublicKeyInfo as openssl writes it (`x509 -pubkey`, a PEM whose
    /// body is the DER), hashed by one `openssl dgst -sha256 -binary` over all three: one 32-byte
    /// digest after another, each then written in base64.
    static let pins: Result<[String: String], Error> = Result {
        let p = try shared.get()
        let files = ["leaf.pem", "ca.pem", "rsa-leaf.pem"]
        var spkis: [String] = []
        for file in files {
            let key = try Shell.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "x509", "-in", p.path(file), "-pubkey", "-noout"])
            guard key.status == 0 else { throw TestPKI.Failure(message: "openssl x509 -pubkey: \(key.err)") }
            let body = key.out.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            guard let der = Data(base64Encoded: body) else { throw TestPKI.Failure(message: "no PEM: \(key.out)") }
            let url = p.directory.appendingPathComponent("\(file).spki")
            try der.write(to: url)
            spkis.append(url.path)
        }
        let r = try Shell.run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "dgst", "-sha256", "-binary"] + spkis)
        guard r.status == 0, r.stdout.count == 32 * files.count else {
            throw TestPKI.Failure(message: "openssl dgst: \(r.err)")
        }
        let digests = (0..<files.count).map { r.stdout.subdata(in: 32 * $0..<32 * ($0 + 1)).base64EncodedString() }
        return Dictionary(uniqueKeysWithValues: zip(files, digests))
    }

    static let shared: Result<PKI, Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-ats-cli-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Shell.openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650", "-subj", "/CN=trustx ATS Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: dir)
        try """
        basicConstraints=CA:FALSE
        keyUsage=critical,digitalSignature,keyEncipherment
        extendedKeyUsage=serverAuth
        subjectAltName=DNS:\(host)

        """.write(to: dir.appendingPathComponent("leaf.ext"), atomically: true, encoding: .utf8)
        for (name, key) in [("leaf", ec), ("rsa-leaf", ["-newkey", "rsa:2048", "-nodes"])] {
            try Shell.openssl(
                ["req"] + key + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(host)"], in: dir)
            try Shell.openssl(
                [
                    "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "7",
                    "-days", "365", "-extfile", "leaf.ext", "-out", "\(name).pem",
                ], in: dir)
        }
        return PKI(directory: dir)
    }

    func pki() throws -> PKI { try Self.shared.get() }

    /// Writes an Info.plist whose NSAppTransportSecurity dictionary is `ats` (XML text).
    func plist(_ ats: String, name: String = "Info.plist") throws -> String {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>CFBundleIdentifier</key><string>test.trustx.ats</string>
                <key>NSAppTransportSecurity</key>
                <dict>\(ats)</dict>
            </dict>
            </plist>
            """
        let url = try pki().directory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func pinnedDomains(leaf: [String]? = nil, ca: [String]? = nil) -> String {
        func list(_ key: String, _ pins: [String]?) -> String {
            guard let pins else { return "" }
            let items = pins.map { "<dict><key>SPKI-SHA256-BASE64</key><string>\($0)</string></dict>" }
            return "<key>\(key)</key><array>\(items.joined())</array>"
        }
        return """
            <key>NSPinnedDomains</key><dict><key>\(Self.host)</key><dict>\(list("NSPinnedLeafIdentities", leaf))\(list("NSPinnedCAIdentities", ca))</dict></dict>
            """
    }

    /// One s_server per configuration for the whole class (the tests only connect to it),
    /// stopped in the class's tearDown.
    nonisolated(unsafe) static var servers: [[String]: OpenSSLServer] = [:]

    static func suiteTearDown() {
        servers.values.forEach { $0.stop() }
        servers = [:]
    }

    func server(_ args: [String], cert: String = "leaf") throws -> OpenSSLServer {
        if let running = Self.servers[args + [cert]] { return running }
        let p = try pki()
        let s = try OpenSSLServer(
            ["-cert", p.path("\(cert).pem"), "-key", p.path("\(cert).key")] + args, in: p.directory)
        Self.servers[args + [cert]] = s
        return s
    }

    /// The arguments of `trustx check https://ats.example.test:PORT --connect-to 127.0.0.1:PORT
    /// --anchor ca.pem --anchor-class device --format json ARGS`.
    func arguments(_ server: OpenSSLServer, _ args: [String], scheme: String = "https") throws -> [String] {
        let p = try pki()
        return [
            "check", "\(scheme)://\(Self.host):\(server.port)/", "--connect-to", "127.0.0.1:\(server.port)",
            "--anchor", p.path("ca.pem"), "--anchor-class", "device", "--format", "json",
        ] + args
    }

    /// Runs that check.
    func check(_ server: OpenSSLServer, _ args: [String], scheme: String = "https") throws -> (RunResult, [String: Any])
    {
        let r = try CLI.run(try arguments(server, args, scheme: scheme))
        return (r, try r.json())
    }

    /// Runs several such checks side by side (each is its own client of the server); the results
    /// come back in order.
    func checks(_ server: OpenSSLServer, _ runs: [[String]], scheme: String = "https") throws
        -> [(RunResult, [String: Any])]
    {
        try CLI.runAll(try runs.map { try arguments(server, $0, scheme: scheme) }).map { result in
            let r = try result.get()
            return (r, try r.json())
        }
    }

    func verdict(_ json: [String: Any]) -> [String: Any] { json["verdict"] as? [String: Any] ?? [:] }

    func steps(_ json: [String: Any], _ id: String) -> [[String: Any]] {
        (json["steps"] as? [[String: Any]] ?? []).filter { $0["id"] as? String == id }
    }

    // MARK: connection rules

    @Test func testTLS11ServerIsRefusedByDefaultAndAcceptedWithTheException() throws {
        let s = try server(["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        let excepted = try plist(
            "<key>NSExceptionDomains</key><dict><key>\(Self.host)</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict></dict>"
        )
        let misspelt = try plist(
            "<key>NSExceptionDomains</key><dict><key>\(Self.host)</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSV1.0</string></dict></dict>"
        )
        let runs = try checks(s, [["--ats"], ["--ats-plist", excepted], ["--ats-plist", misspelt]])
        // Under ATS the probe offers what ATS allows for the host (1.2 and later), is refused, and
        // then observes with everything to show what the server speaks.
        let (r, json) = runs[0]
        #expect(r.status == 1, "\(r.err)")
        #expect((verdict(json)["urlError"] as? Int) == -1200)
        #expect((verdict(json)["osstatus"] as? Int) == -9881)
        #expect((steps(json, "ats-tls-version").first?["status"] as? String) == "failed")
        // The report says the facts come from a second handshake, after ATS's offer was refused.
        let refusal = try #require((json["connection"] as? [String: Any])?["atsRefusal"] as? String)
        #expect(refusal.contains("the server chose TLS 1.1"), "\(refusal)")
        // The exception lowers what the client offers for this host: no --tls-min needed.
        let (ok, okJSON) = runs[1]
        #expect(ok.status == 0, "\(ok.out)")
        #expect((steps(okJSON, "ats-tls-version").first?["status"] as? String) == "passed")
        #expect((okJSON["connection"] as? [String: Any])?["atsRefusal"] is NSNull, "accepted: one handshake")
        // A misspelt version is ignored, so TLS 1.2 stays the minimum.
        let (bad, badJSON) = runs[2]
        #expect(bad.status == 1)
        #expect((verdict(badJSON)["urlError"] as? Int) == -1200)
        let notes = (badJSON["ats"] as? [String: Any])?["notes"] as? [String] ?? []
        #expect(notes.contains { $0.contains("'TLSV1.0' is ignored") }, "\(notes)")
    }

    @Test func testAFloorTheAppRaisesHoldsUnderATSToo() throws {
        // ATS lowers the floor only through its exceptions; an app that asks for TLS 1.3 itself
        // (tlsMinimumSupportedProtocolVersion) gets no TLS 1.2 connection from ATS's defaults.
        let s = try server(["-tls1_2"])
        let runs = try checks(s, [["--ats"], ["--ats", "--tls-min", "1.3"]])
        #expect((runs[0].0.status) == 0)
        let (r, json) = runs[1]
        #expect(r.status == 1, "\(r.out + r.err)")
        #expect((verdict(json)["urlError"] as? Int) == -1200)
    }

    @Test func testServerWithoutForwardSecrecyNeedsTheException() throws {
        let s = try server(["-tls1_2", "-cipher", "AES128-GCM-SHA256"], cert: "rsa-leaf")
        let off = try plist(
            "<key>NSExceptionDomains</key><dict><key>\(Self.host)</key><dict><key>NSExceptionRequiresForwardSecrecy</key><false/></dict></dict>"
        )
        let runs = try checks(s, [["--ats"], ["--ats-plist", off]])
        let (r, json) = runs[0]
        #expect(r.status == 1, "\(r.err)")
        #expect((verdict(json)["urlError"] as? Int) == -1200)
        #expect((verdict(json)["osstatus"] as? Int) == -9882)
        #expect((steps(json, "ats-forward-secrecy").first?["status"] as? String) == "failed")
        let (ok, _) = runs[1]
        #expect(ok.status == 0, "\(ok.out)")
    }

    @Test func testArbitraryLoadsTurnsATSOffUnlessAnotherGlobalKeyIsPresent() throws {
        let s = try server(["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        let arbitrary = try plist("<key>NSAllowsArbitraryLoads</key><true/>")
        let ignored = try plist(
            "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><false/>")
        let runs = try checks(
            s, [["--ats-plist", arbitrary, "--tls-min", "1.0"], ["--ats-plist", ignored, "--tls-min", "1.0"]])
        #expect((runs[0].0.status) == 0)
        #expect((runs[1].0.status) == 1)
    }

    @Test func testHTTPURLIsRefusedWith1022UnlessTheDomainAllowsIt() throws {
        let s = try server([])
        let allowed = try plist(
            "<key>NSExceptionDomains</key><dict><key>\(Self.host)</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>"
        )
        let runs = try checks(s, [["--ats"], ["--ats-plist", allowed]], scheme: "http")
        let (r, json) = runs[0]
        #expect(r.status == 1)
        #expect((verdict(json)["urlError"] as? Int) == -1022)
        let (_, okJSON) = runs[1]
        #expect((verdict(okJSON)["urlError"] as? Int) != -1022)
        #expect((steps(okJSON, "ats-tls-version").first?["status"] as? String) == "passed")
    }

    // MARK: NSPinnedDomains

    @Test func testLeafAndCAPinsAreANDedAndEachListIsORed() throws {
        let p = try pki()
        let s = try server([])
        let leaf = try p.pin("leaf.pem")
        let ca = try p.pin("ca.pem")
        let other = try p.pin("rsa-leaf.pem")
        let both = try plist(pinnedDomains(leaf: [other, leaf], ca: [ca]))
        let caWrong = try plist(pinnedDomains(leaf: [leaf], ca: [other]))
        let leafWrong = try plist(pinnedDomains(leaf: [other], ca: [ca]))
        let runs = try checks(s, [["--ats-plist", both], ["--ats-plist", caWrong], ["--ats-plist", leafWrong]])
        let (ok, okJSON) = runs[0]
        #expect(ok.status == 0, "\(ok.out)")
        #expect((steps(okJSON, "pinned-domains").map { $0["status"] as? String }) == ["passed", "passed"])
        let (bad, badJSON) = runs[1]
        #expect(bad.status == 1)
        #expect((verdict(badJSON)["urlError"] as? Int) == -1200)
        #expect((verdict(badJSON)["osstatus"] as? Int) == -9886)
        #expect((runs[2].0.status) == 1)
    }

    @Test func testAnEmptyPinListAlwaysFails() throws {
        let s = try server([])
        let empty = try plist(pinnedDomains(ca: []))
        let (r, json) = try check(s, ["--ats-plist", empty])
        #expect(r.status == 1)
        #expect((verdict(json)["urlError"] as? Int) == -1200)
        #expect(
            (steps(json, "pinned-domains").first?["title"] as? String)
                == "NSPinnedCAIdentities is empty: always fails")
    }

    @Test func testBinaryInfoPlistGivesTheSameVerdictAsItsXML() throws {
        let p = try pki()
        let s = try server([])
        let xml = try plist(pinnedDomains(leaf: [try p.pin("ca.pem")]))
        let binary = xml + ".bin"
        let plutil = "/opt/swift/usr/bin/plutil"
        if !(FileManager.default.isExecutableFile(atPath: plutil)) { try Test.cancel("plutil not installed") }
        let converted = try Shell.run(URL(fileURLWithPath: plutil), ["-convert", "binary1", "-o", binary, xml])
        #expect(converted.status == 0, "\(converted.err)")
        let runs = try checks(s, [["--ats-plist", xml], ["--ats-plist", binary]])
        let (x, xJSON) = runs[0]
        let (b, bJSON) = runs[1]
        #expect(x.status == 1, "the leaf is not the CA")
        #expect(b.status == x.status)
        #expect((verdict(bJSON)["osstatus"] as? Int) == (verdict(xJSON)["osstatus"] as? Int))
        #expect((verdict(bJSON)["urlError"] as? Int) == -1200)
    }

    @Test func testPinAdviceInTheReport() throws {
        let p = try pki()
        let s = try server([])
        let single = try plist(pinnedDomains(leaf: [try p.pin("leaf.pem")]))
        let (r, json) = try check(s, ["--ats-plist", single])
        #expect(r.status == 0, "\(r.out)")
        let advice = (json["pinAdvice"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(advice == ["single-pin", "leaf-only"])
    }

    // MARK: files and usage

    @Test func testUnreadableAndMalformedPlistsExitLikeCertificateFiles() throws {
        let p = try pki()
        let garbage = p.directory.appendingPathComponent("garbage.plist")
        try "{ not = plist; }".write(to: garbage, atomically: true, encoding: .utf8)
        let runs = CLI.runAll([
            ["check", "--chain", p.path("leaf.pem"), "--ats-plist", p.path("nope.plist")],
            ["check", "--chain", p.path("leaf.pem"), "--ats-plist", garbage.path],
            ["check", "--chain", p.path("leaf.pem"), "--platform", "ios16"],
        ])
        let missing = try runs[0].get()
        #expect(missing.status == 66, "\(missing.err)")
        let malformed = try runs[1].get()
        #expect(malformed.status == 65)
        #expect(malformed.err.contains("not a readable property list"), "\(malformed.err)")
        let usage = try runs[2].get()
        #expect(usage.status == 64)
        #expect(usage.err.contains("--platform applies to --ats or --ats-plist"), "\(usage.err)")
    }
}

/// ATSCLITests's shared tear-down, outside the type so its suite attribute can name it.
private func aTSCLITestsTearDown() { ATSCLITests.suiteTearDown() }
