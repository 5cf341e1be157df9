import Foundation
import TrustCore
import TrustLab
import XCTest

/// The TLS-inspection lessons, checked the way a trainee does it: the built `trustx check URL
/// --connect-to ...` against one lab serving only that group. The catalogue's verdicts are checked
/// for every scenario and variation; the pinned host's refusal is checked again from Apple's rule
/// itself (the code, the step, the words), and the served chain with openssl, so that the
/// refusal can only come from Apple's pinning.
final class InspectionProxyCaseTests: XCTestCase {
    nonisolated(unsafe) static var lab: Lab?

    override class func setUp() {
        super.setUp()
        let names = LabScenario.all.filter { $0.group == .inspection }.map(\.name)
        lab = try? Lab.start(LabOptions(scenarios: names))
    }

    override class func tearDown() {
        lab?.stop()
        lab = nil
        super.tearDown()
    }

    func running() throws -> Lab { try XCTUnwrap(Self.lab, "the lab did not start") }

    func check(_ arguments: [String]) throws -> RunResult { try LabCatalogueCheck.check(arguments) }

    func assertVerdict(_ result: RunResult, _ expected: LabExpectation, _ label: String) throws {
        try LabCatalogueCheck.assertVerdict(result, expected, label)
    }

    func testEveryInspectionScenarioAndVariationGivesItsStatedVerdictThroughCheck() throws {
        let lab = try running()
        XCTAssertEqual(lab.scenarios.map(\.name), ["inspection-icloud", "inspection-example"])
        XCTAssertEqual(try LabCatalogueCheck.checkEveryScenarioAndVariation(of: lab), 6)
    }

