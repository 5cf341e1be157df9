import Foundation
import SuiteFixtures
import Testing

/// The built trustx under a real terminal: tmux runs it, keys are sent, the screen is captured.
/// Skipped where tmux is not installed.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class ExplorerTmuxTests {
    /// A private tmux server per test, so nothing else on the machine is touched.
    let socket = "trustx-test-\(UUID().uuidString.prefix(8))"

    /// Runs tmux through `TmuxSession.run`: Foundation's Process waits for every inherited
    /// descriptor, and the tmux server it starts outlives the client, so Shell.run would never
    /// return.
    func tmux(_ args: String...) throws -> String { try tmux(args) }

    func tmux(_ args: [String]) throws -> String {
        TmuxSession.run(socket: socket, args)
    }

    /// The session `screen` and `keys` address; nil for tmux's current one.
    var session: String?
    /// Sends keys to `session` (or tmux's current pane).
    func send(_ keys: String...) throws { try send(keys) }

    /// Sends a list of keys in one tmux call.
    func send(_ keys: [String]) throws {
        _ = try tmux(["send-keys"] + (session.map { ["-t", $0] } ?? []) + keys)
    }

    /// How many explorers `startExplorer` started, for unique session names.
    var started = 0

    /// Captures the screen every 20 ms until `condition` holds or 20 seconds pass; a screen that
    /// never meets it fails the test (a wait that silently runs out would hide the defect).
    func screen(
        sourceLocation: SourceLocation = #_sourceLocation, until condition: (String) -> Bool
    ) async throws -> String {
        var text = ""
        let guardTime = Date().addingTimeInterval(20)
        while Date() < guardTime {
            text = try session.map { try tmux("capture-pane", "-p", "-t", $0) } ?? tmux("capture-pane", "-p")
            if condition(text) { return text }
            try await Task.sleep(nanoseconds: UInt64(TmuxSession.pollInterval) * 1000)
        }
        Issue.record("the screen never showed what the test waits for:\n\(text)", sourceLocation: sourceLocation)
        return text
    }

    /// Like `screen(until:)`, but returns only a frame that two captures 30 ms apart agree on:
    /// a capture can catch a frame half drawn (the title new, the verdict row not yet).
    func settledScreen(until condition: (String) -> Bool) async throws -> String {
        var previous = ""
        for _ in 0..<400 {
            let text = try await screen(until: condition)
            if condition(text) && text == previous { return text }
            previous = text
            try await Task.sleep(nanoseconds: UInt64(TmuxSession.settleInterval) * 1000)
        }
        return previous
    }

    @Test func testTrustxOnATerminalOpensTheExplorerOnTheLabAndQuitsWithQ() async throws {
        defer { _ = try? tmux("kill-server") }
        let command = "'\(CLI.binary.path)'; echo EXIT=$?; sleep 30"
        _ = try tmux(
            "new-session", "-d", "-x", "160", "-y", "48", "-e", "TERM=tmux-256color", "-e", "LANG=C.UTF-8", command)
        var text = try await screen { $0.contains("Trusted · errSecSuccess") }
        #expect(text.contains("┌1 Scenarios"), "\(text)")
        #expect(text.contains("✓ good"), "\(text)")
        try send("j")
        text = try await screen { $0.contains("errSecHostNameMismatch (-67602)") }
        #expect(text.contains("✗ Not trusted · hostname@0 SSLHostname"), "\(text)")
        try send("p")
        text = try await screen { $0.contains("Δ policy -> SSL(nil): verdict: -67602, URLError -999 -> trusted") }
        #expect(text.contains("hostname@0: failed -> skipped"), "\(text)")
        try send("q")
        text = try await screen { $0.contains("EXIT=") }
        #expect(text.contains("EXIT=0"), "\(text)")
    }

    /// Starts `trustx ARGS` in a new tmux session in `directory` and waits for its verdict line.
    func startExplorer(
        _ args: [String], in directory: URL, width: Int = 160, height: Int = 45, environment: [String] = []
    ) async throws -> String {
        started += 1
        let name = "explore-\(started)"
        let quoted = ([CLI.binary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = quoted.joined(separator: " ") + "; echo EXIT=$?; sleep 30"
        _ = try tmux(
            [
                "new-session", "-d", "-s", name, "-c", directory.path, "-x", "\(width)", "-y", "\(height)", "-e",
                "TERM=tmux-256color", "-e", "LANG=C.UTF-8",
            ] + environment.flatMap { ["-e", $0] } + [command])
        // The previous session goes only now: killing the server's last session first makes the
        // server exit, and a new session started meanwhile can die with it.
        if let session { _ = try? tmux("kill-session", "-t", session) }
        session = name
        // OSC 52 from the program fills a tmux buffer (the clipboard the tests read).
        _ = try tmux("set-option", "-g", "set-clipboard", "on")
        return try await screen { $0.contains("errSec") || $0.contains("URLError") || $0.contains("EXIT=") }
    }

    /// The codes on a verdict line: every `(-N)` and `URLError -N`, as a sorted list
    /// (`[]` when trusted). The explorer's and check's lines word the codes alike.
    static func codes(_ line: Substring) -> [String] {
        var out: [String] = []
        var rest = line[...]
        while let r = rest.range(of: "-") {
            let before = rest[..<r.lowerBound]
            let digits = rest[r.upperBound...].prefix { $0.isNumber }
            // `(-N)` and `URLError -N`, or the code that leads a shortened verdict line (`✗ -N`).
            if digits.count >= 3 && (before.hasSuffix("(") || before.hasSuffix("URLError ") || before == "✗ ") {
                out.append("-" + digits)
            }
            rest = rest[r.upperBound...]
        }
        return out.sorted()
    }

    /// The explorer's verdict codes, nil when no verdict is on screen.
    static func explorerCodes(_ screen: String) -> [String]? {
        screen.split(separator: "\n").first { $0.hasPrefix("✓ Trusted") || $0.hasPrefix("✗ ") }.map(codes)
    }

    /// Runs a copied `trustx check` command where the explorer ran (`trustx` being the built
    /// binary) and checks that it is not trusted with the codes the explorer showed.
    func assertCopiedCommand(
        _ copied: String, in work: URL, reports shown: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let run = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "trustx() { '\(CLI.binary.path)' \"$@\"; }; " + copied], in: work,
            environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 1, "\(run.out + run.err)", sourceLocation: sourceLocation)
        #expect(Self.checkCodes(run.out) == shown, "\(run.out)", sourceLocation: sourceLocation)
    }

    /// The codes of `check`'s first report line.
    static func checkCodes(_ out: String) -> [String] { codes(out.split(separator: "\n").first ?? "") }

    /// A staging server presenting its own CA, debugged as docs/explorer.md's staging example does: the CA
    /// becomes an anchor, the leaf is pinned, the time moves past the leaf's notAfter, and the
    /// copied command, run in the same directory, reports what the explorer showed.
    @Test func testAStagingDebuggerTrustsTheServersOwnCAPinsTheLeafTimeTravelsAndCopiesTheCommand() async throws {
        defer { _ = try? tmux("kill-server") }
        let pki = try TestPKI.get()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try OpenSSLServer(
            ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key"), "-cert_chain", pki.path("ca.pem")], in: work)
        defer { server.stop() }
        var text = try await startExplorer(["explore", "https://127.0.0.1:\(server.port)/"], in: work)
        text = try await screen { $0.contains("errSecNotTrusted (-67843)") }
        // At 160 columns the reason stays and the check (the Steps pane marks it) gives way.
        #expect(text.contains("✗ Not trusted · errSecNotTrusted (-67843) · URLError -1202"), "\(text)")

        try send("2", "G", "a")
        text = try await screen { $0.contains("✓ Trusted") }
        #expect(text.contains("Δ anchor + trustx Test CA: verdict: -67843, URLError -1202 -> trusted"), "\(text)")
        try send("g", "P")
        text = try await screen { $0.contains("1 pin") }
        #expect(text.contains("✓ Trusted"), "\(text)")
        #expect(text.contains("[0] 127.0.0.1 pinned"), "\(text)")
        try send("t")
        try send("2040-01-01")
        text = try await screen { $0.contains("Enter gives: not trusted") }
        #expect(text.contains("errSecCertificateExpired (-67818)"), "\(text)")
        try send("Enter")
        text = try await screen {
            $0.contains("t at 2040-01-01") && !$0.contains("Enter gives") && $0.contains("-67818")
        }
        #expect(text.contains("errSecCertificateExpired"), "\(text)")
        let shown = try #require(Self.explorerCodes(text))
        #expect(shown == ["-67818", "-999"], "a custom anchor: the app's delegate decides, -999")
        try send("y")
        text = try await screen { $0.contains("Reproduce with trustx check") }
        let copied = try tmux("show-buffer")
        // trustx is not on PATH here: the command names the binary by its absolute path, and the
        // anchor made in the session by its absolute path in the anchor directory.
        #expect(
            copied.hasPrefix(
                CLI.binary.resolvingSymlinksInPath().path + " check https://127.0.0.1:\(server.port)/ --anchor /"),
            "\(copied)")
        #expect(copied.contains("/trustx/anchors/trustx-anchor-"), "\(copied)")
        #expect(copied.contains("--at 2040-01-01T00:00:00Z"), "\(copied)")
        try send("Escape", "q")
        _ = try await screen { $0.contains("EXIT=") }

        // The copied command, run where the explorer ran, gives the explorer's verdict.
        try assertCopiedCommand(copied, in: work, reports: shown)
    }

    /// A server's description shows, in its Connection section, what the server answered to iOS
    /// 26's ClientHello (sent on a second connection); `--no-apple-hello` leaves the row out.
    @Test func testTheConnectionSectionSaysWhatIOS26sHelloGot() async throws {
        defer { _ = try? tmux("kill-server") }
        let pki = try TestPKI.get()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-hello-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try OpenSSLServer(["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: work)
        defer { server.stop() }
        let target = "https://127.0.0.1:\(server.port)/"
        _ = try await startExplorer(["explore", target, "--anchor", pki.path("ca.pem")], in: work)
        try send("1")
        var text = try await screen { $0.contains("iOS 26 hello") }
        // OpenSSL 3.0 has no ML-KEM and takes the x25519 share sent beside it (RFC 8446 4.2.8).
        #expect(text.contains("ServerHello choosing"), "\(text)")
        try send("q")
        _ = try await screen { $0.contains("EXIT=") }

        _ = try await startExplorer(["explore", target, "--anchor", pki.path("ca.pem"), "--no-apple-hello"], in: work)
        try send("1")
        text = try await screen { $0.contains("Timings") }
        #expect(!text.contains("iOS 26 hello"), "\(text)")
        try send("q")
        _ = try await screen { $0.contains("EXIT=") }
    }

    /// The lab's ios26-hello lessons in the explorer: the chain is trusted, and the scenario's
    /// Connection section says what iOS 26's ClientHello met at the front (a reset for a hello
    /// over 1,024 bytes, which the hello's 1,216-byte share alone exceeds).
    @Test func testTheIOS26HelloLessonShowsTheResetBesideATrustedChain() async throws {
        defer { _ = try? tmux("kill-server") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-pq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var text = try await startExplorer(["explore", "--group", "ios26-hello"], in: work, height: 80)
        text = try await screen { $0.contains("✓ Trusted") }
        #expect(text.contains("large-hello-reset"), "\(text)")
        try send("1")
        text = try await screen { WatchTmuxTests.detail($0).contains("iOS 26 hello") }
        #expect(WatchTmuxTests.detail(text).contains("the connection was reset"), "\(text)")
        try send("q")
        _ = try await screen { $0.contains("EXIT=") }
    }

    /// `explore` takes check's options and opens on the evaluation check prints for them.
    @Test func testExploreOpensOnTheVerdictCheckGivesForTheSameOptions() async throws {
        defer { _ = try? tmux("kill-server") }
        let pki = try TestPKI.get()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-same-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try OpenSSLServer(["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: work)
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/"
        let zeroPin = "sha256//" + Data(repeating: 0, count: 32).base64EncodedString()
        let crl = try pki.crlRevokingTheLeaf(in: work)
        let sets: [[String]] = [
            [url, "--anchor", pki.path("ca.pem"), "--crl", crl],
            [url, "--anchor", pki.path("ca.pem"), "--revocation", "--at", "2040-01-01T00:00:00Z"],
            [url, "--anchor", pki.path("ca.pem"), "--at", "2040-01-01T00:00:00Z", "--host", "localhost"],
            [url, "--anchor", pki.path("ca.pem")],
            [url, "--anchor", pki.path("ca.pem"), "--policy", "basic", "--at", "2040-01-01T00:00:00Z"],
            [url, "--anchor", pki.path("ca.pem"), "--pin", zeroPin],
            ["--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "localhost"],
            [
                "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--profile", "webpki", "--tls-min",
                "1.3",
            ],
        ]
        var distinct = Set<String>()
        for args in sets {
            let check = try CLI.spawn(["check"] + args, in: work)
            if args.contains("--tls-min") {
                // A connection option with files is refused the same way by both.
                #expect(check.status == 64)
                let explore = try CLI.spawn(["explore"] + args, in: work)
                #expect(explore.status == 64, "\(explore.err)")
                #expect(explore.err.contains("--tls-min applies to a server target"), "\(explore.err)")
                continue
            }
            #expect(check.status == 0 || check.status == 1, "\(check.out + check.err)")
            let expected = Self.checkCodes(check.out)
            let screen = try await startExplorer(["explore"] + args, in: work)
            #expect(Self.explorerCodes(screen) == expected, "\(args)\n\(screen)")
            distinct.insert(expected.joined(separator: " "))
            try send("q")
        }
        #expect(distinct.count >= 3, "the option sets must give different verdicts: \(distinct)")
    }

    /// A trainer at 80x24: the failure's reason on one line, a walk-through that hides the
    /// verdict until its step, the help scrolled to its end, and a resize to 60x16.
    @Test func testATrainerWalksThroughAtEightyByTwentyFourAndResizes() async throws {
        defer { _ = try? tmux("kill-server") }
        let pki = try TestPKI.get()
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent(
            "trustx-room-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        var text = try await startExplorer(
            [
                "explore", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "localhost",
                "--theme", "high-contrast",
            ],
            in: elsewhere, width: 80, height: 24)
        #expect(text.split(separator: "\n").contains { $0.contains("localhost matches no subjectAltName") }, "\(text)")
        try send("w")
        text = try await settledScreen { $0.contains("step 1 of") }
        #expect(!text.contains("-67602"), "no verdict before its step:\n\(text)")
        for _ in 0..<40 {
            if text.contains("Step hostname@0") { break }
            try send("Space")
            text = try await screen { _ in true }
        }
        // A capture can catch a frame half drawn: wait for the verdict row to settle.
        func row20(_ screen: String) -> Substring {
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return rows.count > 20 ? rows[20] : ""
        }
        text = try await screen { row20($0).contains("-67602") }
        let verdict = row20(text)
        // At 80 columns the code, the URLError and the reason; the OSStatus's name gives way.
        #expect(
            verdict.contains("-67602") && verdict.contains("URLError -999"), "the hostname step reveals it:\n\(text)")
        try send("Escape", "?")
        // The help's last page, however long the list of keys grows.
        try send(Array(repeating: "NPage", count: 12))
        text = try await screen { $0.contains("changed by the last change") }
        #expect(text.contains("Walk-through: end it and show every step."), "\(text)")
        try send("Escape")
        _ = try tmux("resize-window", "-t", session!, "-x", "60", "-y", "16")
        // One pane under the strip of pane names: the 60x16 layout.
        text = try await screen { $0.contains(" 2 Chain ") && $0.contains("-67602") }
        // The code, the URLError and as much of the reason as fits; the OSStatus's name gives way first.
        #expect(text.contains("✗ -67602 · URLError -999 · localhost"), "\(text)")
    }

    /// An iOS developer's Info.plist against a staging server stuck at TLS 1.1, reached by its DNS
    /// name: the plist's NSExceptionMinimumTLSVersion lets it in, `I` switches the platform, `L`
    /// loads the app's real Info.plist (ATS's defaults) and the ATS step fails with -1200, `i`
    /// takes ATS away, `u` brings it back, and the copied command reports what the screen showed.
    @Test func testAnInfoPlistAppliesATSLiveAndTheCopiedCommandAgrees() async throws {
        defer { _ = try? tmux("kill-server") }
        let pki = try ATSCLITests.shared.get()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-ats-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let host = ATSCLITests.host
        func writePlist(_ name: String, _ ats: String) throws {
            let text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>\(ats)</dict></dict></plist>
                """
            try text.write(to: work.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try writePlist(
            "Staging.plist",
            "<key>NSExceptionDomains</key><dict><key>\(host)</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string></dict></dict>"
        )
        try writePlist("Info.plist", "")
        let server = try OpenSSLServer(
            ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key"), "-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"],
            in: work)
        defer { server.stop() }
        var text = try await startExplorer(
            [
                "explore", "https://\(host):\(server.port)/", "--connect-to", "127.0.0.1:\(server.port)", "--anchor",
                pki.path("ca.pem"), "--anchor-class", "device", "--ats-plist", "Staging.plist",
            ], in: work, width: 120, height: 40)
        text = try await screen { $0.contains("✓ Trusted") && $0.contains("ats-tls-version") }
        #expect(text.contains("TLS 1.1 meets ATS's minimum TLS 1.1"), "\(text)")
        // The 26 SDK is the default; an explicit TLSv1.1 exception still lowers the minimum there (D422).
        #expect(text.contains("i ATS Staging.plist ios26"), "\(text)")

        try send("I")
        text = try await screen { $0.contains("ATS Staging.plist ios17") }
        #expect(text.contains("✓ Trusted"), "\(text)")
        try send("I")
        text = try await screen { $0.contains("ATS Staging.plist ios16") }
        #expect(text.contains("✓ Trusted"), "\(text)")

        try send("L", "C-u", "Info.plist", "Enter")
        text = try await screen { $0.contains("\n✗ -9881") }
        // At 120 columns the check and the URLError's name give way to the reason.
        #expect(text.contains("✗ -9881 errSSLATSMinimumVersionViolation · URLError -1200 · TLS 1.1"), "\(text)")
        #expect(text.contains("URLError -1200"), "\(text)")
        #expect(text.contains("Δ ATS -> Info.plist (ios16): verdict: trusted -> -9881, URLError -1200"), "\(text)")
        let shown = try #require(Self.explorerCodes(text))
        #expect(shown == ["-1200", "-9881"])

        try send("i")
        text = try await screen { $0.contains("ATS off") && $0.contains("No connection") }
        #expect(text.contains("URLError -1200"), "URLSession's own floor is TLS 1.2: \(text)")
        try send("u")
        text = try await screen { $0.contains("ATS Info.plist ios16") && $0.contains("\n✗ -9881") }
        #expect(Self.explorerCodes(text) == shown)

        try send("y")
        text = try await screen { $0.contains("Reproduce with trustx check") }
        let copied = try tmux("show-buffer")
        // Named by its absolute path, so the command runs from any directory.
        #expect(
            copied.contains("--ats-plist \(work.resolvingSymlinksInPath().path)/Info.plist --platform ios16"),
            "\(copied)")
        try send("Escape", "q")
        _ = try await screen { $0.contains("EXIT=") }
        try assertCopiedCommand(copied, in: work, reports: shown)
    }

    /// The export key beside "copy as command": `X`, the format completed with Tab, the
    /// curl command written where the explorer runs, and that command, run against the same
    /// server, trusts it with the pin openssl computes for the leaf.
    @Test func testXExportsTheScreensSettingsAsACurlCommandThatAgrees() async throws {
        defer { _ = try? tmux("kill-server") }
        let pki = try TestPKI.get()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try OpenSSLServer(["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: work)
        defer { server.stop() }
        var text = try await startExplorer(
            ["explore", "https://127.0.0.1:\(server.port)/", "--anchor", pki.path("ca.pem")], in: work,
            environment: ["XDG_STATE_HOME=" + work.appendingPathComponent("state").path])
        text = try await screen { $0.contains("✓ Trusted") }
        try send("2", "g", "P")
        text = try await screen { $0.contains("1 pin") }
        try send("X", "cu", "Tab")
        text = try await screen { $0.contains("Export settings as: curl") }
        try send("Enter")
        // The popup's title is drawn before its body: wait for the command itself.
        text = try await screen { $0.contains("Export as curl") && $0.contains("--pinnedpubkey") }
        #expect(text.contains("--pinnedpubkey"), "\(text)")
        try send("Escape", "q")
        _ = try await screen { $0.contains("EXIT=") }

        // Written to the export directory under XDG_STATE_HOME, named after the target and content.
        let exports = work.appendingPathComponent("state/trustx/exports")
        let names = try FileManager.default.contentsOfDirectory(atPath: exports.path)
        let scriptName = try #require(names.first { $0.hasPrefix("trustx-export-") && $0.hasSuffix(".sh") }, "\(names)")
        let script = exports.appendingPathComponent(scriptName).path
        let contents = try String(contentsOfFile: script, encoding: .utf8)
        let pin = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "openssl x509 -in '\(pki.path("leaf.pem"))' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl base64 -A",
            ])
        #expect(contents.contains("sha256//" + pin.out.trimmingCharacters(in: .whitespacesAndNewlines)), "\(contents)")
        let curl = try Shell.run(URL(fileURLWithPath: "/bin/sh"), [script], in: work)
        #expect(curl.status == 0, "curl trusts what the explorer trusted: \(curl.out) \(curl.err)\n\(contents)")
    }
}
