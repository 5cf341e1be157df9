import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

/// `check --quiet`, `--watch --until-change` and `--include-pem`, for scripts, against
/// `openssl s_server`. The expected codes are the rules': a certificate for another name fails
/// the hostname step with errSecHostNameMismatch (-67602) and, as the app that sets anchors
/// decides trust in its delegate, URLSession reports NSURLErrorCancelled (-999); a closed port
/// is NSURLErrorCannotConnectToHost (-1004).
@Suite(.serialized)
struct ScriptOptionsTests {
    let pki: TestPKI

    init() throws { pki = try TestPKI.get() }

    func leafServer() throws -> OpenSSLServer {
        try OpenSSLServer(["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: pki.directory)
    }

    // MARK: --quiet

    @Test func testQuietIsOneLineForACertificateForAnotherName() throws {
        let server = try leafServer()
        defer { server.stop() }
        let target = "https://other.trustx.test:\(server.port)"
        let run = try CLI.run([
            "check", target, "--connect-to", "127.0.0.1", "--anchor", pki.path("ca.pem"), "--quiet",
        ])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out == "\(target)\t127.0.0.1:\(server.port)\tnot-trusted\t-67602\t-999\n")
        #expect(run.err == "")
    }

    @Test func testQuietWithSeveralTargetsIsOneLineEachAndKeepsTheWorstStatus() throws {
        let good = try leafServer()
        defer { good.stop() }
        let closed = try leafServer()
        closed.stop()
        let run = try CLI.run([
            "check", "127.0.0.1:\(good.port)", "127.0.0.1:\(closed.port)", "--anchor", pki.path("ca.pem"), "--quiet",
        ])
        #expect(run.status == 69, "\(run.err)")
        #expect(
            run.out
                == "127.0.0.1:\(good.port)\t127.0.0.1:\(good.port)\ttrusted\t0\t-\n"
                + "127.0.0.1:\(closed.port)\t-\tfailed\t-\t-1004\n")
        #expect(run.err == "")
    }