    /// The classic case, spelt out without the catalogue: the proxy's root installed on the
    /// device, gateway.icloud.com is refused by Apple's system pinning with AnchorApple's code
    /// (errSecInvalidRoot, -67612 in Security's SecBase.h), URLSession's default handling
    /// reporting -1202; www.example.com through the same root is trusted, with no pinning step.
    func testADeviceInstalledProxyRootIsRefusedForGatewayICloudAndTrustedForExampleCom() throws {
        let lab = try running()
        let root = lab.anchor(.inspectionProxyRoot).path
        let icloud = try XCTUnwrap(lab.scenario("inspection-icloud"))
        let example = try XCTUnwrap(lab.scenario("inspection-example"))
        let device = ["--anchor", root, "--anchor-class", "device"]

        let refused = try check(icloud.targetArguments + device)
        let json = try refused.json()
        let verdict = try XCTUnwrap(json["verdict"] as? [String: Any], refused.out)
        XCTAssertEqual(verdict["trusted"] as? Bool, false)
        XCTAssertEqual(verdict["osstatus"] as? Int, -67612)
        XCTAssertEqual(verdict["osstatusName"] as? String, "errSecInvalidRoot")
        XCTAssertEqual(verdict["urlError"] as? Int, -1202)
        let steps = try XCTUnwrap(json["steps"] as? [[String: Any]])
        let decisive = try XCTUnwrap(verdict["decisiveStep"] as? Int, refused.out)
        XCTAssertEqual(steps[decisive]["id"] as? String, "system-pinning")
        XCTAssertEqual(steps[decisive]["appleCheck"] as? String, "AnchorApple")
        XCTAssertTrue(
            (steps[decisive]["detail"] as? String)?.hasPrefix("Apple pins this host to its own CAs") ?? false,
            "\(steps[decisive])")
        // Every other step passed or did not apply: the pin is the only thing wrong.
        for step in steps where step["id"] as? String != "system-pinning" {
            XCTAssertNotEqual(step["status"] as? String, "failed", "\(step)")
        }

        let trusted = try check(example.targetArguments + device)
        let trustedVerdict = try XCTUnwrap(try trusted.json()["verdict"] as? [String: Any], trusted.out)
        XCTAssertEqual(trustedVerdict["trusted"] as? Bool, true, trusted.out)
        XCTAssertEqual(trusted.status, 0)
        let trustedSteps = try XCTUnwrap(try trusted.json()["steps"] as? [[String: Any]])
        XCTAssertFalse(trustedSteps.contains { $0["id"] as? String == "system-pinning" }, "Apple pins no example.com")

        // The text report a trainee reads says why, in the words the explorer's Detail pane shows.
        let text = try CLI.run(["check"] + icloud.targetArguments + device + ["--timeout", "10"])
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.out.contains("Apple pins this host to its own CAs"), text.out)
    }

    /// Without the proxy's root the path stops at the leaf for both hosts (MissingIntermediate,
    /// subtype Trust, -25318), but for gateway.icloud.com the pin is judged on that path too and
    /// Apple reports the higher-priority subtype, Pinning: errSecInvalidRoot, -67612, with the
    /// missing issuer still listed among the failed steps.
    func testWithoutTheProxyRootThePinOutranksTheMissingIssuerForGatewayICloudOnly() throws {
        let lab = try running()
        for (name, code, decisive) in [
            ("inspection-icloud", -67612, "system-pinning"), ("inspection-example", -25318, "chain"),
        ] {
            let s = try XCTUnwrap(lab.scenario(name))
            let result = try check(s.targetArguments)
            let json = try result.json()
            let verdict = try XCTUnwrap(json["verdict"] as? [String: Any], result.out)
            XCTAssertEqual(verdict["osstatus"] as? Int, code, name)
            XCTAssertEqual(verdict["urlError"] as? Int, -1202, name)
            let steps = try XCTUnwrap(json["steps"] as? [[String: Any]])
            let index = try XCTUnwrap(verdict["decisiveStep"] as? Int, result.out)
            XCTAssertEqual(steps[index]["id"] as? String, decisive, name)
            XCTAssertTrue(
                steps.contains { $0["id"] as? String == "chain" && $0["status"] as? String == "failed" },
                "\(name): the missing issuer is reported too")
        }
    }

    /// The hosts are the real names, never resolved: each is reached with `--connect-to` the
    /// lab's loopback port, and what the server sends is the proxy's leaf alone, naming that
    /// host. openssl, given the proxy's root, accepts that leaf for that host: outside Apple's
    /// pinning nothing is wrong with it.
    func testTheRealHostsAreReachedThroughConnectToWithALeafOpenSSLAcceptsUnderTheProxyRoot() throws {
        let lab = try running()
        let root = lab.anchor(.inspectionProxyRoot)
        let subject = try Shell.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "x509", "-noout", "-subject", "-in", root.path])
        XCTAssertEqual(subject.out, "subject=CN = Inspection Proxy Root\n")
        for (name, host) in [("inspection-icloud", "gateway.icloud.com"), ("inspection-example", "www.example.com")] {
            let s = try XCTUnwrap(lab.scenario(name))
            XCTAssertEqual(s.host, host)
            XCTAssertEqual(s.url, "https://\(host):\(s.port)/")
            XCTAssertEqual(s.connectTo, "127.0.0.1:\(s.port)")
            XCTAssertEqual(s.targetArguments, [s.url, "--connect-to", "127.0.0.1:\(s.port)"])
            XCTAssertEqual(s.served.count, 1, "\(name): the leaf alone")
            let verify = try Shell.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "openssl", "verify", "-CAfile", root.path, "-purpose", "sslserver", "-verify_hostname", host,
                    s.chainPath,
                ])
            XCTAssertEqual(verify.status, 0, "\(name): \(verify.out)\(verify.err)")
            // The Library Test CA, every other scenario's anchor, did not issue it.
            let other = try Shell.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["openssl", "verify", "-CAfile", lab.anchor(.libraryTestCA).path, s.chainPath])
            XCTAssertNotEqual(other.status, 0, "\(name): \(other.out)")
        }
    }
}
