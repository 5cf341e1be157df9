import Foundation
import SuiteFixtures
import Testing

/// `check --all-addresses`: one report per address a name resolves to, against openssl s_server.
@Suite(.serialized, .onTestThreads) final class AllAddressesTests {
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

    @Test func testEachAddressGetsItsOwnReportAndTheWorstStatusWins() throws {
        let pki = try TestPKI.get()
        let server = try OpenSSLServer(
            ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: pki.directory)
        defer { server.stop() }
        let expected = try localhostAddresses()
        if expected.isEmpty { try Test.cancel("getent is missing or localhost does not resolve") }
        let run = try CLI.run([
            "check", "localhost:\(server.port)", "--all-addresses", "--anchor", pki.path("ca.pem"), "--host",
            "127.0.0.1", "--format", "json",
        ])
        let reports = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.out)")
        #expect(reports.count == expected.count, "\(run.out)")
        for (report, address) in zip(reports, expected) {
            let target = report["target"] as? [String: Any]
            #expect(
                (target?["connectTo"] as? String)
                    == (address.contains(":") ? "[\(address)]:\(server.port)" : "\(address):\(server.port)"))
            if address == "127.0.0.1" {
                #expect(((report["verdict"] as? [String: Any])?["trusted"] as? Bool) == true, "\(run.out)")
            }
        }
        // s_server listens on 127.0.0.1 only: any other address of localhost is unreachable.
        #expect(run.status == (expected == ["127.0.0.1"] ? 0 : 69), "\(run.err)")

        let text = try CLI.run([
            "check", "localhost:\(server.port)", "--all-addresses", "--anchor", pki.path("ca.pem"), "--host",
            "127.0.0.1",
        ])
        #expect(text.out.hasPrefix("== localhost at \(expected[0]) (1 of \(expected.count)) =="), "\(text.out)")
    }

    @Test func testAnAddressIsRefusedAsAName() throws {
        let run = try CLI.run(["check", "127.0.0.1:1", "--all-addresses"])
        #expect(run.status == 64)
        #expect(run.err.contains("--all-addresses needs a host name"), "\(run.err)")
    }
}