    @Test func testQuietWithATargetsFileNamesEachLineByItsLabel() throws {
        let good = try leafServer()
        defer { good.stop() }
        let file = pki.path("quiet-targets-\(UUID().uuidString).txt")
        try "wrong=https://other.trustx.test:\(good.port) --connect-to 127.0.0.1\nright=127.0.0.1:\(good.port)\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let run = try CLI.run(["check", "--targets", file, "--anchor", pki.path("ca.pem"), "--quiet"])
        #expect(run.status == 1, "\(run.err)")
        let lines = run.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.map(\.first) == ["wrong", "right"], "\(run.out)")
        #expect(lines.first.map { Array($0.dropFirst(2)) } == ["not-trusted", "-67602", "-999"])
        #expect(lines.last.map { Array($0.dropFirst(2)) } == ["trusted", "0", "-"])
    }

    @Test func testQuietUnderWatchPrintsALineOnlyWhenItChanges() throws {
        let server = try leafServer()
        defer { server.stop() }
        let run = try CLI.run([
            "check", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem"), "--quiet", "--watch", "1",
            "--watch-count", "2",
        ])
        #expect(run.status == 0, "\(run.err)")
        // The second round is the same: no line, and no note on standard error either.
        #expect(run.out == "127.0.0.1:\(server.port)\t127.0.0.1:\(server.port)\ttrusted\t0\t-\n")
        #expect(run.err == "")
    }

    @Test func testQuietWithAnotherFormatIsAUsageError() throws {
        let run = try CLI.run(["check", "--chain", pki.path("leaf.pem"), "--quiet", "--format", "json"])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.out == "")
    }

    // MARK: --watch --until-change

    /// Stops `server` after `seconds`, while the watch runs on this thread.
    func stop(_ server: OpenSSLServer, after seconds: Double) {
        // The server is only stopped on the other thread; the test reads its port before.
        nonisolated(unsafe) let server = server
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            server.stop()
        }
    }

    @Test func testUntilChangeEndsTheWatchAtTheFirstChangeWithThatRoundsStatus() throws {
        let server = try leafServer()
        // The server goes between round 0 and round 1: round 1's failure is the first change.
        stop(server, after: 0.5)
        let start = Date()
        let run = try CLI.run([
            "check", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem"), "--watch", "1", "--watch-count",
            "30", "--until-change",
        ])
        // A connection refused: 69, the status of the round that changed, as docs/cli.md gives it.
        #expect(run.status == 69, "\(run.out)\(run.err)")
        #expect(Date().timeIntervalSince(start) < 15, "the watch went on past the change")
        let lines = run.out.split(separator: "\n")
        #expect(lines.last?.contains("failure:") ?? false, "\(run.out)")
        #expect(lines.last?.contains("(-1004)") ?? false, "\(run.out)")
    }

    @Test func testUntilChangeUnderQuietPrintsTheChangedLineAndExits() throws {
        let server = try leafServer()
        stop(server, after: 0.5)
        let run = try CLI.run([
            "check", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem"), "--watch", "1", "--watch-count",
            "30", "--until-change", "--quiet",
        ])
        #expect(run.status == 69, "\(run.err)")
        #expect(
            run.out
                == "127.0.0.1:\(server.port)\t127.0.0.1:\(server.port)\ttrusted\t0\t-\n"
                + "127.0.0.1:\(server.port)\t-\tfailed\t-\t-1004\n")
    }

    @Test func testUntilChangeWithoutWatchIsAUsageError() throws {
        let run = try CLI.run(["check", "127.0.0.1:1", "--until-change"])
        #expect(run.status == 64)
        #expect(run.err.contains("--until-change"), "\(run.err)")
    }

    // MARK: --include-pem

    /// The repository's docs/json-report.md.
    static let jsonReportDoc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/json-report.md")

    /// The keys of the table under `## heading` in docs/json-report.md: the first column's
    /// backquoted names (a row may name several).
    func documentedKeys(_ heading: String) throws -> Set<String> {
        let doc = try String(contentsOf: Self.jsonReportDoc, encoding: .utf8)
        let section = try #require(doc.components(separatedBy: "\n## " + heading + "\n").dropFirst().first)
        var keys: Set<String> = []
        for line in section.split(separator: "\n").prefix(100) {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("| `"), let cell = line.split(separator: "|").first else { continue }
            for part in cell.split(separator: ",") {
                keys.insert(
                    part.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")))
            }
        }
        return keys
    }

    @Test func testIncludePEMPutsEachCertificatesPEMInPresentedAndPathAsOpenSSLWritesIt() throws {
        let run = try CLI.run([
            "check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--format", "json",
            "--include-pem",
        ])
        #expect(run.status == 0, "\(run.err)")
        let report = try run.json()
        let presented = try #require(report["presented"] as? [[String: Any]])
        let path = try #require(report["path"] as? [[String: Any]])
        // openssl's own PEM of each certificate, not our encoder's.
        func pem(_ file: String) throws -> String {
            try Shell.run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "x509", "-in", pki.path(file)]).out
        }
        #expect(presented.map { $0["pem"] as? String } == [try pem("leaf.pem")])
        // The path's anchor came from --anchor, not from the server: its PEM is there too.
        #expect(path.map { $0["pem"] as? String } == [try pem("leaf.pem"), try pem("ca.pem")])
        // docs/json-report.md documents every key of both, pem included.
        let presentedKeys = Set(try #require(presented.first).keys)
        let pathKeys = Set(try #require(path.first).keys)
        #expect(presentedKeys.contains("pem") && pathKeys.contains("pem"))
        #expect(presentedKeys.subtracting(try documentedKeys("`presented[]`")).isEmpty)
        #expect(pathKeys.subtracting(try documentedKeys("`path[]`")).isEmpty)
    }

    @Test func testWithoutIncludePEMTheReportHasNoPEM() throws {
        let run = try CLI.run([
            "check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--format", "json",
        ])
        let report = try run.json()
        let presented = try #require(report["presented"] as? [[String: Any]])
        let path = try #require(report["path"] as? [[String: Any]])
        #expect(!(presented + path).contains { $0["pem"] != nil })
    }

    @Test func testIncludePEMReachesEveryReportOfSeveralTargets() throws {
        let server = try leafServer()
        defer { server.stop() }
        let run = try CLI.run([
            "check", "127.0.0.1:\(server.port)", "127.0.0.1:\(server.port)", "--anchor", pki.path("ca.pem"),
            "--format", "json", "--include-pem",
        ])
        #expect(run.status == 0, "\(run.err)")
        let reports = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        let leaf = try Shell.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "x509", "-in", pki.path("leaf.pem")]
        ).out
        #expect(
            reports.map { (($0["presented"] as? [[String: Any]])?.first?["pem"] as? String) } == [leaf, leaf])
    }

    @Test func testIncludePEMWithoutJSONIsAUsageError() throws {
        let run = try CLI.run(["check", "--chain", pki.path("leaf.pem"), "--include-pem"])
        #expect(run.status == 64)
        #expect(run.err.contains("--format json"), "\(run.err)")
    }
}
