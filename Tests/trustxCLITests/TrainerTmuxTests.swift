import Foundation
import XCTest

/// What a trainer on a projector and a newcomer in their first minutes meet in the explorer,
/// under a real terminal (tmux). One test per defect found that way, named after it; each fails
/// on the behaviour before the fix.
final class TrainerTmuxTests: XCTestCase {
    var tmux: TmuxSession!
    var work: URL!

    override func setUpWithError() throws {
        try XCTSkipIf(TmuxSession.tmux == nil, "tmux is not installed")
        tmux = TmuxSession()
        work = try TmuxSession.directory("trainer")
    }

    override func tearDownWithError() throws {
        tmux = nil
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// The lab under `trustx explore ARGS`, at `width` x `height`, once wrong-host's neighbour
    /// good has its verdict.
    func startLab(_ args: [String] = ["explore"], width: Int = 160, height: Int = 48, env: [String: String] = [:])
        throws -> String
    {
        try tmux.startTrustx(args, in: work, width: width, height: height, environment: env)
        return try tmux.screen { $0.contains("errSecSuccess") || $0.contains("EXIT=") }
    }

    /// The verdict row (the first of the four bottom rows).
    func verdictRow(_ screen: String, height: Int) -> String { TmuxSession.row(height - 4, of: screen) }

    // MARK: 1

    /// `trustx explore` with no target is the lab, and each scenario is checked with its own
    /// host: wrong-host fails SSLHostname as it does under plain `trustx`.
    func testLabUnderExploreKeepsTheHostnamePitfall() throws {
        var text = try startLab()
        XCTAssertTrue(text.contains("✓ good"), text)
        try tmux.send("j")
        text = try tmux.screen {
            $0.contains("errSecHostNameMismatch (-67602)") || $0.contains("✓ Trusted · errSecSuccess (0) · localhost")
        }
        XCTAssertTrue(text.contains("✗ Not trusted · hostname@0 SSLHostname"), text)
        XCTAssertTrue(text.contains("p SSL(localhost)"), text)
        // The trainer's step 4: Basic X.509 hides it.
        try tmux.send("p", "p")
        text = try tmux.screen(containing: "policy -> Basic X.509")
        XCTAssertTrue(text.contains("✓ Trusted"), text)
    }

    // MARK: 3

    /// In predict mode the host and time prompts do not preview the verdict: the room votes first.
    func testPredictModeHidesTheVerdictPreviewOfHostAndTimePrompts() throws {
        var text = try startLab()
        try tmux.send("j")
        text = try tmux.screen(containing: "-67602")
        try tmux.send("W", "h")
        text = try tmux.screen(containing: "Host to check:")
        try tmux.send("C-u")
        try tmux.type("127.0.0.1")
        // Before the fix the evaluation of the typed host arrives as "Enter gives: trusted".
        text = try tmux.screen {
            $0.contains("127.0.0.1▏") && ($0.contains("revealed after the vote") || $0.contains("Enter gives"))
        }
        XCTAssertFalse(text.contains("Enter gives"), text)
        XCTAssertTrue(text.contains("the verdict is revealed after the vote"), text)
        try tmux.send("Escape", "t")
        text = try tmux.screen(containing: "Evaluate at:")
        try tmux.type("+40y")
        text = try tmux.screen {
            $0.contains("+40y▏") && ($0.contains("revealed after the vote") || $0.contains("Enter gives"))
        }
        XCTAssertFalse(text.contains("Enter gives"), text)
        XCTAssertFalse(text.contains("errSecCertificateExpired"), text)
        try tmux.send("Escape", "q")
    }

    // MARK: 4

    /// At 80x24 a failed connection's reason reads in full in the Detail pane, wrapped: every word
    /// of the message check gives for the same server is on screen, and the Detail pane is shown.
    func testConnectionFailureReasonReadsInFullAtEightyByTwentyFour() throws {
        let port = try Self.closedPort()
        let url = "https://127.0.0.1:\(port)/"
        let check = try CLI.run(["check", url, "--format", "json"], in: work)
        let report = try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any]
        let failure = try XCTUnwrap(
            (report?["connection"] as? [String: Any])?["error"] as? [String: Any], check.out + check.err)
        let message = try XCTUnwrap(failure["message"] as? String)
        XCTAssertGreaterThan(message.count, 20)
        try tmux.startTrustx(["explore", url], in: work, width: 80, height: 24)
        let text = try tmux.screen { $0.contains("No connection") && $0.contains("Failure") }
        XCTAssertTrue(text.contains("4 Target 127.0.0.1"), "the Detail pane is shown:\n\(text)")
        // The pane's text without borders, as one run of words.
        let words = text.split(separator: "\n").flatMap { row in
            row.split(separator: "│").dropFirst().joined(separator: " ").split(separator: " ")
        }.joined(separator: " ")
        XCTAssertTrue(words.contains(message.split(separator: " ").joined(separator: " ")), "\(message)\n\(text)")
        XCTAssertTrue(verdictRow(text, height: 24).contains("URLError -1004"), text)
    }

