import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustLab

/// The TLS-inspection lessons, checked the way a trainee does it: the built `trustx check URL
/// --connect-to ...` against one lab serving only that group. The catalogue's verdicts are checked
/// for every scenario and variation; the pinned host's refusal is checked again from Apple's rule
/// itself (the code, the step, the words), and the served chain with openssl, so that the
/// refusal can only come from Apple's pinning.
@Suite(
    .serialized, .onTestThreads,
    .fixture(setUp: inspectionProxyCaseTestsSetUp, tearDown: inspectionProxyCaseTestsTearDown))
final class InspectionProxyCaseTests {
    nonisolated(unsafe) static var lab: Lab?

    static func suiteSetUp() {
        let names = LabScenario.all.filter { $0.group == .inspection }.map(\.name)
        lab = try? Lab.start(LabOptions(scenarios: names).patient)
    }

    static func suiteTearDown() {
        lab?.stop()
        lab = nil
    }

    func running() throws -> Lab { try #require(Self.lab, "the lab did not start") }

    func check(_ arguments: [String]) throws -> RunResult { try LabCatalogueCheck.check(arguments) }

    func assertVerdict(_ result: RunResult, _ expected: LabExpectation, _ label: String) throws {
        try LabCatalogueCheck.assertVerdict(result, expected, label)
    }

    @Test func testEveryInspectionScenarioAndVariationGivesItsStatedVerdictThroughCheck() throws {
        let lab = try running()
        #expect(lab.scenarios.map(\.name) == ["inspection-icloud", "inspection-example"])
        #expect((try LabCatalogueCheck.checkEveryScenarioAndVariation(of: lab)) == 6)
    }

    /// The classic case, spelt out without the catalogue: the proxy's root installed on the
    /// device, gateway.icloud.com is refused by Apple's system pinning with AnchorApple's code
    /// (errSecInvalidRoot, -67612 in Security's SecBase.h), URLSession's default handling
    /// reporting -1202; www.example.com through the same root is trusted, with no pinning step.
    @Test func testADeviceInstalledProxyRootIsRefusedForGatewayICloudAndTrustedForExampleCom() throws {
        let lab = try running()
        let root = lab.anchor(.inspectionProxyRoot).path
        let icloud = try #require(lab.scenario("inspection-icloud"))
        let example = try #require(lab.scenario("inspection-example"))
        let device = ["--anchor", root, "--anchor-class", "device"]

        let refused = try check(icloud.targetArguments + device)
        let json = try refused.json()
        let verdict = try #require(json["verdict"] as? [String: Any], "\(refused.out)")
        #expect((verdict["trusted"] as? Bool) == false)
        #expect((verdict["osstatus"] as? Int) == -67612)
        #expect((verdict["osstatusName"] as? String) == "errSecInvalidRoot")
        #expect((verdict["urlError"] as? Int) == -1202)
        let steps = try #require(json["steps"] as? [[String: Any]])
        let decisive = try #require(verdict["decisiveStep"] as? Int, "\(refused.out)")
        #expect((steps[decisive]["id"] as? String) == "system-pinning")
        #expect((steps[decisive]["appleCheck"] as? String) == "AnchorApple")
        #expect(
            (steps[decisive]["detail"] as? String)?.hasPrefix("Apple pins this host to its own CAs") ?? false,
            "\(steps[decisive])")
        // Every other step passed or did not apply: the pin is the only thing wrong.
        for step in steps where step["id"] as? String != "system-pinning" {
            #expect((step["status"] as? String) != "failed", "\(step)")
        }

        let trusted = try check(example.targetArguments + device)
        let trustedVerdict = try #require(try trusted.json()["verdict"] as? [String: Any], "\(trusted.out)")
        #expect((trustedVerdict["trusted"] as? Bool) == true, "\(trusted.out)")
        #expect(trusted.status == 0)
        let trustedSteps = try #require(try trusted.json()["steps"] as? [[String: Any]])
        #expect(!(trustedSteps.contains { $0["id"] as? String == "system-pinning" }), "Apple pins no example.com")

        // The text report a trainee reads says why, in the words the explorer's Detail pane shows.
        let text = try CLI.run(["check"] + icloud.targetArguments + device + ["--timeout", "10"])
        #expect(text.status == 1)
        #expect(text.out.contains("Apple pins this host to its own CAs"), "\(text.out)")
    }

