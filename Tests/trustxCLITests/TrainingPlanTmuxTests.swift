import Foundation
import Synchronization
import Testing
import TrustLab

/// docs/training.md run as the instructor runs it: the lab started in a terminal with
/// `--port-base` and `--out ./lab`, every command of every step typed as printed (the ports moved
/// to a free base), each giving the codes the plan quotes; then the explorer on the projector,
/// step by step. The commands are read from the document, so the plan cannot drift from what
/// trustx does.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class TrainingPlanTmuxTests {
    let tmux = TmuxSession()
    let work: URL
    var plan = ""
    /// The port base the lab runs on here (the plan prints 8400).
    var base = 8400

    init() throws {
        work = try TmuxSession.directory("training")
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/training.md")
        plan = try String(contentsOf: docs, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: work) }

    /// `line` as the plan prints it, run in the instructor's directory with the plan's ports moved
    /// to `base`, `$CA` set and `trustx` the built binary.
    func run(_ line: String, printed: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> RunResult
    {
        if printed {
            #expect(plan.contains(line), "docs/training.md prints: \(line)", sourceLocation: sourceLocation)
        }
        return try Self.run(line, base: base, in: work)
    }

    /// `line` run in `work` with the plan's ports moved to `base`; no assertion, so it may run on
    /// any thread.
    static func run(_ line: String, base: Int, in work: URL) throws -> RunResult {
        // One pass over the line's numbers of four digits from 8400 up to the lab's highest port,
        // standing alone (not inside a word, such as a pin's base64): a replacement is never
        // read again, so a moved port cannot be taken for another.
        var command = ""
        var digits = ""
        var before: Character = " "
        for c in line + " " {
            if c.isASCII && c.isNumber {
                if digits.isEmpty { before = command.last ?? " " }
                digits.append(c)
                continue
            }
            let alone = !before.isLetter && !c.isLetter
            if alone, digits.count == 4, let n = Int(digits), n >= 8400, n <= 8400 + LabScenario.highestPortOffset {
                command += "\(base + n - 8400)"
            } else {
                command += digits
            }
            digits = ""
            command.append(c)
        }
        command.removeLast()
        let script = "trustx() { \(TmuxSession.quote(CLI.binary.path)) \"$@\"; }; CA=./lab/library-test-ca.pem; "
        return try Shell.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script + command], in: work,
            environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
    }

    /// Runs `line` and checks the codes on check's first line (sorted; none when trusted).
    func expect(
        _ line: String, _ codes: [String], substituting: [String: String] = [:], printed: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if printed {
            #expect(plan.contains(line), "docs/training.md prints: \(line)", sourceLocation: sourceLocation)
        }
        var runnable = line
        for (placeholder, value) in substituting {
            runnable = runnable.replacingOccurrences(of: placeholder, with: value)
        }
        let result = try run(runnable, printed: false, sourceLocation: sourceLocation)
        verify(result, line, codes, sourceLocation: sourceLocation)
    }

    /// Runs the unprinted `cases` side by side (each a `trustx check` of its own server) and checks
    /// each as `expect` does, in order.
    func expectAll(
        _ cases: [(line: String, codes: [String])], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let results = Mutex<[Int: Result<RunResult, any Error>]>([:])
        let (base, work) = (self.base, self.work)
        DispatchQueue.concurrentPerform(iterations: cases.count) { i in
            let r = Result { try Self.run(cases[i].line, base: base, in: work) }
            results.withLock { $0[i] = r }
        }
        for (i, c) in cases.enumerated() {
            let result = try #require(results.withLock { $0[i] }, "\(c.line)").get()
            verify(result, c.line, c.codes, sourceLocation: sourceLocation)
        }
    }

    /// Checks the codes on check's first line (sorted; none when trusted) and the exit status.
    func verify(
        _ result: RunResult, _ line: String, _ codes: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        // A failed connection is one line of error on standard error, with nothing on standard output.
        let shown = ExplorerTmuxTests.checkCodes(result.out.isEmpty ? result.err : result.out)
        #expect(shown == codes.sorted(), "\(line)\n\(result.out)\(result.err)", sourceLocation: sourceLocation)
        if codes.isEmpty {
            #expect(result.status == 0, "\(line)\n\(result.out)\(result.err)", sourceLocation: sourceLocation)
        } else {
            #expect(result.status != 0, "\(line)\n\(result.out)", sourceLocation: sourceLocation)
        }
    }

    /// The base64 a pipeline prints (the openssl pin commands).
    func output(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(line, sourceLocation: sourceLocation)
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A port base whose ports lie below the kernel's ephemeral range: the other suites, running
    /// at the same time, connect and listen on ephemeral ports by the hundred, and a base inside
    /// that range found one of its ports taken now and then.
    static func freePortBase() -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let low = range.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) }
        let top = max(110, ((low ?? 32_768) - LabScenario.highestPortOffset - 1) / 100)
        return Int.random(in: 100...top) * 100
    }

    @Test func testTrainingLessonPlanRunsStepByStepWithTheCodesItQuotes() async throws {
        // 0. Before the session: the lab in the instructor's terminal.
        #expect(plan.contains("trustx lab --port-base 8400 --out ./lab"))
        var started = false
        for _ in 0..<5 where !started {
            base = Self.freePortBase()
            try tmux.startTrustx(["lab", "--port-base", "\(base)", "--out", "./lab"], in: work, width: 200, height: 60)
            let text = try await tmux.screen { $0.contains("Ctrl-C") || $0.contains("EXIT=") }
            started = !text.contains("EXIT=")
            if !started { try? FileManager.default.removeItem(at: work.appendingPathComponent("lab")) }
        }
        let lastScreen = try tmux.capture()
        #expect(started, "\(lastScreen)")
        let labJSON =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: work.appendingPathComponent("lab/lab.json"))) as? [String: Any]
        let pins = try #require(labJSON?["pins"] as? [String: String], "lab.json has pins")

        // 1-4.
        try expect("trustx check https://127.0.0.1:8400/", ["-25318", "-1202"])
        try expect("trustx check https://127.0.0.1:8400/ --anchor $CA", [])
        try expect("trustx check https://localhost:8401/ --anchor $CA", ["-67602", "-999"])
        try expect("trustx check https://localhost:8401/ --anchor $CA --policy basic", [])

        // 5. The pin, by openssl and by trustx.
        let pipeline = """
            openssl s_client -connect 127.0.0.1:8400 </dev/null 2>/dev/null \\
              | openssl x509 -pubkey -noout \\
              | openssl pkey -pubin -outform der \\
              | openssl dgst -sha256 -binary | openssl enc -base64
            """
        let goodPin = try output(pipeline)
        #expect(goodPin.count == 44, "\(goodPin)")
        let pinned = try run("trustx pin ./lab/good.chain.pem")
        #expect(pinned.out.contains(goodPin), "\(pinned.out)")
        #expect(pins["good-leaf"] == ("sha256//" + goodPin))
        try expect(
            "trustx check https://127.0.0.1:8400/ --anchor $CA --pin sha256//<that base64>", [],
            substituting: ["<that base64>": goodPin])
        try expect(
            "trustx check https://127.0.0.1:8400/ --anchor $CA --pin sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            ["-999"])
        try expect(
            "trustx check https://localhost:8401/ --anchor $CA --pin sha256//<good's pin>", ["-67602", "-999"],
            substituting: ["<good's pin>": goodPin])

        // 6. TLS versions.
        try expect("trustx check https://127.0.0.1:8402/ --anchor $CA", [])
        try expect("trustx check https://127.0.0.1:8402/ --anchor $CA --tls-min 1.3", ["-1200"])

        // 7. The Rogue CA.
        try expect("trustx check https://127.0.0.1:8403/ --anchor $CA", ["-25318", "-999"])
        try expect("trustx check https://127.0.0.1:8403/ --anchor $CA --anchor ./lab/rogue-ca.pem", [])
        try expect(
            "trustx check https://127.0.0.1:8403/ --anchor $CA --anchor ./lab/rogue-ca.pem --pin sha256//<good's pin>",
            ["-999"], substituting: ["<good's pin>": goodPin])

        // 8. The RSA pin, the PKCS#1 mistake, and key rotation.
        let rsaPin = try output(
            """
            openssl s_client -connect 127.0.0.1:8418 </dev/null 2>/dev/null \\
              | openssl x509 -pubkey -noout | openssl pkey -pubin -outform der \\
              | openssl dgst -sha256 -binary | openssl enc -base64
            """)
        try expect(
            "trustx check https://127.0.0.1:8418/ --anchor $CA --pin sha256//<that>", [],
            substituting: ["<that>": rsaPin])
        let pkcs1Pin = try output(
            """
            openssl s_client -connect 127.0.0.1:8418 </dev/null 2>/dev/null \\
              | openssl x509 -pubkey -noout | openssl rsa -pubin -RSAPublicKey_out -outform der \\
              | openssl dgst -sha256 -binary | openssl enc -base64
            """)
        #expect(pkcs1Pin != rsaPin)
        plan += "\ntrustx check https://127.0.0.1:8418/ --anchor $CA --pin sha256//\(pkcs1Pin)"
        try expect(
            "trustx check https://127.0.0.1:8418/ --anchor $CA --pin sha256//\(pkcs1Pin)", ["-999"], printed: false)
        #expect(plan.contains("**key-rotated** (port 8421)"))
        // lab.json's pins are written as --pin takes them: sha256//BASE64.
        let oldLeaf = try #require(pins["key-rotated-old-leaf"]).replacingOccurrences(of: "sha256//", with: "")
        let ca = try #require(pins["library-test-ca"]).replacingOccurrences(of: "sha256//", with: "")
        plan += "\ntrustx check https://127.0.0.1:8421/ --anchor $CA --pin sha256//\(oldLeaf)"
        try expect(
            "trustx check https://127.0.0.1:8421/ --anchor $CA --pin sha256//\(oldLeaf)", ["-999"], printed: false)
        plan += "\ntrustx check https://127.0.0.1:8421/ --anchor $CA --pin sha256//\(oldLeaf) --pin sha256//\(ca)"
        try expect(
            "trustx check https://127.0.0.1:8421/ --anchor $CA --pin sha256//\(oldLeaf) --pin sha256//\(ca)", [],
            printed: false)

        // 9. ATS and NSPinnedDomains.
        let s = "S=tls11-only.trustx.test; "
        try expect(
            "S=tls11-only.trustx.test; trustx check https://$S:8423/ --connect-to 127.0.0.1:8423 --anchor $CA --ats",
            ["-1200", "-9881"])
        var atsRuns: [(line: String, codes: [String])] = []
        for (plist, codes) in [("tls-1.1", [String]()), ("tls-1.1-misspelt", ["-1200", "-9881"])] {
            let line =
                "trustx check https://$S:8423/ --connect-to 127.0.0.1:8423 --anchor $CA --ats-plist "
                + "./lab/tls11-only.\(plist).plist"
            #expect(plan.contains(line), "\(line)")
            atsRuns.append((s + line, codes))
        }
        let p = #"P=pin-rotated.trustx.test; A="--connect-to 127.0.0.1:8425 --anchor $CA --anchor-class device"; "#
        #expect(plan.contains(String(p.dropLast(2))))
        for (plist, codes) in [
            ("old-leaf-pin", ["-9886", "-1200"]), ("ca-pin", []), ("old-leaf-and-ca-pin", ["-9886", "-1200"]),
        ] {
            #expect(plan.contains("trustx check https://$P:8425/ $A --ats-plist ./lab/pin-rotated.\(plist).plist"))
            atsRuns.append((p + "trustx check https://$P:8425/ $A --ats-plist ./lab/pin-rotated.\(plist).plist", codes))
        }
        try expectAll(atsRuns)

        // The exercises: the port and the code the plan gives for each.
        let exercises: [(name: String, port: Int, extra: String, codes: [String])] = [
            ("expired", 8404, "", ["-67818", "-999"]), ("not-yet-valid", 8405, "", ["-67818", "-999"]),
            ("missing-intermediate", 8407, "", ["-25318", "-999"]), ("missing-intermediate-aia", 8408, "", []),
            ("wrong-order", 8409, "", []), ("untrusted-root", 8410, "", ["-67843", "-999"]),
            ("cn-only", 8411, "", ["-67602", "-999"]), ("client-auth-eku", 8412, "", ["-67609", "-999"]),
            ("rsa-1024", 8413, "", ["-67735", "-999"]), ("sha1-signature", 8414, "", ["-67815", "-999"]),
            ("long-validity", 8415, "", ["-67901", "-999"]), ("path-length", 8416, "", ["-67611", "-999"]),
            ("name-constraints", 8417, "", ["-67689", "-999"]), ("mtls-required", 8419, "", ["-1206"]),
            ("revoked-ocsp", 8422, "", ["-67820", "-999"]),
        ]
        for e in exercises {
            #expect(plan.contains("**\(e.name)** (\(e.port))"), "\(e.name)")
            for code in e.codes where code != "-999" { #expect(plan.contains(code), "\(e.name): \(code)") }
        }
        let exerciseRuns = exercises.map { e in ("trustx check https://127.0.0.1:\(e.port)/ --anchor $CA", e.codes) }
        try expectAll(
            exerciseRuns + [
                ("trustx check https://127.0.0.1:8406/ --anchor ./lab/self-signed.pem", [String]()),
                ("trustx check https://127.0.0.1:8410/ --anchor ./lab/untrusted-root-ca.pem", []),
                ("trustx check https://127.0.0.1:8407/ --anchor $CA --no-aia", ["-25318", "-999"]),
                ("trustx check https://127.0.0.1:8408/ --anchor $CA --no-aia", ["-25318", "-999"]),
                (
                    "trustx check https://127.0.0.1:8419/ --anchor $CA --client-cert ./lab/client.p12 --password trustx-lab",
                    []
                ),
                ("trustx check 127.0.0.1:8420 --starttls smtp --anchor $CA", []),
            ])

        // Today's devices: the distrust, ios26-hello and client groups, as printed.
        let today: [(line: String, codes: [String])] = [
            ("trustx check $D --connect-to 127.0.0.1:8640 --anchor ./lab/lab-distrusted-root.pem", []),
            (
                "trustx check $D --connect-to 127.0.0.1:8640 --anchor ./lab/lab-distrusted-root.pem --date-constraints ./lab/date-constraints.json --ct-logs ./lab/ct-logs.json",
                ["-67843", "-999"]
            ),
            (
                "trustx check $S --connect-to 127.0.0.1:8680 --store ./lab/lab-expiring-root.pem --ct-logs ./lab/ct-logs.json",
                []
            ),
            (
                "trustx check $S --connect-to 127.0.0.1:8680 --store ./lab/lab-expiring-root.pem --ct-logs ./lab/ct-logs.json --client safari",
                ["-67818", "-1202"]
            ),
        ]
        let names = [
            "$D": "https://distrusted-after-date.trustx.test:8640/",
            "$S": "https://works-in-app-fails-in-safari.trustx.test:8680/",
        ]
        for t in today {
            #expect(plan.contains(t.line), "docs/training.md prints: \(t.line)")
            #expect(plan.contains("=\(names[String(t.line.split(separator: " ")[2])] ?? "")\n"), "\(t.line)")
        }
        try expectAll(
            today.map { t in
                (names.reduce(t.line) { $0.replacingOccurrences(of: $1.key, with: $1.value) }, t.codes)
            })
        let helloLine = "trustx check $H --connect-to 127.0.0.1:8670 --anchor $CA"
        #expect(plan.contains(helloLine))
        let hello = try run(
            helloLine.replacingOccurrences(of: "$H", with: "https://large-hello-reset.trustx.test:8670/"),
            printed: false)
        verify(hello, helloLine, [])
        #expect(hello.out.contains("apple hello") && hello.out.contains("reset"), "\(hello.out)")

        // The explorer on the projector.
        try await projectorSteps()
    }

    /// The plan's explorer steps 3, 4 and 7 at 80x24 with the high-contrast theme, key by key as the
    /// plan gives them (its counts of `p` presses and votes included), then its popups.
    func projectorSteps() async throws {
        #expect(plan.contains("`trustx explore --theme high-contrast`"))
        let e = TmuxSession()
        try e.startTrustx(["explore", "--theme", "high-contrast"], in: work, width: 80, height: 24)
        var text = try await e.screen(containing: "errSecSuccess")
        // Step 3.
        try e.send("j")
        text = try await e.screen(containing: "-67602")
        let wrongHost = TmuxSession.row(20, of: text)
        #expect(plan.contains("`\(wrongHost)`"), "the plan quotes the verdict line: \(wrongHost)")
        #expect(wrongHost == "✗ -67602 · URLError -999 · localhost matches no subjectAltName")
        // The plan names the step that reveals the verdict: the step before it still hides it, and
        // it shows it (the steps before are walked in one go).
        let quoted = try #require(
            plan.range(of: #"\(step \d+ of the walk-through\)"#, options: .regularExpression).map { plan[$0] },
            "the plan names the hostname step's number")
        let step = try #require(Int(quoted.dropFirst("(step ".count).prefix { $0.isNumber }))
        #expect(step > 1, "\(String(quoted))")
        try e.send("w")
        text = try await e.screen(containing: "step 1 of")
        if step > 2 { try e.send(Array(repeating: "Space", count: step - 2)) }
        text = try await e.screen(containing: "step \(step - 1) of")
        #expect(!TmuxSession.row(20, of: text).contains("-67602"), "hidden before step \(step):\n\(text)")
        try e.send("Space")
        text = try await e.screen(containing: "step \(step) of")
        #expect(TmuxSession.row(20, of: text).contains("-67602"), "revealed at step \(step):\n\(text)")
        #expect(text.contains("hostname"), "\(text)")
        // Step 4, as the plan counts it: `p` once asks, Space reveals, `p` again asks nothing.
        #expect(plan.contains("Esc, `W`, then `p` once (SSL(nil): no host is checked)"))
        try e.send("Escape", "W", "p")
        text = try await e.screen(containing: "Trusted or not?")
        #expect(!text.contains("✓ Trusted"), "\(text)")
        #expect(TmuxSession.row(21, of: text).contains("p SSL(nil)"), "\(text)")
        try e.send("Space")
        text = try await e.screen(containing: "✓ Trusted")
        #expect(plan.contains("`p` again (Basic X.509) asks nothing"))
        try e.send("p")
        text = try await e.screen(containing: "p Basic X.509")
        #expect(!text.contains("Trusted or not?"), "one vote for two presses:\n\(text)")
        #expect(TmuxSession.row(20, of: text).hasPrefix("✓ Trusted"), "\(text)")
        try e.send("3", "G")
        text = try await e.screen(containing: "Host localhost not checked")
        #expect(plan.contains("\"Host localhost not checked\""))
        #expect(text.contains("• hostname"), "skipped, not passed:\n\(text)")
        // Step 7: `p` flips the verdict back, a second vote; `W` ends predict mode.
        #expect(plan.contains("`p` brings SSL(localhost) back, which flips the verdict again: a second vote"))
        try e.send("p")
        text = try await e.screen(containing: "Trusted or not?")
        #expect(!text.contains("-67602"), "\(text)")
        try e.send("Space")
        text = try await e.screen(containing: "-67602")
        try e.send("W")
        text = try await e.screen(containing: "predict mode off")
        try e.send("1", "j", "j")
        text = try await e.screen(containing: "-25318")
        let rogue = TmuxSession.row(20, of: text)
        #expect(plan.contains("`\(rogue)`"), "the plan quotes the verdict line: \(rogue)")
        #expect(rogue.hasPrefix("✗ -25318 errSecCreateChainFailed · URLError -999"), "\(rogue)")
        // The same selection by name, without filtering (`:`).
        #expect(plan.contains("(or `:`, `rogue-ca` and Enter)"))
        try e.send("k", "k")
        text = try await e.screen(containing: "-67602")
        try e.send(":")
        text = try await e.screen(containing: "Go to:")
        try e.type("rogue-ca")
        try e.send("Enter")
        text = try await e.screen(containing: "-25318")
        #expect(TmuxSession.row(20, of: text) == rogue, "\(text)")
        try e.send("F")
        text = try await e.screen(containing: "Anchors from file:")
        try e.type("rogue-ca.pem")
        try e.send("Enter")
        text = try await e.screen(containing: "✓ Trusted")
        #expect(text.contains("✓ Trusted"), "\(text)")
        // The popups: `y` for the handout, the help; `q` closes them, and quits only after.
        #expect(plan.contains("`q`, Esc or any other key closes the help (`?`) and what `y` and `X` show"))
        try e.send("y")
        text = try await e.screen(containing: "Reproduce with trustx check")
        try e.send("q")
        text = try await e.screen { !$0.contains("Reproduce with trustx check") }
        try e.send("?")
        text = try await e.screen(containing: "Help")
        try e.send("q")
        text = try await e.screen { !$0.contains("Help") }
        #expect(!text.contains("EXIT="), "\(text)")
        try e.send("q")
        text = try await e.screen(containing: "EXIT=")
        #expect(text.contains("EXIT=0"), "\(text)")
    }
}
