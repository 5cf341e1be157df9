import Foundation
import SuiteFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a script and a developer met first on the command line (issue 28, items 11-14, the
/// command-line parts of item 18 and "what the roles missed"): each test is named after the
/// defect or the missing piece, against the built binary and `openssl s_server` on loopback.
/// Expected pins are computed with openssl; expected codes are Apple's documented ones.
@Suite(.serialized, .onTestThreads) final class CommandLineRoleTests {
    let pki: TestPKI
    let dir: URL

    init() throws {
        pki = try TestPKI.get()
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-roles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// Runs trustx with standard input from `stdin`: in process, or, when `redirect` is given,
    /// the executable through /bin/sh with `redirect` applied to its standard output
    /// (`> /dev/full`, `>&-`: the process's descriptor is the subject), in the environment
    /// `CLI.run` gives it.
    func run(_ arguments: [String], stdin: String? = nil, redirect: String = "") throws -> RunResult {
        if redirect.isEmpty { return try CLI.run(arguments, standardInput: stdin) }
        var env = ProcessInfo.processInfo.environment
        for key in ["NO_COLOR", "LC_ALL", "LC_CTYPE", "TERM"] { env.removeValue(forKey: key) }
        env["LANG"] = "C.UTF-8"
        var script = "exec \"$0\" \"$@\""
        if let stdin {
            env["TRUSTX_TEST_STDIN"] = stdin
            script += " < \"$TRUSTX_TEST_STDIN\""
        }
        script += redirect
        return try Shell.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, CLI.binary.path] + arguments, environment: env)
    }

    /// The SPKI SHA-256 pin of a key openssl can read (`pkey`, or `-pubin` for a public key).
    func opensslPin(_ file: String, publicKey: Bool = false, password: String? = nil) throws -> String {
        var pkey = "openssl pkey -in \"$1\"" + (publicKey ? " -pubin" : "")
        if let password { pkey += " -passin pass:\(password)" }
        let r = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", pkey + " -pubout -outform DER | openssl dgst -sha256 -binary | base64", "sh", file])
        let pin = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(pin.count == 44, "\(r.err)")
        return pin
    }

    func leafServer() throws -> OpenSSLServer {
        try OpenSSLServer(["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: pki.directory)
    }

    // MARK: Item 11

    @Test func testLabOutSaysOnCtrlCThatItsFilesAreKept() throws {
        let out = path("lab-out")
        let scratch = path("lab-stdout")
        _ = FileManager.default.createFile(atPath: scratch, contents: nil)
        let errFile = path("lab-stderr")
        _ = FileManager.default.createFile(atPath: errFile, contents: nil)
        let process = try StartedChild(
            CLI.binary, ["lab", "--out", out, "--scenario", "good"],
            stdout: try FileHandle(forWritingTo: URL(fileURLWithPath: scratch)),
            stderr: try FileHandle(forWritingTo: URL(fileURLWithPath: errFile)))
        let giveUp = Date().addingTimeInterval(20)
        while Date() < giveUp && process.isRunning {
            if ((try? String(contentsOfFile: scratch, encoding: .utf8)) ?? "").contains("Serving until Ctrl-C") {
                break
            }
            usleep(10_000)
        }
        process.signal(SIGINT)
        process.waitForExit()
        let err = (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? ""
        #expect(process.status == 0, "\(err)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(!files.isEmpty, "--out keeps the lab's files")
        #expect(err.contains("files kept in \(out)"), "\(err)")
        #expect(!err.contains("removed"), "\(err)")
    }

    // MARK: Item 12

    @Test func testMarkdownForSeveralTargetsEndsWithTheSummaryAndTheFailureLines() throws {
        let server = try leafServer()
        defer { server.stop() }
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let closed = refusing.port
        let r = try CLI.run([
            "check", "127.0.0.1:\(server.port)", "127.0.0.1:\(closed)", "--anchor", pki.path("ca.pem"), "--format",
            "markdown",
        ])
        #expect(r.status == 69, "\(r.err)")
        // cli.md: the table, then `N of M trusted` and one line per connection that failed.
        #expect(r.out.contains("\n1 of 2 trusted, 1 could not be checked\n"), "\(r.out)")
        let failure = r.out.split(separator: "\n").first { $0.hasPrefix("- 127.0.0.1:\(closed): ") }
        // Nothing listens on the port: URLSession's NSURLErrorCannotConnectToHost (-1004).
        #expect(failure?.contains("(-1004)") == true, "\(r.out)")
    }

    // MARK: Item 13

    @Test func testAServerThatNeverAnswersIsTimedOutWithNoAnswerToTheClientHelloAndItsPeer() throws {
        let silent = try LoopbackListener { fd in
            sleep(5)
            close(fd)
        }
        defer { silent.stop() }
        let target = "127.0.0.1:\(silent.port)"
        let runs = CLI.runAll([
            ["check", target, "--timeout", "1"], ["check", target, "--timeout", "1", "--format", "json"],
        ])
        let (text, json) = (try runs[0].get(), try runs[1].get())
        // connecting.md, "Hostile servers": `timed-out`, "no answer to the ClientHello".
        #expect(text.status == 69)
        #expect(
            text.err.contains("timed out after 1.0 s during the TLS handshake (no answer to the ClientHello)"),
            "\(text.err)")
        #expect(text.err.contains("(-1001)"), "\(text.err)")
        let connection = try #require(try json.json()["connection"] as? [String: Any])
        #expect((connection["peerAddress"] as? String) == target, "\(json.out)")
        let error = try #require(connection["error"] as? [String: Any])
        #expect((error["kind"] as? String) == "timed-out")
        #expect((error["urlError"] as? Int) == -1001)
        #expect((error["message"] as? String)?.contains("no answer to the ClientHello") == true, "\(json.out)")
    }

    // MARK: Item 14

    @Test func testOutputThatCannotBeWrittenExits73WithALineOnStandardError() throws {
        let check = ["check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1"]
        for redirect in [" > /dev/full", " >&-"] {
            let r = try run(check, redirect: redirect)
            // sysexits.h EX_CANTCREAT, as the man page gives it.
            #expect(r.status == 73, "\(redirect): \(r.err)")
            #expect(r.err.hasPrefix("Error: cannot write the output to standard output: "), "\(redirect): \(r.err)")
        }
        // Written in full, the same run exits as its verdict says.
        #expect(try run(check).status == 0)
    }

    // MARK: Item 18

    @Test func testDiffWithAConnectToListHeadsEachSideWithItsAddress() throws {
        let (a, b) = (try leafServer(), try leafServer())
        defer { for s in [a, b] { s.stop() } }
        let target = "127.0.0.1:\(a.port)"
        let r = try CLI.run([
            "diff", target, target, "--anchor", pki.path("ca.pem"), "--connect-to",
            "127.0.0.1:\(a.port),127.0.0.1:\(b.port)",
        ])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("A  \(target) at 127.0.0.1:\(a.port)  ") == true, "\(r.out)")
        #expect(lines.dropFirst().first?.hasPrefix("B  \(target) at 127.0.0.1:\(b.port)  ") == true, "\(r.out)")
    }

    @Test func testTheManPagesExitStatusNamesDiffAndStoreShowAndUnwritableOutput() throws {
        let man = try CLI.run(["help", "--man"]).out
        let section = try #require(man.range(of: ".SH EXIT STATUS")).upperBound
        let exits = String(man[section...]).components(separatedBy: ".SH ENVIRONMENT")[0]
        #expect(exits.contains("(diff)"), "\(exits)")
        #expect(exits.contains("(store show)"), "\(exits)")
        #expect(exits.contains("standard output cannot be written"), "\(exits)")
    }

    @Test func testAPinMismatchInTheFleetTableIsTheDelegatesCancelNotErrSecSuccess() throws {
        let server = try leafServer()
        defer { server.stop() }
        let target = "127.0.0.1:\(server.port)"
        let r = try CLI.run([
            "check", target, target, "--anchor", pki.path("ca.pem"), "--pin",
            "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ])
        #expect(r.status == 1, "\(r.err)")
        // SecTrust trusts the chain; the pinning delegate then cancels the challenge, and the
        // app sees NSURLErrorCancelled (-999).
        #expect(r.out.components(separatedBy: "not trusted: NSURLErrorCancelled (-999)").count == 3, "\(r.out)")
        #expect(!r.out.contains("errSecSuccess"), "\(r.out)")
    }

    @Test func testPinLeavesOutABadBlockAsCheckChainDoesAndExits65() throws {
        let leaf = try String(contentsOfFile: pki.path("leaf.pem"), encoding: .utf8)
        let ca = try String(contentsOfFile: pki.path("ca.pem"), encoding: .utf8)
        let bundle = try write(
            "bundle.pem", leaf + "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n" + ca)
        let runs = CLI.runAll([
            ["pin", bundle],
            ["check", "--chain", bundle, "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1", "--format", "json"],
        ])
        let (pin, check) = (try runs[0].get(), try runs[1].get())
        let unreadable = try #require(try check.json()["unreadable"] as? [String])
        #expect(unreadable.count == 1, "\(check.out)")
        // The two readable certificates' pins, as openssl computes them.
        for cert in ["leaf.pem", "ca.pem"] {
            let key = try Shell.run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "openssl x509 -in \"$1\" -pubkey -noout > \"$2\"", "sh", pki.path(cert), path(cert + ".pub")])
            #expect(key.status == 0)
            #expect(pin.out.contains("pin          sha256//\(try opensslPin(path(cert + ".pub"), publicKey: true))"))
        }
        // The bad block named in the words check uses, left out; the status says data was bad.
        #expect(pin.err == "Error: \(unreadable[0]) (left out)\n", "\(pin.err)")
        #expect(pin.status == 65)
    }

    @Test func testPinOnAPublicKeyAPrivateKeyAndACSRGivesTheCertificatesPinBeforeItExists() throws {
        try Shell.openssl(
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.key"], in: dir)
        try Shell.openssl(
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "rsa.key"], in: dir)
        try Shell.openssl(["pkey", "-in", "ec.key", "-pubout", "-out", "ec.pub"], in: dir)
        try Shell.openssl(["rsa", "-in", "rsa.key", "-RSAPublicKey_out", "-out", "rsa.pub"], in: dir)
        try Shell.openssl(["req", "-new", "-key", "ec.key", "-subj", "/CN=backup.example", "-out", "ec.csr"], in: dir)
        try Shell.openssl(
            ["pkcs8", "-topk8", "-in", "rsa.key", "-passout", "pass:s3cret", "-out", "rsa-enc.key"], in: dir)
        let ec = try opensslPin(path("ec.key"))
        let rsa = try opensslPin(path("rsa.key"))
        let runs = CLI.runAll([
            ["pin", path("ec.key"), path("ec.pub"), path("ec.csr")],
            ["pin", path("rsa.key"), path("rsa.pub"), path("rsa-enc.key"), "--password", "s3cret"],
            ["pin", path("rsa-enc.key")],
        ])
        let (ecRun, rsaRun, noPassword) = (try runs[0].get(), try runs[1].get(), try runs[2].get())
        #expect(ecRun.status == 0, "\(ecRun.err)")
        #expect(ecRun.out.components(separatedBy: "pin          sha256//\(ec)\n").count == 4, "\(ecRun.out)")
        #expect(ecRun.out.contains("ec.key #0: private key (EC P-256)"), "\(ecRun.out)")
        #expect(ecRun.out.contains("ec.pub #0: public key (EC P-256)"), "\(ecRun.out)")
        #expect(ecRun.out.contains("ec.csr #0: certificate request (EC P-256)"), "\(ecRun.out)")
        #expect(rsaRun.status == 0, "\(rsaRun.err)")
        #expect(rsaRun.out.components(separatedBy: "pin          sha256//\(rsa)\n").count == 4, "\(rsaRun.out)")
        // An encrypted key without its password: a data error that says what is missing.
        #expect(noPassword.status == 65)
        #expect(noPassword.err.contains("needs --password"), "\(noPassword.err)")
    }

    @Test func testThePlistExportsCommentsNameOptionsWithoutEscapes() throws {
        let r = try CLI.run([
            "export", "plist", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1",
        ])
        #expect(r.status == 0, "\(r.err)")
        let comment = r.out.split(separator: "\n").first { $0.contains("Not expressed here:") } ?? ""
        // XML forbids "--" in a comment; the option still reads as itself, not as `\u{2D}`.
        #expect(!r.out.contains("\\u{"), "\(r.out)")
        let inside = comment.replacingOccurrences(of: "<!--", with: "").replacingOccurrences(of: "-->", with: "")
        #expect(!inside.contains("--"), "\(comment)")
        #expect(comment.contains("Not expressed here: option anchor: "), "\(comment)")
    }

    @Test func testStepsMdNoLongerSaysAIAFetchingIsNotReEnacted() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let steps = try String(contentsOf: root.appendingPathComponent("docs/steps.md"), encoding: .utf8)
        #expect(!steps.contains("Not re-enacted yet"))
        let chain = try #require(steps.components(separatedBy: "## `signature`").first)
        #expect(chain.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("AIA caIssuers URL"))
    }

    // MARK: Standard input

    @Test func testChainTargetsLintAndPinReadStandardInputForDash() throws {
        let server = try leafServer()
        defer { server.stop() }
        let targets = try write("targets.txt", "127.0.0.1:\(server.port)\n")
        let plist = try write(
            "Info.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
            <key>NSAllowsArbitraryLoads</key><true/></dict></dict></plist>

            """)
        let chain = try run(
            ["check", "--chain", "-", "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1"],
            stdin: pki.path("leaf.pem"))
        #expect(chain.status == 0, "\(chain.err)")
        #expect(chain.out.hasPrefix("✓ Trusted"), "\(chain.out)")
        let fleet = try run(["check", "--targets", "-", "--anchor", pki.path("ca.pem")], stdin: targets)
        #expect(fleet.status == 0, "\(fleet.err)")
        #expect(fleet.out.contains("1 of 1 trusted"), "\(fleet.out)")
        // NSAllowsArbitraryLoads is a finding (docs/lint.md): status 1, read from standard input.
        let lint = try run(["lint", "-"], stdin: plist)
        #expect(lint.status == 1, "\(lint.err)")
        #expect(lint.out.contains("NSAllowsArbitraryLoads"), "\(lint.out)")
        let pin = try run(["pin", "-"], stdin: pki.path("leaf.pem"))
        #expect(pin.out.hasPrefix("standard input #0: CN=127.0.0.1"), "\(pin.out)")
        // Standard input can be read once.
        let twice = try run(["check", "--chain", "-", "-"], stdin: pki.path("leaf.pem"))
        #expect(twice.status == 64, "\(twice.err)")
    }

    // MARK: --host and SNI

    @Test func testAHostThatDiffersFromTheSNISentIsWarnedInTextAndJSON() throws {
        let server = try leafServer()
        defer { server.stop() }
        let target = "127.0.0.1:\(server.port)"
        let base = ["check", target, "--anchor", pki.path("ca.pem")]
        let runs = CLI.runAll([
            base + ["--host", "www.example.com"],
            base + ["--host", "www.example.com", "--format", "json"],
            base + ["--sni", "other.example", "--format", "json"],
            base + ["--format", "json"],
        ])
        let (text, json, sni, plain) = (try runs[0].get(), try runs[1].get(), try runs[2].get(), try runs[3].get())
        // An IP target sends no SNI (RFC 6066 forbids addresses in it); an app that connects to
        // www.example.com sends that name.
        #expect(
            text.out.contains(
                "\nWarning\n  the SSL policy checks the host www.example.com but the ClientHello carried no SNI"),
            "\(text.out)")
        let warnings = try #require(try json.json()["warnings"] as? [String])
        #expect(warnings.count == 1 && warnings[0].contains("carried no SNI"), "\(warnings)")
        let other = try #require(try sni.json()["warnings"] as? [String])
        #expect(other.count == 1 && other[0].contains("carried SNI other.example"), "\(other)")
        // The IP address checked and no SNI sent, as an app does: nothing to warn about.
        #expect((try plain.json()["warnings"] as? [String]) == [])
    }
}
