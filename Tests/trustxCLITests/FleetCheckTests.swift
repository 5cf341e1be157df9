import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

/// `check` with several targets, `--targets FILE` and a `--connect-to` list, against three
/// `openssl s_server` processes started once for the class: two serve the test CA's leaf, one a
/// self-signed certificate whose name carries terminal escapes.
@Suite(.serialized, .onTestThreads, .fixture(setUp: fleetCheckTestsSetUp, tearDown: fleetCheckTestsTearDown))
final class FleetCheckTests {
    nonisolated(unsafe) static var servers: [OpenSSLServer] = []
    nonisolated(unsafe) static var startError: Error?

    static func suiteSetUp() {
        do {
            let pki = try TestPKI.get()
            let good = ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")]
            let hostile = ["-cert", pki.path("hostile.pem"), "-key", pki.path("hostile.key")]
            servers = [
                try OpenSSLServer(good, in: pki.directory), try OpenSSLServer(hostile, in: pki.directory),
                try OpenSSLServer(good, in: pki.directory),
            ]
        } catch {
            startError = error
        }
    }

    static func suiteTearDown() {
        for s in servers { s.stop() }
        servers = []
    }

    func ports() throws -> [Int] {
        if let e = Self.startError { throw e }
        return Self.servers.map(\.port)
    }

