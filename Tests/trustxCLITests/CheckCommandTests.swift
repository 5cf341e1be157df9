import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

/// `trustx check` on a PKI made with the openssl command line: exit statuses, usage errors and
/// the JSON verdicts Apple's rules predict.
@Suite(.serialized, .onTestThreads, .fixture(tearDown: checkCommandTestsTearDown)) final class CheckCommandTests {
    var pki: TestPKI!

    init() throws {
        pki = try TestPKI.get()
    }

    /// The single checks of this class's tests that read only the PKI's files, run side by side
    /// on the first `check` (inside a test, so that their time counts as test time; each is an
    /// independent process). `check` answers each from here, once, and runs anything else itself.
    nonisolated(unsafe) static var prefetched: [[String]: RunResult]?

    static func prefetch(_ pki: TestPKI) -> [[String]: RunResult] {
        let ca = pki.path("ca.pem")
        let extras: [[String]] = [
            ["--anchor", ca, "--host", "127.0.0.1"], [], ["--anchor", ca, "--format", "json"],
            ["--anchor", ca, "--host", "127.0.0.1", "--format", "json"],
            ["--anchor", ca, "--host", "localhost", "--format", "json"], ["--format", "json"],
            ["--anchor", ca, "--pin", unmatchedPin, "--format", "json"],
            ["--anchor", ca, "--at", "2099-01-01T00:00:00Z", "--format", "json"],
            ["--anchor", ca, "--policy", "basic", "--format", "json"],
            ["--anchor", ca, "--require-revocation", "--format", "json"],
            ["--anchor", ca, "--revocation", "--format", "json"], ["--anchor", ca, "--format", "markdown"],
            ["--anchor", ca],
        ]
        let runs =
            extras.map { ["check", "--chain", pki.path("leaf.pem")] + $0 }
            + [["check", "--chain", pki.path("leaf.pem"), ca, "--anchor", ca, "--format", "json"]]
        var done: [[String]: RunResult] = [:]
        for (args, result) in zip(runs, CLI.runAll(runs)) {
            if case .success(let r) = result { done[args] = r }
        }
        return done
    }

    static func suiteTearDown() {
        prefetched = nil
    }

    /// A pin no key has: 32 zero bytes.
    static let unmatchedPin = "sha256//" + Data(repeating: 0, count: 32).base64EncodedString()

    func check(_ extra: [String], chain: [String] = ["leaf.pem"]) throws -> RunResult {
        let args = ["check", "--chain"] + chain.map(pki.path) + extra
        if Self.prefetched == nil { Self.prefetched = Self.prefetch(pki) }
        if let ready = Self.prefetched?.removeValue(forKey: args) { return ready }
        return try CLI.run(args)
    }

    /// Several checks side by side (each an independent process), results in order.
    func checks(_ runs: [(extra: [String], chain: [String])]) throws -> [RunResult] {
        try CLI.runAll(runs.map { ["check", "--chain"] + $0.chain.map(pki.path) + $0.extra }).map { try $0.get() }
    }

    // MARK: exit statuses

    @Test func testTrustedChainExitsZero() throws {
        let r = try check(["--anchor", pki.path("ca.pem"), "--host", "127.0.0.1"])
        #expect(r.status == 0, "\(r.out + r.err)")
        #expect(r.out.hasPrefix("✓ Trusted  errSecSuccess (0)\n"), "\(r.out)")
        #expect(r.err == "")
    }

    @Test func testUntrustedChainExitsOne() throws {
        let r = try check([])
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("✗ Not trusted  "), "\(r.out)")
    }

    @Test func testUsageErrorsExit64WithUsageAndHelpPointer() throws {
        let cases: [([String], String)] = [
            (["check"], "Error: Give a server to connect to, or --chain FILE..."),
            (["check", "--chain"], "Error: Missing value for '--chain <file>'"),
            (["check", "--chain", pki.path("leaf.pem"), "--policy", "ssl"], "Error: --policy ssl checks a host name"),
            (
                ["check", "--chain", pki.path("leaf.pem"), "--policy", "tls"],
                "Error: The value 'tls' is invalid for '--policy <policy>'. Please provide one of 'ssl', 'ssl-no-host' or 'basic'."
            ),
            (
                ["check", "--chain", pki.path("leaf.pem"), "--pin", "sha256//notapin"],
                "Error: The value 'sha256//notapin' is invalid for '--pin <pin>'"
            ),
            (
                ["check", "--chain", pki.path("leaf.pem"), "--at", "tomorrow"],
                "Error: The value 'tomorrow' is invalid for '--at <time>'"
            ),
            (
                ["check", "--chain", pki.path("leaf.pem"), "--hots", "x"],
                "Error: Unknown option '--hots'. Did you mean '--host'?"
            ),
            (
                ["check", "--chain", pki.path("leaf.pem"), "--with-system-anchors=yes"],
                "Error: The option '--with-system-anchors' does not take any value, but 'yes' was specified."
            ),
        ]
        for ((args, message), result) in zip(cases, CLI.runAll(cases.map(\.0))) {
            let r = try result.get()
            #expect(r.status == 64, "\(args)")
            #expect(r.out == "", "\(args)")
            let lines = r.err.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3, "\(r.err)")
            #expect(lines[0].hasPrefix(message), "\(args): \(r.err)")
            #expect(lines[1] == "See 'trustx check --help' for more information.")
        }
    }

    /// `trustx WORD` and `trustx help WORD` word an unknown subcommand the same way (issue 28,
    /// item 18: one said "Unexpected argument", the other "Unknown subcommand").
    @Test func testUnknownSubcommandIsAUsageError() throws {
        let runs = CLI.runAll([["frobnicate"], ["help", "frobnicate"]])
        let (r, help) = (try runs[0].get(), try runs[1].get())
        #expect(r.status == 64)
        #expect(
            r.err
                == "Error: Unknown subcommand 'frobnicate'; the subcommands are check, explore, pin, lab, ats, export, lint, completions, store, diff, explain\nSee 'trustx --help' for more information.\n"
        )
        #expect(help.status == 64)
        #expect(help.err == r.err)
    }

    @Test func testMalformedFileExits65() throws {
        let files = ["garbage.pem", "leaf.key"]
        let runs = try checks(files.map { ([], [$0]) } + [(["--anchor", pki.path("garbage.pem")], ["leaf.pem"])])
        for (file, r) in zip(files, runs) {
            #expect(r.status == 65, "\(file): \(r.err)")
            #expect(r.err.hasPrefix("Error: \(pki.path(file)): "), "\(r.err)")
            #expect(r.out == "")
        }
        let anchor = runs[2]
        #expect(anchor.status == 65)
    }

    @Test func testMissingFileExits66() throws {
        let runs = try CLI.runAll([
            ["check", "--chain", pki.path("does-not-exist.pem")], ["check", "--chain", pki.directory.path],
        ]).map { try $0.get() }
        let r = runs[0]
        #expect(r.status == 66)
        #expect(r.err == ("Error: \(pki.path("does-not-exist.pem")): cannot read: No such file or directory\n"))
        let dir = runs[1]
        #expect(dir.status == 66)
    }

    @Test func testUsageErrorsWinOverUnreadableFiles() throws {
        let r = try CLI.run(["check", "--chain", "/nonexistent.pem", "--policy", "ssl"])
        #expect(r.status == 64)
    }

    // MARK: JSON verdicts

    @Test func testJSONHasTheDocumentedKeys() throws {
        let doc = try check(["--anchor", pki.path("ca.pem"), "--format", "json"]).json()
        #expect(
            Set(doc.keys)
                == ([
                    "schema", "target", "connection", "presented", "unreadable", "warnings", "path", "served",
                    "candidatePaths",
                    "settings", "steps", "verdict", "ats", "pinAdvice", "trustedBy",
                ]))
        // Without --ats or --ats-plist there is no ATS section and no advice.
        #expect(doc["ats"] is NSNull)
        #expect(((doc["pinAdvice"] as? [Any])?.count) == 0)
        #expect((doc["unreadable"] as? [String]) == [])
        // A chain from files has no connection.
        #expect(doc["target"] is NSNull)
        #expect(doc["connection"] is NSNull)
        #expect((doc["schema"] as? Int) == 1)
        let presented = try #require(doc["presented"] as? [[String: Any]])
        #expect(presented.count == 1)
        #expect(
            Set(presented[0].keys)
                == ([
                    "index", "subject", "issuer", "serial", "notBefore", "notAfter", "san", "key", "signatureAlgorithm",
                    "selfIssued", "sha256", "spkiSha256", "source",
                ]))
        #expect((presented[0]["subject"] as? String) == "CN=127.0.0.1")
        #expect((presented[0]["serial"] as? String) == "1234")
        let san = try #require(presented[0]["san"] as? [[String: String]])
        #expect(san == ([["type": "iPAddress", "value": "127.0.0.1"]]))
        let key = try #require(presented[0]["key"] as? [String: Any])
        #expect((key["type"] as? String) == "ec")
        #expect((key["bits"] as? Int) == 256)
        #expect((key["curve"] as? String) == "P-256")
        let path = try #require(doc["path"] as? [[String: Any]])
        #expect(path.count == 2)
        #expect(Set(path[0].keys) == ["index", "presented", "subject", "sha256", "source", "anchor", "anchorClass"])
        #expect((path[0]["presented"] as? Int) == 0)
        #expect((path[1]["source"] as? String) == "anchor")
        #expect((path[1]["anchor"] as? String) == "custom")
        #expect((path[1]["anchorClass"] as? String) == "app")
        #expect(path[1]["presented"] is NSNull)
        let settings = try #require(doc["settings"] as? [String: Any])
        #expect(
            Set(settings.keys)
                == ([
                    "policy", "host", "anchors", "anchorClass", "anchorsOnly", "systemAnchors", "systemStore", "pins",
                    "at", "evaluationTime",
                    "profile", "client", "revocationFetched", "revocationRequired", "store", "storeVersion",
                ]))
        #expect((settings["revocationFetched"] as? Bool) == false)
        #expect((settings["anchorClass"] as? String) == "app")
        let anchors = try #require(settings["anchors"] as? [[String: Any]])
        #expect((anchors.map { Set($0.keys) }) == ([["subject", "sha256", "class"]]))
        #expect((anchors.first?["class"] as? String) == "app")
        #expect((settings["policy"] as? String) == "ssl-no-host")
        #expect(settings["host"] is NSNull)
        #expect((settings["anchorsOnly"] as? Bool) == true)
        #expect((settings["profile"] as? String) == "apple")
        let steps = try #require(doc["steps"] as? [[String: Any]])
        #expect(!steps.isEmpty)
        for step in steps {
            #expect(
                Set(step.keys)
                    == ([
                        "id", "certificate", "status", "reason", "title", "detail", "appleCheck", "appleSubtype",
                        "osstatus", "policies", "atsFailure", "scts",
                    ]))
        }
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect(
            Set(verdict.keys)
                == ([
                    "trusted", "osstatus", "osstatusName", "resultType", "urlError", "urlErrorName", "decisiveStep",
                    "summary", "certificateTransparency", "extendedValidation",
                ]))
    }

    @Test func testChainToTheCustomAnchorIsTrusted() throws {
        let r = try check(["--anchor", pki.path("ca.pem"), "--host", "127.0.0.1", "--format", "json"])
        #expect(r.status == 0)
        let verdict = try #require(try r.json()["verdict"] as? [String: Any])
        #expect((verdict["trusted"] as? Bool) == true)
        #expect((verdict["osstatus"] as? Int) == 0)
        #expect((verdict["osstatusName"] as? String) == "errSecSuccess")
        #expect((verdict["resultType"] as? String) == "unspecified")
        #expect(verdict["urlError"] is NSNull)
        #expect(verdict["decisiveStep"] is NSNull)
    }

    @Test func testWrongHostFailsTheHostnameStepWithHostNameMismatch() throws {
        let r = try check(["--anchor", pki.path("ca.pem"), "--host", "localhost", "--format", "json"])
        #expect(r.status == 1)
        let doc = try r.json()
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect((verdict["trusted"] as? Bool) == false)
        #expect((verdict["osstatus"] as? Int) == -67602)
        #expect((verdict["osstatusName"] as? String) == "errSecHostNameMismatch")
        // Custom anchors mean the app's delegate decides, and it cancels.
        #expect((verdict["urlError"] as? Int) == -999)
        #expect((verdict["urlErrorName"] as? String) == "NSURLErrorCancelled")
        let steps = try #require(doc["steps"] as? [[String: Any]])
        let hostname = try #require(steps.first { $0["id"] as? String == "hostname" })
        #expect((hostname["status"] as? String) == "failed")
        #expect((hostname["certificate"] as? Int) == 0)
        #expect((hostname["appleCheck"] as? String) == "SSLHostname")
        #expect((hostname["osstatus"] as? Int) == -67602)
        let decisive = try #require(verdict["decisiveStep"] as? Int)
        #expect((steps[decisive]["id"] as? String) == "hostname")
        let settings = try #require(doc["settings"] as? [String: Any])
        #expect((settings["policy"] as? String) == "ssl")
        #expect((settings["host"] as? String) == "localhost")
    }

    @Test func testWithoutAnchorsURLSessionReportsServerCertificateUntrusted() throws {
        let r = try check(["--format", "json"])
        #expect(r.status == 1)
        let verdict = try #require(try r.json()["verdict"] as? [String: Any])
        #expect((verdict["urlError"] as? Int) == -1202)
        #expect((verdict["urlErrorName"] as? String) == "NSURLErrorServerCertificateUntrusted")
        // The leaf's issuer is nowhere to be found.
        #expect((verdict["osstatus"] as? Int) == -25318)
    }

    @Test func testUnmatchedPinCancelsAfterEvaluationPasses() throws {
        let pin = Self.unmatchedPin
        let r = try check(["--anchor", pki.path("ca.pem"), "--pin", pin, "--format", "json"])
        #expect(r.status == 1)
        let doc = try r.json()
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == 0)
        #expect((verdict["urlError"] as? Int) == -999)
        let steps = try #require(doc["steps"] as? [[String: Any]])
        let pinStep = try #require(steps.first { $0["id"] as? String == "pin" })
        #expect((pinStep["status"] as? String) == "failed")
        #expect(pinStep["osstatus"] is NSNull)
        let settings = try #require(doc["settings"] as? [String: Any])
        #expect((settings["pins"] as? [String]) == [pin])
    }

    @Test func testPinOfTheAnchorMatches() throws {
        let pins = try CLI.run(["pin", pki.path("ca.pem")])
        #expect(pins.status == 0)
        let pinLine = try #require(pins.out.split(separator: "\n").first { $0.hasPrefix("  pin ") })
        let pin = String(pinLine.split(separator: " ").last!)
        #expect(pin.hasPrefix("sha256//"))
        // The pin as printed, and bare base64 (accepted too), side by side.
        let runs = try checks([
            (["--anchor", pki.path("ca.pem"), "--pin", pin], ["leaf.pem"]),
            (["--anchor", pki.path("ca.pem"), "--pin", String(pin.dropFirst(8))], ["leaf.pem"]),
        ])
        let r = runs[0]
        #expect(r.status == 0, "\(r.out)")
        let bare = runs[1]
        #expect(bare.status == 0)
    }

    @Test func testExpiredAtTheGivenTimeIsReportedAsExpired() throws {
        let r = try check(["--anchor", pki.path("ca.pem"), "--at", "2099-01-01T00:00:00Z", "--format", "json"])
        #expect(r.status == 1)
        let doc = try r.json()
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == -67818)
        let settings = try #require(doc["settings"] as? [String: Any])
        #expect((settings["at"] as? String) == "2099-01-01T00:00:00Z")
    }

    @Test func testBasicPolicySkipsTheHostnameStep() throws {
        let r = try check(["--anchor", pki.path("ca.pem"), "--policy", "basic", "--format", "json"])
        #expect(r.status == 0)
        let steps = try #require(try r.json()["steps"] as? [[String: Any]])
        let hostname = try #require(steps.first { $0["id"] as? String == "hostname" })
        #expect((hostname["status"] as? String) == "skipped")
        #expect((hostname["reason"] as? String) == "Basic X.509 does not check host names")
    }

    @Test func testBasicPolicyWithAHostReportsTheIgnoredHostAndWhetherItWouldHaveMatched() throws {
        // The lab's first pitfall (docs/lab.md): an app holding a host but evaluating with
        // SecPolicyCreateBasicX509() accepts any certificate chaining to its anchor. The leaf
        // names only IP 127.0.0.1, so "localhost" would not match under the SSL policy (Apple
        // SSLHostname never reads the Common Name) but is not checked here.
        let runs = try checks([
            (["--anchor", pki.path("ca.pem"), "--host", "localhost", "--policy", "basic"], ["leaf.pem"]),
            (
                ["--anchor", pki.path("ca.pem"), "--host", "127.0.0.1", "--policy", "basic", "--format", "json"],
                ["leaf.pem"]
            ),
        ])
        let r = runs[0]
        #expect(r.status == 0, "\(r.out + r.err)")
        #expect(r.out.contains("not checked: Basic X.509 ignores the host"), "\(r.out)")
        #expect(
            r.out.contains("Host localhost not checked: Basic X.509 ignores the host (it would not have matched)"),
            "\(r.out)")

        let json = runs[1]
        #expect(json.status == 0)
        let doc = try json.json()
        let hostname = try #require((doc["steps"] as? [[String: Any]])?.first { $0["id"] as? String == "hostname" })
        #expect((hostname["status"] as? String) == "skipped")
        #expect((hostname["reason"] as? String) == "not checked: Basic X.509 ignores the host")
        #expect(
            (hostname["title"] as? String)
                == "Host 127.0.0.1 not checked: Basic X.509 ignores the host (it would have matched)")
        let settings = try #require(doc["settings"] as? [String: Any])
        #expect((settings["policy"] as? String) == "basic")
        #expect((settings["host"] as? String) == "127.0.0.1")
    }

    @Test func testAnUnreadableCertificateAmongSeveralIsReportedAndLeftOut() throws {
        // Apple evaluates the certificates it could create; one that cannot be read is not fatal.
        // The second block is a SEQUENCE holding one INTEGER: no certificate can be read from it.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-unreadable-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let leaf = try String(contentsOfFile: pki.path("leaf.pem"), encoding: .utf8)
        let bundle = dir.appendingPathComponent("bundle.pem").path
        try (leaf + "-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n").write(
            toFile: bundle, atomically: true, encoding: .utf8)
        // Alone, the same unreadable certificate is still malformed input.
        let alone = dir.appendingPathComponent("alone.pem").path
        try "-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n".write(
            toFile: alone, atomically: true, encoding: .utf8)
        let runs = try CLI.runAll([
            ["check", "--chain", bundle, "--anchor", pki.path("ca.pem"), "--format", "json"],
            ["check", "--chain", bundle, "--anchor", pki.path("ca.pem")], ["check", "--chain", alone],
        ]).map { try $0.get() }
        let r = runs[0]
        #expect(r.status == 0, "\(r.out + r.err)")
        let unreadable = try #require(try r.json()["unreadable"] as? [String])
        #expect(unreadable.count == 1)
        #expect(unreadable[0].hasPrefix("\(bundle): byte "), "\(unreadable[0])")
        let text = runs[1]
        #expect(text.out.contains("Unreadable certificates (left out of path building)"), "\(text.out)")
        #expect((runs[2].status) == 65)
    }

    @Test func testCRLMadeByOpenSSLRevokesTheLeaf() throws {
        // `openssl ca -gencrl` lists the leaf's serial (0x1234) as revoked; openssl verify
        // -crl_check says "certificate revoked", and trustx reports Apple's Revocation failure.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-crl-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let crl = try pki.crlRevokingTheLeaf(in: dir)
        let runs = try checks([
            (["--anchor", pki.path("ca.pem"), "--crl", crl, "--format", "json"], ["leaf.pem"]),
            (["--anchor", pki.path("ca.pem"), "--crl", pki.path("ca.pem")], ["leaf.pem"]),
        ])
        let r = runs[0]
        #expect(r.status == 1, "\(r.out + r.err)")
        let verdict = try #require(try r.json()["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == -67820)
        #expect((verdict["resultType"] as? String) == "fatalTrustFailure")
        // A file that is not a CRL is malformed input.
        #expect((runs[1].status) == 65)
    }

    @Test func testRequiredRevocationFailsWithoutAnAnswerAndPassesWithOpenSSLsEmptyCRL() throws {
        let r = try check(["--anchor", pki.path("ca.pem"), "--require-revocation", "--format", "json"])
        #expect(r.status == 1, "\(r.out + r.err)")
        let doc = try r.json()
        #expect(((doc["settings"] as? [String: Any])?["revocationRequired"] as? Bool) == true)
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == -67635)
        // SecBase.h's name for -67635, which the engine's name table lacked until 2026-12-06.
        #expect((verdict["osstatusName"] as? String) == "errSecIncompleteCertRevocationCheck")
        #expect((verdict["resultType"] as? String) == "recoverableTrustFailure")
        // `openssl ca -gencrl` with nothing revoked: openssl verify -crl_check accepts the leaf,
        // and the CRL is the positive answer trustx asks for.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-crl-empty-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try
            "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\ncrlnumber = crlnumber\ndefault_md = sha256\ndefault_crl_days = 30\n"
            .write(to: dir.appendingPathComponent("ca.cnf"), atomically: true, encoding: .utf8)
        try "".write(to: dir.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
        try "01\n".write(to: dir.appendingPathComponent("crlnumber"), atomically: true, encoding: .utf8)
        try Shell.openssl(
            [
                "ca", "-gencrl", "-batch", "-config", "ca.cnf", "-keyfile", pki.path("ca.key"), "-cert",
                pki.path("ca.pem"), "-out", "crl.pem",
            ],
            in: dir)
        let crl = dir.appendingPathComponent("crl.pem").path
        let verify = try Shell.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["openssl", "verify", "-crl_check", "-CAfile", pki.path("ca.pem"), "-CRLfile", crl, pki.path("leaf.pem")])
        #expect(verify.status == 0, "\(verify.out + verify.err)")
        let ok = try check(["--anchor", pki.path("ca.pem"), "--require-revocation", "--crl", crl])
        #expect(ok.status == 0, "\(ok.out + ok.err)")
    }

    @Test func testRevocationFetchingIsMarkedAndFailsSoftWithoutURLs() throws {
        // The openssl-made leaf names no OCSP responder and no CRL distribution point: nothing
        // is fetched, the report says fetching was asked for, and Apple's soft fail accepts it.
        let r = try check(["--anchor", pki.path("ca.pem"), "--revocation", "--format", "json"])
        #expect(r.status == 0, "\(r.out + r.err)")
        let doc = try r.json()
        #expect(((doc["settings"] as? [String: Any])?["revocationFetched"] as? Bool) == true)
        let steps = try #require(doc["steps"] as? [[String: Any]])
        let revocation = try #require(steps.first { $0["id"] as? String == "revocation" })
        #expect((revocation["reason"] as? String) == "no revocation information could be fetched")
    }

    @Test func testJSONIsDeterministic() throws {
        let args = ["--anchor", pki.path("ca.pem"), "--at", "2030-01-01T00:00:00Z", "--format", "json"]
        let runs = try checks([(args, ["leaf.pem"]), (args, ["leaf.pem"])])
        #expect((runs[0].stdout) == (runs[1].stdout))
    }

    @Test func testMarkdownHasHeadingVerdictAndTables() throws {
        let r = try check(["--anchor", pki.path("ca.pem"), "--format", "markdown"])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "# trustx: 127.0.0.1")
        #expect(lines.contains("**✓ Trusted**: errSecSuccess (0)"), "\(r.out)")
        #expect(lines.contains("| # | Subject | Issuer | Source | Key | Not before | Not after |"))
        #expect(lines.contains("| Certificate | Step | Status | Title | Apple check | Detail |"))
    }

    @Test func testTextReportHasNoColourWhenNotATerminal() throws {
        let r = try check(["--anchor", pki.path("ca.pem")])
        #expect(!r.stdout.contains(0x1B))
    }

    @Test func testTextReportFallsBackToASCIIOutsideUTF8Locales() throws {
        let r = try CLI.run(
            ["check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem")],
            environment: ["LANG": "C"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("+ Trusted  errSecSuccess (0)\n"), "\(r.out)")
        #expect(r.stdout.allSatisfy { $0 < 0x80 }, "non-ASCII output in the C locale")
    }

    @Test func testSeveralChainFilesConcatenateLeafFirst() throws {
        let r = try check(["--anchor", pki.path("ca.pem"), "--format", "json"], chain: ["leaf.pem", "ca.pem"])
        #expect(r.status == 0)
        let presented = try #require(try r.json()["presented"] as? [[String: Any]])
        #expect((presented.map { $0["subject"] as? String }) == ["CN=127.0.0.1", "CN=trustx Test CA"])
    }

    // MARK: system anchors

    /// Runs check with the system trust store replaced by `store/`, which holds the test CA.
    /// A child process: the store is read from SSL_CERT_FILE and SSL_CERT_DIR, the process's.
    func checkWithTestStore(_ extra: [String]) throws -> RunResult {
        try CLI.spawn(
            ["check", "--chain", pki.path("leaf.pem"), "--format", "json", "--store", "openssl"] + extra,
            environment: ["SSL_CERT_FILE": "", "SSL_CERT_DIR": pki.path("store")])
    }

    /// The CT step of a report.
    func ctStep(_ doc: [String: Any]) throws -> [String: Any] {
        let steps = try #require(doc["steps"] as? [[String: Any]])
        return try #require(steps.first { $0["id"] as? String == "certificate-transparency" })
    }

    @Test func testWithoutAnchorsTheSystemRootsAreAnchorsAndCTIsRequired() throws {
        let r = try checkWithTestStore(["--host", "127.0.0.1"])
        // Anchored at a system root, the leaf needs SCTs, which an openssl-made leaf has none of.
        #expect(r.status == 1, "\(r.out)")
        let doc = try r.json()
        let path = try #require(doc["path"] as? [[String: Any]])
        #expect((path.last?["source"] as? String) == "anchor-store")
        #expect((path.last?["anchor"] as? String) == "system")
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == -67825)
        #expect((verdict["urlError"] as? Int) == -1202)
        #expect((try ctStep(doc)["status"] as? String) == "failed")
        #expect((try ctStep(doc)["appleCheck"] as? String) == "SystemTrustedCTRequired")
        let settings = try #require(doc["settings"] as? [String: Any])
        #expect((settings["systemAnchors"] as? Bool) == true)
        #expect((settings["anchorsOnly"] as? Bool) == false)
        #expect((settings["systemStore"] as? String) == ("\(pki.path("store")) (hashed)"))
    }

    @Test func testTheSameRootAsACustomAnchorNeedsNoCT() throws {
        let r = try checkWithTestStore(["--host", "127.0.0.1", "--anchor", pki.path("ca.pem")])
        #expect(r.status == 0, "\(r.out)")
        let doc = try r.json()
        let path = try #require(doc["path"] as? [[String: Any]])
        #expect((path.last?["anchor"] as? String) == "custom")
        #expect((try ctStep(doc)["status"] as? String) == "not-applicable")
    }

    @Test func testCustomAnchorsAloneStopTrustingSystemRoots() throws {
        // SecTrustSetAnchorCertificates: the store still supplies the parent, but it is not trusted.
        let r = try checkWithTestStore(["--anchor", pki.path("hostile.pem")])
        #expect(r.status == 1)
        let doc = try r.json()
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == -67843)
        #expect((verdict["urlError"] as? Int) == -999)
        let path = try #require(doc["path"] as? [[String: Any]])
        #expect((path.last?["source"] as? String) == "anchor-store")
        #expect(path.last?["anchor"] is NSNull)
        let settings = try #require(doc["settings"] as? [String: Any])
        #expect((settings["systemAnchors"] as? Bool) == false)
        #expect((settings["anchorsOnly"] as? Bool) == true)
    }

    @Test func testWithSystemAnchorsTrustsSystemRootsBesideCustomOnes() throws {
        // SecTrustSetAnchorCertificatesOnly(false): the store's root is an anchor again (and,
        // being a system root, brings the CT requirement with it).
        let r = try checkWithTestStore(["--anchor", pki.path("hostile.pem"), "--with-system-anchors"])
        #expect(r.status == 1, "\(r.out)")
        let doc = try r.json()
        let path = try #require(doc["path"] as? [[String: Any]])
        #expect((path.last?["anchor"] as? String) == "system")
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == -67825)
        #expect((verdict["urlError"] as? Int) == -999)
        let settings = try #require(doc["settings"] as? [String: Any])
        #expect((settings["systemAnchors"] as? Bool) == true)
        #expect((settings["anchorsOnly"] as? Bool) == false)
    }

    // MARK: input formats

    @Test func testAnchorsAreReadInEveryFormat() throws {
        let files = ["ca.pem", "ca.der", "ca.p7b"]
        for (file, r) in zip(
            files, try checks(files.map { (["--anchor", pki.path($0), "--host", "127.0.0.1"], ["leaf.pem"]) }))
        {
            #expect(r.status == 0, "\(file): \(r.out)\(r.err)")
        }
    }

    @Test func testPKCS12NeedsItsPassword() throws {
        let runs = try checks([
            (["--anchor", pki.path("ca.pem")], ["leaf.p12"]),
            (["--anchor", pki.path("ca.pem"), "--password", "guess"], ["leaf.p12"]),
            (["--anchor", pki.path("ca.pem"), "--password", "secret", "--format", "json"], ["leaf.p12"]),
        ])
        let without = runs[0]
        #expect(without.status == 64, "\(without.err)")
        #expect(
            without.err.hasPrefix("Error: \(pki.path("leaf.p12")): PKCS#12 file needs --password\n"), "\(without.err)")
        let wrong = runs[1]
        #expect(wrong.status == 64, "\(wrong.err)")
        let right = runs[2]
        #expect(right.status == 0, "\(right.err)")
        let presented = try #require(try right.json()["presented"] as? [[String: Any]])
        #expect((presented.first?["subject"] as? String) == "CN=127.0.0.1")
    }
}

/// CheckCommandTests's shared tear-down, outside the type so its suite attribute can name it.
private func checkCommandTestsTearDown() { CheckCommandTests.suiteTearDown() }
