import Foundation
import SuiteFixtures
import Testing
import TrustLab

/// badssl.com's cipher-suite, key-exchange and protocol cases, served by one lab of those groups
/// and checked as a learner does: `trustx check URL --connect-to ... --anchor FILE`, without and
/// with an app's Info.plist (ATS's defaults). The expectations come from the catalogue, which
/// cites Apple's cipher-suite groups; what each server speaks is confirmed with openssl s_client.
@Suite(.serialized, .onTestThreads, .fixture(setUp: badsslTLSCheckTestsSetUp, tearDown: badsslTLSCheckTestsTearDown))
final class BadsslTLSCheckTests {
    nonisolated(unsafe) static var lab: Lab?
    static let groups: [LabScenarioGroup] = [.badsslCipherSuites, .badsslKeyExchange, .badsslProtocols]

    static func suiteSetUp() {
        var options = LabOptions()
        options.groups = groups.map(\.id)
        lab = try? Lab.start(options.patient)
    }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    func running() throws -> Lab { try #require(Self.lab, "the lab did not start") }

    /// `trusted`, `osstatus` and `urlError` of a `--format json` report.
    func verdict(_ r: RunResult, _ label: String) throws -> (Bool?, Int?, Int?) {
        let v = try #require(try r.json()["verdict"] as? [String: Any], "\(label): \(r.out) \(r.err)")
        return (v["trusted"] as? Bool, v["osstatus"] as? Int, v["urlError"] as? Int)
    }

    /// openssl s_client to `s` with `arguments`; its output (the handshake's facts).
    func sClient(_ s: RunningScenario, _ arguments: [String]) throws -> RunResult {
        try Shell.run(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["20", "openssl", "s_client", "-connect", "127.0.0.1:\(s.port)", "-servername", s.host] + arguments)
    }

    /// The five cases d2f517e listed as unavailable (rc4, rc4-md5, 3des, ssl-v3, ssl-v2) are
    /// served by raw responders: every TLS case of badssl.com is in the lab, none unavailable.
    @Test func testTheLabServesEveryBadsslTLSCaseAndListsNoneAsUnavailable() throws {
        let lab = try running()
        let catalogue = LabScenario.all.filter { Self.groups.contains($0.group) }
        #expect(lab.scenarios.map(\.name) == catalogue.map(\.name))
        #expect(lab.unavailable.isEmpty, "\(lab.unavailable.map(\.name))")
        #expect(catalogue.allSatisfy { $0.unavailable == nil })
        for name in Self.legacyCases {
            #expect(lab.scenario(name)?.scenario.legacyServer != nil, "\(name) is served by a responder")
        }
        // Every badssl.com case of the catalogue (certificates, known-bad roots, client, TLS).
        let badssl = LabScenario.all.compactMap(\.badssl)
        #expect(badssl.count == 54, "\(badssl.count) badssl.com cases")
        #expect(LabScenario.all.allSatisfy { $0.unavailable == nil })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any])
        #expect((json["unavailable"] as? [Any])?.isEmpty == true)
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        #expect((scenarios.compactMap { $0["badssl"] as? String }) == lab.scenarios.map(\.name))
        #expect(scenarios.allSatisfy { ($0["host"] as? String)?.hasSuffix(".badssl.trustx.test") == true })
        #expect(!lab.table().contains("Not served on this machine"))
    }

    /// The cases OpenSSL 3 cannot be, which raw responders play.
    static let legacyCases = ["3des", "rc4", "rc4-md5", "ssl-v3", "ssl-v2"]

    /// Why those five need responders, confirmed by the openssl command line of the same build:
    /// no RC4 or 3DES cipher suite, no -ssl3 or -ssl2 option.
    @Test func testThisOpenSSLHasNoneOfWhatTheLegacyRespondersPlay() throws {
        for cipher in ["RC4:@SECLEVEL=0", "RC4-MD5:@SECLEVEL=0", "3DES:@SECLEVEL=0"] {
            let r = try Shell.run(URL(fileURLWithPath: "/usr/bin/openssl"), ["ciphers", "-v", cipher])
            #expect(r.status != 0, "openssl has \(cipher): \(r.out)")
        }
        let help = try Shell.run(URL(fileURLWithPath: "/usr/bin/openssl"), ["s_client", "-help"])
        #expect(!((help.out + help.err).contains("-ssl3 ")), "this openssl speaks SSLv3: serve ssl-v3 with it")
        #expect(!((help.out + help.err).contains("-ssl2 ")))
    }

    /// What the responders answer, as openssl s_client sees it (`-msg` prints each record's
    /// version and each message): the RC4 and 3DES servers a fatal handshake_failure alert (40);
    /// the SSL 3.0 server an SSL 3.0 ServerHello to a client offering an SSL 3.0 suite, which the
    /// client refuses ("unsupported protocol"), and an alert in an SSL 3.0 record to one offering
    /// only ECDHE (as ATS does); the SSL 2.0 server bytes that are no TLS record.
    @Test func testTheLegacyCasesAnswerTheClientHelloAsSuchAServerDoesSeenByOpenSSL() throws {
        let lab = try running()
        func s(_ name: String) throws -> RunningScenario { try #require(lab.scenario(name)) }
        var runs: [(RunningScenario, [String])] = try ["3des", "rc4", "rc4-md5"].map { (try s($0), ["-msg"]) }
        runs.append((try s("ssl-v3"), ["-msg", "-tls1_2", "-cipher", "AES256-SHA:@SECLEVEL=0"]))
        runs.append((try s("ssl-v3"), ["-msg", "-tls1_2", "-cipher", "ECDHE:@SECLEVEL=0"]))
        runs.append((try s("ssl-v2"), ["-msg"]))
        let results = try sClients(runs)
        for (i, name) in ["3des", "rc4", "rc4-md5"].enumerated() {
            let text = results[i].out + results[i].err
            #expect(text.contains("Alert [length 0002], fatal handshake_failure"), "\(name): \(text)")
            #expect(text.contains("SSL alert number 40"), "\(name): \(text)")
            #expect(results[i].status != 0, "\(name)")
        }
        let hello = results[3].out + results[3].err
        #expect(hello.contains("<<< SSL 3.0, RecordHeader"), "\(hello)")
        #expect(hello.contains("ServerHello"), "\(hello)")
        #expect(hello.contains("fatal protocol_version"), "the client refuses SSL 3.0: \(hello)")
        #expect(hello.contains("unsupported protocol"), "\(hello)")
        let ats = results[4].out + results[4].err
        #expect(ats.contains("<<< SSL 3.0, RecordHeader"), "\(ats)")
        #expect(ats.contains("fatal handshake_failure"), "\(ats)")
        let v2 = results[5].out + results[5].err
        #expect(v2.contains("wrong version number"), "\(v2)")
        #expect(results[5].status != 0)
    }

    /// The same five through `trustx check` as a learner runs it: the handshake fails before any
    /// evaluation (-1200, exit 69), and the report says why in the words of the answer received.
    @Test func testCheckAgainstEachLegacyCaseGivesTheDocumentedVerdictAndSaysWhy() throws {
        let lab = try running()
        let cases = try Self.legacyCases.map { try #require(lab.scenario($0)) }
        let results = CLI.runAll(
            cases.map { ["check"] + $0.targetArguments + ["--anchor", $0.anchorPath, "--timeout", "5"] })
        let reasons = [
            "3des": "alert handshake_failure (40)", "rc4": "alert handshake_failure (40)",
            "rc4-md5": "alert handshake_failure (40)", "ssl-v3": "the server chose SSL 3.0",
            "ssl-v2": "the server's answer is not TLS",
        ]
        for (s, result) in zip(cases, results) {
            let r = try result.get()
            #expect(s.expectation == LabExpectation(trusted: false, osstatus: nil, urlError: -1200), "\(s.name)")
            #expect(r.status == 69, "\(s.name): \(r.err)")
            #expect(r.err.contains(reasons[s.name]!), "\(s.name): \(r.err)")
            #expect(r.err.contains("(-1200)"), "\(s.name): \(r.err)")
        }
    }

    @Test func testEveryCaseGivesItsListedVerdictThroughCheck() throws {
        let lab = try running()
        let results = CLI.runAll(
            lab.scenarios.map {
                ["check"] + $0.targetArguments + ["--anchor", $0.anchorPath, "--format", "json", "--timeout", "5"]
            })
        for (s, result) in zip(lab.scenarios, results) {
            let r = try result.get()
            let (trusted, osstatus, urlError) = try verdict(r, s.name)
            #expect(trusted == s.expectation.trusted, "\(s.name): \(r.err)")
            #expect(osstatus.map(Int32.init) == s.expectation.osstatus, "\(s.name)")
            #expect(urlError == s.expectation.urlError, "\(s.name)")
            // 0 trusted; 69 when the handshake failed before any evaluation.
            #expect(r.status == (s.expectation.trusted ? 0 : 69), "\(s.name): \(r.err)")
        }
    }

    @Test func testEveryCaseGivesApplesATSVerdictThroughCheckWithItsInfoPlist() throws {
        let lab = try running()
        var checked = 0
        for s in lab.scenarios {
            #expect(s.atsCases.first?.atsCase.label == "ats-default", "\(s.name)")
        }
        let runs = lab.scenarios.flatMap { s in s.atsCases.map { c in (s, c) } }
        let results = CLI.runAll(
            runs.map { s, c in ["check"] + lab.arguments(for: c, of: s) + ["--format", "json", "--timeout", "5"] })
        for ((s, c), result) in zip(runs, results) {
            let label = "\(s.name) \(c.atsCase.label)"
            let r = try result.get()
            let (trusted, _, urlError) = try verdict(r, label)
            #expect(trusted == c.atsCase.expectation.trusted, "\(label): \(r.out)")
            #expect(urlError == c.atsCase.expectation.urlError, "\(label)")
            #expect((r.status == 0) == c.atsCase.expectation.trusted, "\(label): exit \(r.status)")
            checked += 1
        }
        #expect(checked == (lab.scenarios.count + 3), "the exceptions of static-rsa, tls-v1-0 and tls-v1-1")
    }

    @Test func testEveryVariationGivesItsListedVerdictThroughCheck() throws {
        let lab = try running()
        var checked = 0
        let runs = lab.scenarios.flatMap { s in s.scenario.variations.map { v in (s, v) } }
        let results = CLI.runAll(
            runs.map { s, v in ["check"] + lab.arguments(for: v, of: s) + ["--format", "json", "--timeout", "5"] })
        for ((s, v), result) in zip(runs, results) {
            let r = try result.get()
            #expect((try verdict(r, s.name).0) == v.expectation.trusted, "\(s.name): \(r.err)")
            checked += 1
        }
        #expect(checked == 2)
    }

    /// What each server speaks, as openssl s_client sees it: the DH group's size, RSA key
    /// exchange, the protocol versions and the NULL suite that no client offers by default. The
    /// clients are independent processes, run side by side.
    @Test func testTheServersSpeakWhatBadsslConfigures() throws {
        let lab = try running()
        func s(_ name: String) throws -> RunningScenario { try #require(lab.scenario(name)) }
        let dhe = ["-tls1_2", "-cipher", "DHE:@SECLEVEL=0"]
        let groups = [("dh1024", 1024), ("dh2048", 2048), ("dh-composite", 2047), ("dh-small-subgroup", 2048)]
        let versions = [("tls-v1-0", "-tls1", "TLSv1"), ("tls-v1-1", "-tls1_1", "TLSv1.1")]
        var runs: [(RunningScenario, [String])] = try groups.map { (try s($0.0), dhe) }
        runs.append((try s("dh512"), dhe))
        runs.append((try s("dh2048"), ["-tls1_2", "-cipher", "ECDHE:@SECLEVEL=0"]))
        runs.append((try s("static-rsa"), ["-tls1_2", "-cipher", "ECDHE:DHE:ALL:@SECLEVEL=0"]))
        runs.append((try s("null"), ["-tls1_2", "-cipher", "eNULL:@SECLEVEL=0"]))
        for (name, flag, _) in versions {
            runs.append((try s(name), [flag, "-cipher", "DEFAULT:@SECLEVEL=0"]))
            runs.append((try s(name), ["-tls1_2"]))
        }
        runs.append((try s("mozilla-modern"), ["-tls1_1", "-cipher", "ALL:@SECLEVEL=0"]))
        var results = try sClients(runs)[...]
        func next() -> RunResult { results.removeFirst() }

        for (name, bits) in groups {
            let r = next()
            #expect(r.out.contains("Server Temp Key: DH, \(bits) bits"), "\(name): \(r.out)")
        }
        // Below 1,024 bits OpenSSL's own client refuses the group, at any security level.
        let dh512 = next()
        #expect(dh512.err.contains("dh key too small"), "\(dh512.err)")
        #expect((next().status) != 0)
        func cipher(_ r: RunResult) -> String {
            r.out.split(separator: "\n").first { $0.contains("Cipher is ") }.map {
                String($0.split(separator: " ").last!)
            }
                ?? ""
        }
        // Client-preferred ECDHE and DHE suites first: the server still picks RSA key exchange.
        let rsa = next()
        #expect(!cipher(rsa).isEmpty && !cipher(rsa).contains("DH"), "\(rsa.out)")
        let null = next()
        #expect(cipher(null).contains("NULL"), "\(null.out)")
        for (name, _, version) in versions {
            let r = next()
            #expect(r.out.contains("Protocol  : \(version)\n"), "\(name): \(r.out)")
            #expect((next().status) != 0, "\(name)")
        }
        #expect((next().status) != 0)
        #expect(results.isEmpty)
    }

    /// `sClient` for each of `runs`, four at a time, in the order of `runs`.
    func sClients(_ runs: [(RunningScenario, [String])]) throws -> [RunResult] {
        let commands = runs.map { s, arguments in
            ["20", "openssl", "s_client", "-connect", "127.0.0.1:\(s.port)", "-servername", s.host] + arguments
        }
        let results = CLI.inParallel(commands.count) {
            try Shell.run(URL(fileURLWithPath: "/usr/bin/timeout"), commands[$0])
        }
        return try results.map { try $0.get() }
    }
}

/// BadsslTLSCheckTests's shared set-up, outside the type so its suite attribute can name it.
private func badsslTLSCheckTestsSetUp() { BadsslTLSCheckTests.suiteSetUp() }

/// BadsslTLSCheckTests's shared tear-down, outside the type so its suite attribute can name it.
private func badsslTLSCheckTestsTearDown() { BadsslTLSCheckTests.suiteTearDown() }