    /// The lowercase hex SHA-256 of a PEM certificate, as `openssl x509 -fingerprint` computes it.
    func fingerprint(_ pem: String) throws -> String {
        let pki = try TestPKI.get()
        let run = try Shell.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "x509", "-in", pem, "-noout", "-fingerprint", "-sha256"],
            in: pki.directory)
        let value = try #require(run.out.split(separator: "=").last, "\(run.err)")
        return value.filter { $0 != ":" && $0 != "\n" }.lowercased()
    }

    /// A targets file naming the three servers, with a comment line, a trailing comment and a blank line.
    func targetsFile(_ ports: [Int]) throws -> String {
        let pki = try TestPKI.get()
        let text =
            "# staging pool\n127.0.0.1:\(ports[0])\n\n127.0.0.1:\(ports[1])   # the odd node\n"
            + "https://127.0.0.1:\(ports[2])/health\n"
        let path = pki.path("targets-\(UUID().uuidString).txt")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func testATargetsFileWithOneUntrustedServerGivesThreeJSONReportsInOrderAndExitsOne() throws {
        let pki = try TestPKI.get()
        let ports = try ports()
        let run = try CLI.run([
            "check", "--targets", try targetsFile(ports), "--anchor", pki.path("ca.pem"), "--format", "json",
        ])
        #expect(run.status == 1, "\(run.err)")
        let reports = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.out)")
        #expect(reports.count == 3)
        let trusted = reports.map { ($0["verdict"] as? [String: Any])?["trusted"] as? Bool }
        #expect(trusted == [true, false, true])
        #expect((reports.map { ($0["target"] as? [String: Any])?["port"] as? Int }) == ports)
        let leaves = reports.map { (($0["presented"] as? [[String: Any]])?.first?["sha256"] as? String) }
        let good = try fingerprint(pki.path("leaf.pem"))
        let bad = try fingerprint(pki.path("hostile.pem"))
        #expect(leaves == [good, bad, good])
    }

    @Test func testATargetsFileSummaryTableHasOneSanitizedRowPerServerAndExitsOne() throws {
        let pki = try TestPKI.get()
        let ports = try ports()
        let run = try CLI.run(["check", "--targets", try targetsFile(ports), "--anchor", pki.path("ca.pem")])
        #expect(run.status == 1, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("TARGET") ?? false, "\(run.out)")
        let good = String(try fingerprint(pki.path("leaf.pem")).prefix(16))
        let bad = String(try fingerprint(pki.path("hostile.pem")).prefix(16))
        #expect(lines[1].hasPrefix("127.0.0.1:\(ports[0]) ") && lines[1].contains(good), "\(run.out)")
        #expect(lines[1].contains(" trusted ") && lines[1].contains("trustx Test CA"), "\(run.out)")
        // A self-signed leaf under --anchor: no path to the anchor, errSecNotTrusted (-67843).
        #expect(lines[2].contains("not trusted: errSecNotTrusted (-67843)") && lines[2].contains(bad), "\(run.out)")
        #expect(lines[3].hasPrefix("https://127.0.0.1:\(ports[2])/health ") && lines[3].contains(good), "\(run.out)")
        #expect(run.out.contains("2 of 3 trusted"), "\(run.out)")
        #expect(!(run.out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E }))
    }

    @Test func testSeveralTargetsOnTheCommandLineAreCheckedLikeAFile() throws {
        let pki = try TestPKI.get()
        let ports = try ports()
        let run = try CLI.run(
            ["check"] + ports.map { "127.0.0.1:\($0)" } + [
                "--anchor", pki.path("ca.pem"), "--jobs", "2", "--format", "json",
            ])
        #expect(run.status == 1, "\(run.err)")
        let reports = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.out)")
        #expect((reports.map { ($0["target"] as? [String: Any])?["port"] as? Int }) == ports)
    }

    @Test func testAConnectToListGivesOneReportPerAddressUnderTheTargetsName() throws {
        let pki = try TestPKI.get()
        let ports = try ports()
        let run = try CLI.run([
            "check", "127.0.0.1:443", "--connect-to", "127.0.0.1:\(ports[0]),127.0.0.1:\(ports[2])", "--anchor",
            pki.path("ca.pem"), "--format", "json",
        ])
        #expect(run.status == 0, "\(run.err)")
        let reports = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.out)")
        let targets = reports.compactMap { $0["target"] as? [String: Any] }
        #expect((targets.map { $0["connectTo"] as? String }) == (["127.0.0.1:\(ports[0])", "127.0.0.1:\(ports[2])"]))
        #expect((targets.map { $0["port"] as? Int }) == [443, 443])
    }

    @Test func testAnUnreachableTargetMakesTheRunExitSixtyNine() throws {
        let pki = try TestPKI.get()
        let ports = try ports()
        // Port 1 on loopback: nothing listens there in the test environment, so the connection is refused.
        let run = try CLI.run(["check", "127.0.0.1:\(ports[1])", "127.0.0.1:1", "--anchor", pki.path("ca.pem")])
        #expect(run.status == 69, "\(run.out + run.err)")
        #expect(run.out.contains("127.0.0.1:1: "), "\(run.out)")
    }

    @Test func testALineWithARunWideOptionIsRefusedWithItsLineNumber() throws {
        let pki = try TestPKI.get()
        let path = pki.path("targets-bad-\(UUID().uuidString).txt")
        try "# fleet\n127.0.0.1:1\n127.0.0.1:2 --format json\n".write(toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(["check", "--targets", path])
        #expect(run.status == 64)
        #expect(run.err.contains("\(path):3: --format applies to the whole run"), "\(run.err)")
    }

    @Test func testAFileOverTheTargetLimitIsRefusedBeforeConnecting() throws {
        let pki = try TestPKI.get()
        let path = pki.path("targets-many-\(UUID().uuidString).txt")
        try String(repeating: "127.0.0.1:1\n", count: 1001).write(toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(["check", "--targets", path])
        #expect(run.status == 64)
        #expect(run.err.contains("\(path):1001: more than 1000 targets"), "\(run.err)")
    }

    /// A targets file saved with CRLF, with CR alone, or with both and LF: every line is a
    /// target of its own, as with LF (Swift reads "\r\n" as one Character, so a file split on
    /// "\n" as text lost its lines and reported the rest "trusted").
    @Test func testACRLFTargetsFileIsReadLineByLineAsWithLF() throws {
        let pki = try TestPKI.get()
        let ports = try ports()
        let trusted = "127.0.0.1:\(ports[0])"
        // Port 1: refused, so that a target lost into another's line cannot pass unnoticed.
        let files = [
            ("crlf", "\(trusted)\r\n127.0.0.1:1\r\n", [ports[0], 1]),
            ("cr", "\(trusted)\r127.0.0.1:1\r", [ports[0], 1]),
            ("mixed", "# pool\r\n\(trusted)\r127.0.0.1:1\n127.0.0.1:\(ports[2]) # last\r\n", [ports[0], 1, ports[2]]),
        ]
        for (name, text, expected) in files {
            let path = pki.path("targets-\(name)-\(UUID().uuidString).txt")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let run = try CLI.run(["check", "--targets", path, "--anchor", pki.path("ca.pem"), "--format", "json"])
            #expect(run.status == 69, "\(name): \(run.err)")
            let reports = try #require(
                try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(name): \(run.out)")
            #expect((reports.map { ($0["target"] as? [String: Any])?["port"] as? Int }) == expected, "\(name)")
        }
    }

    /// A `--connect-to` list on a line is counted while the file is read, from its commas, and
    /// refused at the bound with the line's number before any of it is split: the smallest
    /// shape, 1,001 empty addresses, is refused as too many checks (expanded first, it was
    /// refused for its empty addresses after millions of them had been made).
    @Test func testAConnectToListOnATargetsLineIsCountedWhileReading() throws {
        let pki = try TestPKI.get()
        let path = pki.path("targets-commas-\(UUID().uuidString).txt")
        try "127.0.0.1:1\n127.0.0.1:2 --connect-to \(String(repeating: ",", count: 1000))\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(["check", "--targets", path])
        #expect(run.status == 64)
        #expect(run.err.contains("\(path):2: more than 1000 checks"), "\(run.err)")
    }

    /// A line's words are counted while it is split: one more than any line needs is refused
    /// with the line's number, not made into millions of strings first.
    @Test func testATargetsLineOfManyWordsIsRefusedAtTheWordBound() throws {
        let pki = try TestPKI.get()
        let path = pki.path("targets-words-\(UUID().uuidString).txt")
        try ("127.0.0.1:1" + String(repeating: " x", count: 256) + "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(["check", "--targets", path])
        #expect(run.status == 64)
        #expect(run.err.contains("\(path):1: more than 256 words on one line"), "\(run.err)")
    }

    @Test func testJobsOutsideItsRangeIsAUsageError() throws {
        let run = try CLI.run(["check", "127.0.0.1:1", "127.0.0.1:2", "--jobs", "0"])
        #expect(run.status == 64)
        #expect(run.err.contains("'--jobs <count>'"), "\(run.err)")
    }

    @Test func testAnAnchorFileIsReadOnceForAllTargetsNotOncePerTarget() throws {
        let pki = try TestPKI.get()
        let ports = try ports()
        // 6 MB: the CA after explanatory text, which PEM allows. Three reads would pass the run's
        // 16 MB input allowance; one does not.
        let path = pki.path("big-anchor-\(UUID().uuidString).pem")
        let padding = String(repeating: String(repeating: "x", count: 99) + "\n", count: 60_000)
        try (padding + (try String(contentsOfFile: pki.path("ca.pem"), encoding: .utf8))).write(
            toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(
            ["check", "127.0.0.1:\(ports[0])", "127.0.0.1:\(ports[2])", "127.0.0.1:\(ports[0])", "--anchor", path])
        #expect(run.status == 0, "\(run.out + run.err)")
        #expect(run.out.contains("3 of 3 trusted"), "\(run.out)")
    }

    @Test func testAHugeLineIsRefusedWithABoundedMessage() throws {
        let pki = try TestPKI.get()
        let path = pki.path("targets-huge-\(UUID().uuidString).txt")
        let huge = "127.0.0.1:1 --" + String(repeating: "x", count: 200_000) + "\n"
        let target = String(repeating: "h", count: 200_000) + ".example\n"
        for line in [huge, target] {
            try line.write(toFile: path, atomically: true, encoding: .utf8)
            let run = try CLI.run(["check", "--targets", path, "--timeout", "2"])
            #expect(run.status == 64, "\(String(run.err.prefix(500)))")
            #expect(run.err.contains("\(path):1: "), "\(String(run.err.prefix(500)))")
            #expect(run.stderr.count < 2_000)
        }
    }
}

/// FleetCheckTests's shared set-up, outside the type so its suite attribute can name it.
private func fleetCheckTestsSetUp() { FleetCheckTests.suiteSetUp() }

/// FleetCheckTests's shared tear-down, outside the type so its suite attribute can name it.
private func fleetCheckTestsTearDown() { FleetCheckTests.suiteTearDown() }