    /// Without the proxy's root the path stops at the leaf for both hosts (MissingIntermediate,
    /// subtype Trust, -25318), but for gateway.icloud.com the pin is judged on that path too and
    /// Apple reports the higher-priority subtype, Pinning: errSecInvalidRoot, -67612, with the
    /// missing issuer still listed among the failed steps.
    @Test func testWithoutTheProxyRootThePinOutranksTheMissingIssuerForGatewayICloudOnly() throws {
        let lab = try running()
        for (name, code, decisive) in [
            ("inspection-icloud", -67612, "system-pinning"), ("inspection-example", -25318, "chain"),
        ] {
            let s = try #require(lab.scenario(name))
            let result = try check(s.targetArguments)
            let json = try result.json()
            let verdict = try #require(json["verdict"] as? [String: Any], "\(result.out)")
            #expect((verdict["osstatus"] as? Int) == code, "\(name)")
            #expect((verdict["urlError"] as? Int) == -1202, "\(name)")
            let steps = try #require(json["steps"] as? [[String: Any]])
            let index = try #require(verdict["decisiveStep"] as? Int, "\(result.out)")
            #expect((steps[index]["id"] as? String) == decisive, "\(name)")
            #expect(
                steps.contains { $0["id"] as? String == "chain" && $0["status"] as? String == "failed" },
                "\(name): the missing issuer is reported too")
        }
    }

    /// The hosts are the real names, never resolved: each is reached with `--connect-to` the
    /// lab's loopback port, and what the server sends is the proxy's leaf alone, naming that
    /// host. openssl, given the proxy's root, accepts that leaf for that host: outside Apple's
    /// pinning nothing is wrong with it.
    @Test func testTheRealHostsAreReachedThroughConnectToWithALeafOpenSSLAcceptsUnderTheProxyRoot() throws {
        let lab = try running()
        let root = lab.anchor(.inspectionProxyRoot)
        let subject = try Shell.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "x509", "-noout", "-subject", "-in", root.path])
        #expect(subject.out == "subject=CN = Inspection Proxy Root\n")
        for (name, host) in [("inspection-icloud", "gateway.icloud.com"), ("inspection-example", "www.example.com")] {
            let s = try #require(lab.scenario(name))
            #expect(s.host == host)
            #expect(s.url == ("https://\(host):\(s.port)/"))
            #expect(s.connectTo == ("127.0.0.1:\(s.port)"))
            #expect(s.targetArguments == ([s.url, "--connect-to", "127.0.0.1:\(s.port)"]))
            #expect(s.served.count == 1, "\(name): the leaf alone")
            let verify = try Shell.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "openssl", "verify", "-CAfile", root.path, "-purpose", "sslserver", "-verify_hostname", host,
                    s.chainPath,
                ])
            #expect(verify.status == 0, "\(name): \(verify.out)\(verify.err)")
            // The Library Test CA, every other scenario's anchor, did not issue it.
            let other = try Shell.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["openssl", "verify", "-CAfile", lab.anchor(.libraryTestCA).path, s.chainPath])
            #expect(other.status != 0, "\(name): \(other.out)")
        }
    }
}

/// InspectionProxyCaseTests's shared set-up, outside the type so its suite attribute can name it.
private func inspectionProxyCaseTestsSetUp() { InspectionProxyCaseTests.suiteSetUp() }

/// InspectionProxyCaseTests's shared tear-down, outside the type so its suite attribute can name it.
private func inspectionProxyCaseTestsTearDown() { InspectionProxyCaseTests.suiteTearDown() }
