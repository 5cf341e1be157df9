import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustLab

/// badssl.com's certificate, known-bad and client cases in the lab, each checked the way a
/// trainee does it: the built `trustx check URL --connect-to ... --anchor FILE` against one lab
/// serving only those cases. The expected verdicts are the catalogue's, which cites Apple's rule
/// for each (docs/lab.md, "badssl.com: certificates").
@Suite(.serialized, .onTestThreads, .fixture(setUp: badSSLCaseTestsSetUp, tearDown: badSSLCaseTestsTearDown))
final class BadSSLCaseTests {
    nonisolated(unsafe) static var lab: Lab?

    /// Every badssl.com name this part of the lab covers.
    static let names: Set<String> = [
        "1000-sans", "10000-sans", "ecc256", "ecc384", "expired", "extended-validation", "incomplete-chain",
        "no-common-name", "no-sct", "no-subject", "pinning-test", "reversed-chain", "revoked", "rsa2048", "rsa4096",
        "rsa8192", "self-signed", "sha1", "sha1-2016", "sha1-2017", "sha1-intermediate", "sha256", "sha384", "sha512",
        "untrusted-root", "wrong.host", "xn--n1aae7f7o", "dsdtestprovider", "edellroot", "preact-cli", "superfish",
        "webpack-dev-server", "client", "client-cert-missing",
    ]

