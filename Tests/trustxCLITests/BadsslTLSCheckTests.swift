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

    @Test func testTheLabServesOnlyTheseGroupsAndListsWhatThisOpenSSLCannotServe() throws {
        let lab = try running()
        let catalogue = LabScenario.all.filter { Self.groups.contains($0.group) }
        #expect(
            (lab.scenarios.map(\.name) + lab.unavailable.map(\.name))
                == (catalogue.filter { $0.unavailable == nil }.map(\.name)
                    + catalogue.filter { $0.unavailable != nil }.map(\.name)))
        #expect(Set(lab.unavailable.map(\.name)) == ["3des", "rc4", "rc4-md5", "ssl-v3", "ssl-v2"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any])
        let unavailable = try #require(json["unavailable"] as? [[String: Any]])
        #expect((unavailable.compactMap { $0["badssl"] as? String }) == lab.unavailable.map(\.name))
        #expect(unavailable.allSatisfy { ($0["reason"] as? String)?.isEmpty == false })
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        #expect((scenarios.compactMap { $0["badssl"] as? String }) == lab.scenarios.map(\.name))
        #expect(scenarios.allSatisfy { ($0["host"] as? String)?.hasSuffix(".badssl.trustx.test") == true })
    }

    /// The reasons given for the unavailable cases, confirmed by the openssl command line of the
    /// same build: no RC4 or 3DES cipher suite, no -ssl3 or -ssl2 option.
    @Test func testTheUnavailableCasesAreUnavailableToThisOpenSSL() throws {
        for cipher in ["RC4:@SECLEVEL=0", "RC4-MD5:@SECLEVEL=0", "3DES:@SECLEVEL=0"] {
            let r = try Shell.run(URL(fileURLWithPath: "/usr/bin/openssl"), ["ciphers", "-v", cipher])
            #expect(r.status != 0, "openssl has \(cipher): \(r.out)")
        }
        let help = try Shell.run(URL(fileURLWithPath: "/usr/bin/openssl"), ["s_client", "-help"])
        #expect(!((help.out + help.err).contains("-ssl3 ")), "this openssl speaks SSLv3: serve ssl-v3")
        #expect(!((help.out + help.err).contains("-ssl2 ")))
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
