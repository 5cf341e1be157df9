import Foundation
import XCTest

/// `check --all-addresses`: one report per address a name resolves to, against openssl s_server.
final class AllAddressesTests: XCTestCase {
    /// The addresses getaddrinfo gives for `localhost`, as `getent ahosts` prints them.
    func localhostAddresses() throws -> [String] {
        let run = try Shell.run(URL(fileURLWithPath: "/usr/bin/getent"), ["ahosts", "localhost"])
        var out: [String] = []
        for line in run.out.split(separator: "\n") {
            guard let address = line.split(separator: " ").first.map(String.init) else { continue }
            if !out.contains(address) { out.append(address) }
        }
        return out
    }

    func testEachAddressGetsItsOwnReportAndTheWorstStatusWins() throws {
        let pki = try TestPKI.get()
        let server = try OpenSSLServer(
            ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: pki.directory)
        defer { server.stop() }
        let expected = try localhostAddresses()
        try XCTSkipIf(expected.isEmpty, "getent is missing or localhost does not resolve")
        let run = try CLI.run([
            "check", "localhost:\(server.port)", "--all-addresses", "--anchor", pki.path("ca.pem"), "--host",
            "127.0.0.1", "--format", "json",
        ])
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], run.out)
        XCTAssertEqual(reports.count, expected.count, run.out)
        for (report, address) in zip(reports, expected) {
            let target = report["target"] as? [String: Any]
            XCTAssertEqual(
                target?["connectTo"] as? String,
                address.contains(":") ? "[\(address)]:\(server.port)" : "\(address):\(server.port)")
            if address == "127.0.0.1" {
                XCTAssertEqual((report["verdict"] as? [String: Any])?["trusted"] as? Bool, true, run.out)
            }
        }
        // s_server listens on 127.0.0.1 only: any other address of localhost is unreachable.
        XCTAssertEqual(run.status, expected == ["127.0.0.1"] ? 0 : 69, run.err)

        let text = try CLI.run([
            "check", "localhost:\(server.port)", "--all-addresses", "--anchor", pki.path("ca.pem"), "--host",
            "127.0.0.1",
        ])
        XCTAssertTrue(text.out.hasPrefix("== localhost at \(expected[0]) (1 of \(expected.count)) =="), text.out)
    }

    func testAnAddressIsRefusedAsAName() throws {
        let run = try CLI.run(["check", "127.0.0.1:1", "--all-addresses"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.err.contains("--all-addresses needs a host name"), run.err)
    }
}