    static func suiteSetUp() {
        // Keys made by openssl ahead of time: the lab would otherwise make them for the first
        // client, which takes up to a minute for RSA 8,192.
        _ = try? LabSlowKeys.preload(privateKeyPEM: SlowKeyFixtures.rsa4096)
        _ = try? LabSlowKeys.preload(privateKeyPEM: SlowKeyFixtures.rsa8192)
        let scenarios = LabScenario.all.filter { $0.badssl.map(names.contains) ?? false }.map(\.name)
        lab = try? Lab.start(LabOptions(scenarios: scenarios).patient)
    }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    func running() throws -> Lab { try #require(Self.lab, "the lab did not start") }

    /// One `trustx check` and what it should give.
    struct Run: Sendable {
        var label: String
        var arguments: [String]
        var expected: LabExpectation
    }

    /// What one check gave: its JSON verdict's three values, or why there is none.
    struct Outcome: Sendable {
        var trusted: Bool?
        var osstatus: Int32?
        var urlError: Int?
        var failure: String?
        /// The size of the key of the first certificate the server presented.
        var presentedKeyBits: Int?
    }

    /// Runs the checks a few at a time (each is a process that mostly waits on its own start-up
    /// and the handshake).
    func outcomes(_ runs: [Run]) -> [Int: Outcome] {
        let results = CLI.runAll(runs.map { ["check"] + $0.arguments + ["--format", "json", "--timeout", "10"] })
        var outcomes: [Int: Outcome] = [:]
        for (i, result) in results.enumerated() {
            var outcome = Outcome()
            do {
                let r = try result.get()
                if let v = try? r.json()["verdict"] as? [String: Any] {
                    outcome.trusted = v["trusted"] as? Bool
                    outcome.osstatus = (v["osstatus"] as? Int).map(Int32.init)
                    outcome.urlError = v["urlError"] as? Int
                    let presented = try? r.json()["presented"] as? [[String: Any]]
                    outcome.presentedKeyBits = (presented?.first?["key"] as? [String: Any])?["bits"] as? Int
                } else {
                    outcome.failure = r.out + r.err
                }
            } catch {
                outcome.failure = "\(error)"
            }
            outcomes[i] = outcome
        }
        return outcomes
    }

    @Test func testEveryBadSSLCaseGivesItsStatedVerdictThroughCheck() throws {
        let lab = try running()
        #expect(Set(lab.scenarios.compactMap(\.scenario.badssl)) == Self.names)
        var runs: [Run] = []
        // The lab's own lessons among them (expired, self-signed, ...) are checked with the same
        // command line, variations and all, by LabCheckTests.
        for s in lab.scenarios where s.scenario.group != .lessons {
            runs.append(
                Run(label: s.name, arguments: s.targetArguments + ["--anchor", s.anchorPath], expected: s.expectation))
            for v in s.scenario.variations {
                let arguments = lab.arguments(for: v, of: s)
                runs.append(
                    Run(
                        label: "\(s.name) \(arguments.dropFirst().joined(separator: " "))", arguments: arguments,
                        expected: v.expectation))
            }
        }
        let results = outcomes(runs)
        for (i, run) in runs.enumerated() {
            let got = try #require(results[i], "\(run.label): not run")
            if let failure = got.failure { Issue.record("\(run.label): no verdict: \(failure)") }
            #expect(got.trusted == run.expected.trusted, "\(run.label): trusted")
            #expect(got.osstatus == run.expected.osstatus, "\(run.label): OSStatus")
            #expect(got.urlError == run.expected.urlError, "\(run.label): URLError")
        }
        // rsa2048's key is made for its first client, not at start-up: what the server sent
        // says its size.
        let rsa2048 = try #require(runs.firstIndex { $0.label == "rsa2048" })
        #expect((results[rsa2048]?.presentedKeyBits) == 2048)
        // 10,000 names make a Certificate message over the probe's 256 KiB bound. Its chain is
        // made (and its file written) for its first client.
        let tenThousand = try #require(lab.scenario("10000-sans"))
        let chain = try String(contentsOfFile: tenThousand.chainPath, encoding: .utf8)
        #expect((chain.utf8.count * 3 / 4) > (256 * 1024))
    }

    /// The badssl.com cases sit above the AIA server's offset (99): a fixed port base must leave
    /// room for them too, or the lab refuses it before binding anything.
    @Test func testAPortBaseWithNoRoomForTheBadSSLOffsetsIsRefused() {
        if let thrown = #expect(
            throws: (any Error).self,
            performing: { try Lab.start(LabOptions(scenarios: ["client-cert-missing"], portBase: 65_400)) })
        {
            #expect(
                ((thrown as? LabError)?.description)
                    == "port base 65400 leaves no room for every scenario below 65536")
        }
    }

    /// The hosts read as on the web, under the lab's domain, and the slow keys are the real sizes.
    @Test func testHostsKeepBadSSLNamesAndTheRSACasesServeTheirKeySizes() throws {
        let lab = try running()
        for s in lab.scenarios where s.scenario.group != .lessons {
            #expect(s.host == ("\(s.name).badssl.trustx.test"))
            #expect(s.url.hasPrefix("https://\(s.name).badssl.trustx.test:"), "\(s.url)")
        }
        for (name, bits) in [("rsa4096", 4096), ("rsa8192", 8192), ("ecc384", 384)] {
            let s = try #require(lab.scenario(name))
            #expect(s.served.first?.publicKey.bits == bits, "\(name)")
        }
        // rsa2048's key is made in the background from the lab's start (D310), so its chain is
        // made for its first client unless the key was ready then (an earlier lab of this
        // process made it); its size, as the server sends it, and the 10,000-name chain made for
        // its first client are asserted after testEveryBadSSLCaseGivesItsStatedVerdictThroughCheck's checks.
        let rsa2048 = try #require(lab.scenario("rsa2048"))
        #expect(rsa2048.served.isEmpty || rsa2048.served.first?.publicKey.bits == 2048)
        #expect(lab.keyState(of: "rsa2048") != .notStarted, "its key is being made from the start")
    }
}

/// BadSSLCaseTests's shared set-up, outside the type so its suite attribute can name it.
private func badSSLCaseTestsSetUp() { BadSSLCaseTests.suiteSetUp() }

/// BadSSLCaseTests's shared tear-down, outside the type so its suite attribute can name it.
private func badSSLCaseTestsTearDown() { BadSSLCaseTests.suiteTearDown() }
