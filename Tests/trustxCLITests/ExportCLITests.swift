import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

/// A PKI for the export tests, made with the openssl command line: `ca.pem` certifies
/// `leaf.pem` for the DNS name pinned.trustx.test (reached on loopback with --connect-to, so
/// that ATS's local-host exemption does not apply), and `other-ca.pem` certifies nothing here.
struct ExportPKI: Sendable {
    static let host = "pinned.trustx.test"
    let directory: URL

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static let shared: Result<ExportPKI, Error> = Result { try ExportPKI.make() }

    static func make() throws -> ExportPKI {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-export-pki-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        for (name, cn) in [("ca", "Export Test CA"), ("other-ca", "Some Other CA")] {
            try Shell.openssl(
                ["req", "-x509"] + ec + [
                    "-keyout", "\(name).key", "-out", "\(name).pem", "-days", "3650", "-subj", "/CN=\(cn)",
                    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                ], in: dir)
        }
        try Shell.openssl(["req"] + ec + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=\(host)"], in: dir)
        try """
        basicConstraints=CA:FALSE
        keyUsage=critical,digitalSignature
        extendedKeyUsage=serverAuth
        subjectAltName=DNS:\(host)

        """.write(to: dir.appendingPathComponent("leaf.ext"), atomically: true, encoding: .utf8)
        try Shell.openssl(
            [
                "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "77",
                "-days", "365", "-extfile", "leaf.ext", "-out", "leaf.pem",
            ], in: dir)
        // The same name on a new key, as after a renewal that did not reuse the key.
        try Shell.openssl(
            ["req"] + ec + ["-keyout", "rotated.key", "-out", "rotated.csr", "-subj", "/CN=\(host)"], in: dir)
        try Shell.openssl(
            [
                "x509", "-req", "-in", "rotated.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "78",
                "-days", "365", "-extfile", "leaf.ext", "-out", "rotated.pem",
            ], in: dir)
        try Shell.openssl(["x509", "-in", "ca.pem", "-outform", "DER", "-out", "ca.der"], in: dir)
        return ExportPKI(directory: dir)
    }
}

/// `trustx export` run against `openssl s_server -www` on loopback: what curl and openssl do
/// with the exported commands must agree with trustx's verdict, and the pins openssl recomputes
/// are the expected values for trustx's. trustx runs in process, given the PKI's files by
/// absolute path; the exported scripts run in a shell in the PKI's directory, where they leave
/// what they write.
@Suite(.serialized, .onTestThreads, .fixture(tearDown: exportCLITestsTearDown)) final class ExportCLITests {
    var pki: ExportPKI!
    /// One s_server per certificate for the whole class (each test only connects to it), stopped
    /// in the class's tearDown.
    nonisolated(unsafe) static var servers: [String: OpenSSLServer] = [:]

    init() throws {
        pki = try ExportPKI.shared.get()
    }

    static func suiteTearDown() {
        servers.values.forEach { $0.stop() }
        servers = [:]
        if case .success(let pki) = ExportPKI.shared { try? FileManager.default.removeItem(at: pki.directory) }
    }

    /// The URL of the server presenting `leaf` and the --connect-to that reaches it on loopback.
    func serve(_ leaf: String = "leaf") throws -> [String] {
        let s: OpenSSLServer
        if let running = Self.servers[leaf] {
            s = running
        } else {
            s = try OpenSSLServer(
                ["-cert", pki.path("\(leaf).pem"), "-key", pki.path("\(leaf).key")], in: pki.directory)
            Self.servers[leaf] = s
        }
        return ["https://\(ExportPKI.host):\(s.port)/", "--connect-to", "127.0.0.1:\(s.port)"]
    }

    /// Each file's pin, asked of `trustx pin` once per class.
    nonisolated(unsafe) static var pins: [String: String] = [:]

    /// The pin `trustx pin` prints for the first certificate of `file`.
    func pin(_ file: String) throws -> String {
        if let known = Self.pins[file] { return known }
        let r = try CLI.run(["pin", pki.path(file)])
        #expect(r.status == 0, "\(r.err)")
        let line = try #require(r.out.split(separator: "\n").first { $0.contains("spki-sha256") })
        let pin = String(try #require(line.split(separator: " ").last))
        Self.pins[file] = pin
        return pin
    }

    /// Runs a generated script with bash in the PKI's directory.
    func runScript(_ script: String) throws -> RunResult {
        try Shell.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: pki.directory)
    }

    /// trustx check's status and the exported curl command's, for the same options (check and
    /// export run side by side), and the exported command.
    func checkAndCurl(_ target: [String], _ options: [String], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (check: Int32, curl: Int32, export: String)
    {
        let runs = CLI.runAll(
            [["check"] + target + options, ["export", "curl"] + target + options])
        let check = try runs[0].get()
        let export = try runs[1].get()
        #expect(export.status == 0, "\(export.err)", sourceLocation: sourceLocation)
        let curl = try runScript(export.out)
        return (check.status, curl.status, export.out)
    }

    @Test func testCurlAcceptsWhatTrustxTrusts() throws {
        let target = try serve()
        let r = try checkAndCurl(target, ["--anchor", pki.path("ca.pem"), "--pin", "sha256//" + (try pin("leaf.pem"))])
        #expect(r.check == 0)
        #expect(r.curl == 0, "curl exit 0: the transfer succeeded")
    }

    @Test func testCurlRejectsAPinMismatchWithExit90() throws {
        let target = try serve()
        let r = try checkAndCurl(
            target, ["--anchor", pki.path("ca.pem"), "--pin", "sha256//" + (try pin("other-ca.pem"))])
        #expect(r.check == 1)
        #expect(r.curl == 90, "CURLE_SSL_PINNEDPUBKEYNOTMATCH")
    }

    @Test func testCurlRejectsTheWrongCAWithExit60() throws {
        let target = try serve()
        let r = try checkAndCurl(target, ["--anchor", pki.path("other-ca.pem")])
        #expect(r.check == 1)
        #expect(r.curl == 60, "CURLE_PEER_FAILED_VERIFICATION")
    }

    /// curl's --pinnedpubkey looks at the leaf's key only; an app's delegate (and --pin) at every
    /// key of the chain. The export says so where the two part.
    @Test func testCurlCannotPinACAKeyAndTheExportSaysSo() throws {
        let target = try serve()
        let options = ["--anchor", pki.path("ca.pem"), "--pin", "sha256//" + (try pin("ca.pem"))]
        let r = try checkAndCurl(target, options)
        #expect(r.check == 0)
        #expect(r.curl == 90)
        #expect(r.export.contains("with no leaf pin it fails (90)"), "\(r.export)")
    }

    @Test func testCurlReadsDERAnchorsThroughAPEMHereDocument() throws {
        let target = try serve()
        let r = try checkAndCurl(target, ["--anchor", pki.path("ca.der")])
        #expect(r.check == 0)
        #expect(r.curl == 0)
        #expect(r.export.contains("--cacert trustx-anchors-"), "\(r.export)")
        for name in try FileManager.default.contentsOfDirectory(atPath: pki.directory.path)
        where name.hasPrefix("trustx-anchors-") {
            try? FileManager.default.removeItem(atPath: pki.path(name))
        }
    }

    @Test func testOpenSSLRecomputesEveryPinTrustxComputes() throws {
        let target = try serve()
        let export = try CLI.run(["export", "openssl"] + target + ["--anchor", pki.path("ca.pem")])
        #expect(export.status == 0, "\(export.err)")
        let run = try runScript(export.out)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        // openssl's output is the expected value: the leaf from the server, then the built path.
        #expect(lines.count == 4, "\(run.out)")
        #expect(Array(lines.prefix(3)) == ([try pin("leaf.pem"), try pin("leaf.pem"), try pin("ca.pem")]))
        #expect(lines[3].hasSuffix("leaf.pem: OK"), "\(lines[3])")
    }

    @Test func testOpenSSLVerifyFailsUnderTheWrongAnchorAndKeepsNoSystemRoots() throws {
        let target = try serve()
        let export = try CLI.run(["export", "openssl"] + target + ["--anchor", pki.path("other-ca.pem")])
        #expect(export.status == 0, "\(export.err)")
        #expect(export.err.contains("do not trust the chain"), "\(export.err)")
        #expect(export.out.contains("-no-CApath -no-CAstore"), "\(export.out)")
        let run = try runScript(export.out)
        #expect(run.status == 2, "openssl verify's status for a failed verification: \(run.out)")
    }

    @Test func testOpenSSLWorksFromChainFilesWithoutAServer() throws {
        let export = try CLI.run(
            [
                "export", "openssl", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host",
                ExportPKI.host,
            ])
        #expect(export.status == 0, "\(export.err)")
        #expect(!export.out.contains("s_client"))
        #expect(export.out.contains("-verify_hostname \(ExportPKI.host)"))
        let run = try runScript(export.out)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ([try pin("leaf.pem"), try pin("ca.pem")]))
    }

    @Test func testTheExportedDelegateParses() throws {
        let target = ["https://\(ExportPKI.host):8443/"]
        let dir = try Run.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("Delegate.swift").path
        let export = try CLI.run(
            ["export", "swift"] + target + [
                "--anchor", pki.path("ca.pem"), "--with-system-anchors", "--pin", "sha256//" + (try pin("ca.pem")),
                "--output",
                out,
            ])
        #expect(export.status == 0, "\(export.err)")
        #expect(export.out == "")
        let parse = try Shell.run(URL(fileURLWithPath: "/opt/swift/usr/bin/swiftc"), ["-parse", out])
        #expect(parse.status == 0, "\(parse.err)")
        let source = try String(contentsOfFile: out, encoding: .utf8)
        #expect(source.contains("SecPolicyCreateSSL(true, \"\(ExportPKI.host)\" as CFString)"))
    }

    /// The exported Info.plist parses with Foundation and, read by `check --ats-plist`, gives the
    /// verdict the same pins give as --pin: on the server they came from, and after the leaf's
    /// key rotated (a leaf pin then fails both ways, a CA pin passes both ways).
    @Test func testTheExportedInfoPlistRoundTripsThroughATSPlist() throws {
        let dir = try Run.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Leaf and CA pins together are an AND in NSPinnedDomains and an OR for --pin, so they are
        // compared on the server they came from only; one category alone means the same both ways.
        let cases: [(name: String, pins: [String], servers: [String])] = [
            ("both", [try pin("leaf.pem"), try pin("ca.pem")], ["leaf"]),
            ("leaf", [try pin("leaf.pem")], ["leaf", "rotated"]),
            ("ca", [try pin("ca.pem")], ["leaf", "rotated"]),
        ]
        let target = try serve()
        let plists = cases.map { dir.appendingPathComponent("\($0.name).plist").path }
        let exports = CLI.runAll(
            zip(cases, plists).map { c, plist in
                ["export", "plist"] + target + ["--anchor", pki.path("ca.pem"), "--info-plist", "--output", plist]
                    + c.pins.flatMap { ["--pin", "sha256//" + $0] }
            })
        for ((c, plist), result) in zip(zip(cases, plists), exports) {
            let export = try result.get()
            #expect(export.status == 0, "\(export.err)")
            let parsed = try PropertyListSerialization.propertyList(
                from: try Data(contentsOf: URL(fileURLWithPath: plist)), options: [], format: nil)
            #expect(((parsed as? [String: Any])?["NSAppTransportSecurity"]) != nil, "\(c.name)")
        }
        // Every check, with pins and with the plist on each server, runs side by side.
        var compared: [(name: String, leaf: String)] = []
        var runs: [[String]] = []
        for leaf in ["leaf", "rotated"] {
            let served = try serve(leaf)
            for (c, plist) in zip(cases, plists) where c.servers.contains(leaf) {
                compared.append((c.name, leaf))
                runs.append(
                    ["check"] + served + ["--anchor", pki.path("ca.pem")]
                        + c.pins.flatMap { ["--pin", "sha256//" + $0] })
                runs.append(["check"] + served + ["--anchor", pki.path("ca.pem"), "--ats-plist", plist])
            }
        }
        // The rule the comparison rests on: a leaf pin alone does not survive the rotation.
        runs.append(
            ["check"] + (try serve("rotated")) + [
                "--anchor", pki.path("ca.pem"), "--pin", "sha256//" + (try pin("leaf.pem")),
            ])
        let results = CLI.runAll(runs)
        for (index, (name, leaf)) in compared.enumerated() {
            let withPins = try results[2 * index].get()
            let withPlist = try results[2 * index + 1].get()
            #expect(withPlist.status == withPins.status, "\(name) pins, \(leaf) server: \(withPlist.out)")
            // The rule: a leaf pin breaks when the leaf's key rotates, a CA pin survives it.
            let expected: Int32 = leaf == "rotated" && name == "leaf" ? 1 : 0
            #expect(withPlist.status == expected, "\(name) pins, \(leaf) server: \(withPlist.out)")
        }
        #expect((try results[2 * compared.count].get().status) == 1)
    }

    @Test func testUsageErrors() throws {
        let cases = [
            (["export"], "Missing expected argument '<format>'"),
            (["export", "yaml", "example.com"], "The value 'yaml' is invalid for '<format>'"),
            (["export", "curl", "--chain", pki.path("leaf.pem")], "curl needs a server"),
            (["export", "plist", "--chain", pki.path("leaf.pem")], "plist needs a host name"),
        ]
        for ((args, message), result) in zip(cases, CLI.runAll(cases.map(\.0))) {
            let r = try result.get()
            #expect(r.status == 64, "\(args)")
            #expect(r.err.hasPrefix("Error: \(message)"), "\(r.err)")
        }
    }

    @Test func testAnUnwritableOutputIsExit73() throws {
        let r = try CLI.run(
            ["export", "swift", "example.com", "--output", "/nonexistent-dir/x.swift"])
        #expect(r.status == 73)
        #expect(r.err.hasPrefix("Error: cannot write /nonexistent-dir/x.swift"), "\(r.err)")
    }
}

enum Run {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// ExportCLITests's shared tear-down, outside the type so its suite attribute can name it.
private func exportCLITestsTearDown() { ExportCLITests.suiteTearDown() }