    /// A loopback port nothing listens on (bound, then closed).
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        XCTAssertTrue(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: 5

    /// The curl export's popup shows the command on its lines, not the escape of a line break.
    func testCurlExportPopupBreaksLinesInsteadOfShowingEscapes() throws {
        _ = try startLab()
        try tmux.send("X")
        _ = try tmux.screen(containing: "Export settings as:")
        try tmux.type("curl")
        try tmux.send("Enter")
        let text = try tmux.screen(containing: "Export as curl")
        XCTAssertFalse(text.contains("\\u{0A}"), text)
        // The export's comment line and the command are rows of their own.
        let rows = text.split(separator: "\n")
        let comment = rows.firstIndex { $0.contains("# generated by `trustx export curl`") }
        let command = rows.firstIndex { $0.contains("curl --silent") }
        XCTAssertNotNil(comment, text)
        XCTAssertNotNil(command, text)
        XCTAssertNotEqual(comment, command, text)
    }

    // MARK: 7

    /// The command `y` copies names trustx by a path that runs without trustx on PATH, and the
    /// anchors made in the session by absolute paths in the anchor directory: it runs as-is from
    /// another directory and gives the verdict the screen shows.
    func testCopiedCommandRunsAsIsFromAnyDirectory() throws {
        let state = work.appendingPathComponent("state")
        var text = try startLab(env: ["XDG_STATE_HOME": state.path, "PATH": "/usr/bin:/bin"])
        // rogue-ca, with its CA made an anchor from the lab's files.
        try tmux.send("j", "j", "j")
        text = try tmux.screen(containing: "errSecCreateChainFailed (-25318)")
        try tmux.send("F")
        text = try tmux.screen(containing: "Anchors from file:")
        try tmux.type("rogue-ca.pem")
        try tmux.send("Enter")
        text = try tmux.screen(containing: "✓ Trusted")
        // And the leaf made an anchor in the session: a certificate that exists only here.
        try tmux.send("2", "a")
        text = try tmux.screen(containing: "anchor + 127.0.0.1")
        try tmux.send("y")
        text = try tmux.screen(containing: "Reproduce with trustx check")
        XCTAssertTrue(text.contains("✓ Trusted"), text)
        let copied = try tmux.clipboard()
        XCTAssertTrue(copied.hasPrefix(CLI.binary.resolvingSymlinksInPath().path + " check "), copied)
        let anchors = copied.components(separatedBy: " --anchor ").dropFirst().map {
            String($0.split(separator: " ").first ?? "")
        }
        XCTAssertEqual(anchors.count, 3, copied)
        for path in anchors { XCTAssertTrue(path.hasPrefix("/"), "absolute: \(path)") }
        let made = try XCTUnwrap(anchors.first { $0.contains("trustx-anchor-") })
        XCTAssertTrue(made.hasPrefix(state.path + "/trustx/anchors/"), made)
        XCTAssertTrue(FileManager.default.fileExists(atPath: made), made)
        // Run from another directory with a PATH that has no trustx, while the lab still runs.
        let elsewhere = try TmuxSession.directory("elsewhere")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let run = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", copied], in: elsewhere,
            environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(run.status, 0, run.out + run.err)
        try tmux.send("Escape", "q")
    }

    // MARK: 8

    /// The help's scroll stops at its last page: PgUp after PgDn past the end moves at once.
    func testHelpScrollIsClampedToItsLastPage() throws {
        _ = try startLab(width: 80, height: 24)
        try tmux.send("?")
        var text = try tmux.screen(containing: "Help ")
        for _ in 0..<30 { try tmux.send("PageDown") }
        func position(_ screen: String) -> (Int, Int)? {
            guard let range = screen.range(of: #"Help (\d+)/(\d+)"#, options: .regularExpression) else { return nil }
            let numbers = screen[range].dropFirst(5).split(separator: "/").compactMap { Int($0) }
            return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
        }
        text = try tmux.screen { s in position(s).map { $0.0 == $0.1 } ?? false }
        let end = try XCTUnwrap(position(text), text)
        XCTAssertEqual(end.0, end.1, text)
        try tmux.send("PageUp")
        text = try tmux.screen { s in position(s).map { $0.0 < end.1 } ?? false }
        let up = try XCTUnwrap(position(text), text)
        XCTAssertEqual(up.0, end.1 - 10, "one PgUp moves one page up from the last page:\n\(text)")
    }

    // MARK: 9

    /// After a resize, quitting gives the shell its screen back: no frame is left on it.
    func testQuitAfterResizeLeavesNoFrameOnTheShellScreen() throws {
        try tmux.start("/bin/sh", in: work, width: 80, height: 24)
        try tmux.type(
            "clear; echo BEFORE-THE-EXPLORER; " + TmuxSession.quote(CLI.binary.path) + " explore; echo EXIT=$?")
        try tmux.send("Enter")
        _ = try tmux.screen(containing: "errSecSuccess")
        // Larger than at the start, then smaller again: the shell's saved screen is resized under
        // the explorer's frame.
        try tmux.run("resize-window", "-t", tmux.session, "-x", "160", "-y", "48")
        _ = try tmux.screen { $0.contains("errSecSuccess") && $0.split(separator: "\n").count > 30 }
        try tmux.run("resize-window", "-t", tmux.session, "-x", "100", "-y", "30")
        _ = try tmux.screen { $0.contains("errSecSuccess") && $0.split(separator: "\n").count <= 30 }
        try tmux.send("q")
        let text = try tmux.screen(containing: "EXIT=")
        XCTAssertTrue(text.contains("BEFORE-THE-EXPLORER"), text)
        for fragment in ["┌", "│", "└", "Scenarios", "errSec", "Trusted", "Lifetime"] {
            XCTAssertFalse(text.contains(fragment), "\(fragment) left on the shell's screen:\n\(text)")
        }
    }

    // MARK: 10

    /// At 80x24 what matters is shown whole: the URLError on the verdict line, the Chain pane's
    /// title, the walk-through's keys, predict mode's message, and the key bar's last hint.
    func testEightyByTwentyFourShowsShortFormsNeverACutWord() throws {
        var text = try startLab(width: 80, height: 24)
        try tmux.send("j")
        text = try tmux.screen(containing: "-67602")
        XCTAssertTrue(verdictRow(text, height: 24).contains("URLError -999"), text)
        let chainTitle = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("2 Chain") }, text)
        XCTAssertNotNil(
            chainTitle.range(of: #"2 Chain( \(\d+ (in )?path, \d+ sent\))?( \d+/\d+)?─"#, options: .regularExpression),
            String(chainTitle))
        let keyBar = TmuxSession.row(23, of: text)
        let hints = [
            "quit", "help", "anchor", "+system", "+sys", "pin", "walk", "policy", "host", "time", "ATS", "undo",
            "copy", "cmd", "write", "PEM",
        ]
        let last = String(keyBar.split(separator: " ").last ?? "")
        XCTAssertTrue(hints.contains(last), "the key bar ends with a whole hint: \(keyBar)")
        XCTAssertTrue(keyBar.contains("? help"), keyBar)
        try tmux.send("3", "w")
        text = try tmux.screen(containing: "step 1 of")
        XCTAssertTrue(verdictRow(text, height: 24).hasSuffix("Esc ends"), verdictRow(text, height: 24))
        try tmux.send("Escape", "W")
        text = try tmux.screen(containing: "predict mode on")
        XCTAssertTrue(TmuxSession.row(22, of: text).hasSuffix("until Space"), TmuxSession.row(22, of: text))
        try tmux.send("p")
        text = try tmux.screen(containing: "Trusted or not?")
        XCTAssertTrue(verdictRow(text, height: 24).hasSuffix("Space reveals the verdict"), verdictRow(text, height: 24))
    }

    // MARK: 14

    /// `t +5y` is five calendar years: the same day and time of day, not 1825 days later.
    func testTimePlusFiveYearsIsFiveCalendarYears() throws {
        var text = try startLab()
        try tmux.send("t")
        text = try tmux.screen(containing: "Evaluate at:")
        // The prompt offers the session's start time.
        let started = try XCTUnwrap(
            text.range(of: #"Evaluate at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, options: .regularExpression).map {
                String(text[$0].dropFirst("Evaluate at: ".count))
            }, text)
        try tmux.type("+5y")
        try tmux.send("Enter")
        text = try tmux.screen(containing: "time -> ")
        let year = Int(started.prefix(4))! + 5
        var expected = "\(year)" + started.dropFirst(4)
        if started.dropFirst(4).hasPrefix("-02-29") { expected = "\(year)-02-28" + started.dropFirst(10) }
        XCTAssertTrue(text.contains("t at \(expected)"), "\(started) + 5y:\n\(text)")
    }

    /// A prompt opens with what may be typed, not with a failure mark for text not typed yet.
    func testPromptsOpenWithAHintNotAFailure() throws {
        _ = try startLab()
        for (key, label) in [("N", "Pin:"), ("/", "Find:"), ("c", "Connect to:")] {
            try tmux.send(key)
            let text = try tmux.screen(containing: label)
            XCTAssertFalse(text.contains("✗ "), "\(key):\n\(text)")
            try tmux.send("Escape")
            _ = try tmux.screen { !$0.contains(label) }
        }
    }

    /// The key bar says what `w` does in the focused pane: write PEM in the Chain pane, walk elsewhere.
    func testKeyBarShowsTheFocusedPanesMeaningOfW() throws {
        var text = try startLab()
        try tmux.send("2")
        text = try tmux.screen {
            TmuxSession.row(47, of: $0).contains("w write PEM") || TmuxSession.row(47, of: $0).contains("w walk")
        }
        XCTAssertTrue(TmuxSession.row(47, of: text).contains("w write PEM"), TmuxSession.row(47, of: text))
        try tmux.send("3")
        text = try tmux.screen { TmuxSession.row(47, of: $0).contains("w walk") }
        XCTAssertTrue(TmuxSession.row(47, of: text).contains("w walk"), TmuxSession.row(47, of: text))
    }

    // MARK: the ASN.1 view

    /// `D` in the Detail pane shows the selected certificate's DER tree as `openssl asn1parse`
    /// lists it (the first ten elements' offsets, depths, lengths and tags), and `/` finds in it.
    func testDERViewShowsTheCertificatesTreeAndSearchFindsInIt() throws {
        var text = try startLab()
        let url = try XCTUnwrap(
            text.range(of: #"https://127\.0\.0\.1:\d+/"#, options: .regularExpression).map { String(text[$0]) }, text)
        let port = url.dropFirst("https://127.0.0.1:".count).dropLast()
        // The same certificate through openssl: the leaf the server sends.
        let parsed = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "openssl s_client -connect 127.0.0.1:\(port) </dev/null 2>/dev/null | openssl x509 -outform DER | openssl asn1parse -inform DER -i",
            ], in: work)
        let rows = DERTreeRows.parse(parsed.out)
        XCTAssertGreaterThan(rows.count, 20, parsed.out + parsed.err)
        try tmux.send("2", "D")
        text = try tmux.screen(containing: "0: d=0 hl=")
        XCTAssertTrue(text.contains("Certificate [0] DER"), text)
        for row in rows.prefix(10) {
            let shown =
                "\(row.offset): d=\(row.depth) hl=\(row.headerLength) l=\(row.length) "
                + "\(row.constructed ? "cons" : "prim"): \(row.name)"
            XCTAssertTrue(text.contains(shown), "\(shown)\n\(text)")
        }
        try tmux.send("4", "/")
        try tmux.type("id-ecPublicKey")
        try tmux.send("Enter")
        text = try tmux.screen { $0.contains("\"id-ecPublicKey\": row") || $0.contains("is not in the") }
        XCTAssertTrue(text.contains("\"id-ecPublicKey\": row"), text)
        XCTAssertTrue(text.contains("1.2.840.10045.2.1"), text)
        try tmux.send("D")
        text = try tmux.screen { !$0.contains("0: d=0 hl=") }
        XCTAssertFalse(text.contains("Certificate [0] DER"), text)
    }
}

/// Rows of `openssl asn1parse -i` output.
enum DERTreeRows {
    struct Row {
        var offset: Int
        var depth: Int
        var headerLength: Int
        var length: Int
        var constructed: Bool
        var name: String
    }

    /// `  4:d=1  hl=4 l= 447 cons:  SEQUENCE` -> its numbers and tag name.
    static func parse(_ text: String) -> [Row] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let offset = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
            let scanner = Scanner(string: String(parts[1]))
            scanner.charactersToBeSkipped = .whitespaces
            guard scanner.scanString("d=") != nil, let depth = scanner.scanInt(), scanner.scanString("hl=") != nil,
                let hl = scanner.scanInt(), scanner.scanString("l=") != nil, let length = scanner.scanInt(),
                let kind = scanner.scanUpToString(":"), scanner.scanString(":") != nil
            else { return nil }
            // openssl marks a primitive it shows as bytes: `OCTET STRING      [HEX DUMP]:...`.
            let name = (scanner.scanUpToString(":") ?? "").replacingOccurrences(of: "[HEX DUMP]", with: "")
                .trimmingCharacters(in: .whitespaces)
            return Row(
                offset: offset, depth: depth, headerLength: hl, length: length, constructed: kind == "cons", name: name)
        }
    }
}
