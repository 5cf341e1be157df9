import Foundation
import SuiteFixtures
import Testing

/// Several servers of one PKI on one host, as a developer with four `openssl s_server`s meets them
/// (issue 28, items 4, 5 and 6, and `explore --targets FILE`): every server of 127.0.0.1 is told
/// apart by its port or its label, a target added with `c` is evaluated under the start-up
/// `--anchor`, and the copied command names that anchor by its absolute path. The PKI is made by
/// the openssl command line; the servers are `openssl s_server` on loopback.
@Suite(.serialized, .onTestThreads, .enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class ExploreTargetsTmuxTests {
    let work: URL
    var servers: [OpenSSLServer] = []

    init() throws {
        work = try TmuxSession.directory("explore-targets")
        try OpenSSLPKI.makeThreeLevels(
            in: work, root: "Targets Test Root", intermediate: "Targets Test CA", leafExtensions: "")
    }

    deinit {
        for server in servers { server.stop() }
        try? FileManager.default.removeItem(at: work)
    }

    /// A server sending the leaf and its intermediate: trusted with `--anchor ca.pem`.
    func serve() throws -> Int {
        let server = try OpenSSLServer(
            ["-cert", "leaf.pem", "-key", "leaf.key", "-cert_chain", "int.pem"], in: work)
        servers.append(server)
        return server.port
    }

    func write(_ text: String, _ name: String) throws {
        try text.write(to: work.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Items 4, 5 and 6: `c` adds a second server of the same PKI on 127.0.0.1, which the
    /// start-up `--anchor` (a relative path) trusts too; the Targets pane and the compare view
    /// tell the two servers apart by their ports; `y` names the anchor by its absolute path, and
    /// the copied command runs from another directory.
    @Test func testCKeepsTheStartupAnchorTargetsShowTheirPortAndYCopiesAbsolutePaths() async throws {
        let (a, c) = (try serve(), try serve())
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["explore", "https://127.0.0.1:\(a)/", "--anchor", "ca.pem"], in: work, width: 160, height: 48)
        var text = try await tmux.screen(containing: "✓ Trusted")
        #expect(text.contains("a 1 anchor (app) only"), "\(text)")

        // c: the second server, evaluated under the start-up anchor (item 5).
        try tmux.send("c")
        try tmux.type("127.0.0.1:\(c)")
        try tmux.send("Enter")
        // The Targets pane marks the new target once it is evaluated.
        text = try await tmux.screen { $0.contains("▶ ✓ 127.0.0.1") || $0.contains("▶ ✗ 127.0.0.1") }
        #expect(text.contains("▶ ✓ 127.0.0.1"), "the start-up --anchor applies to c's target too: \(text)")
        #expect(text.contains("✓ Trusted"), "\(text)")
        #expect(!text.contains("a system roots"), "\(text)")
        #expect(!text.contains("-25318"), "\(text)")
        // Both servers are named with their port (item 4).
        #expect(text.contains("✓ 127.0.0.1:\(a)"), "\(text)")
        #expect(text.contains("▶ ✓ 127.0.0.1:\(c)"), "\(text)")

        // The compare view heads each side with its server's port (item 4).
        try tmux.send("1", "g", "m", "G", "M")
        text = try await tmux.screen { $0.contains("(selected)") }
        #expect(text.contains("127.0.0.1:\(a) (marked)"), "\(text)")
        #expect(text.contains("127.0.0.1:\(c) (selected)"), "\(text)")
        try tmux.send("Escape")

        // y: the relative start-up anchor is named by its absolute path (item 6).
        try tmux.send("y")
        _ = try await tmux.screen(containing: "Reproduce with trustx check")
        let copied = try tmux.clipboard()
        let root = work.resolvingSymlinksInPath().path
        #expect(
            copied.contains("--anchor \(root)/ca.pem") || copied.contains("--anchor \(work.path)/ca.pem"), "\(copied)")
        #expect(!copied.contains("--anchor ca.pem"), "\(copied)")
        try tmux.send("Escape", "q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))

        // The copied command runs from another directory and gives the explorer's verdict.
        let elsewhere = try TmuxSession.directory("elsewhere")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let run = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "trustx() { '\(CLI.binary.path)' \"$@\"; }; " + copied],
            in: elsewhere, environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.out + run.err)")
    }

    /// `explore --targets FILE`: a labelled line is named by its label, an unlabelled one as
    /// host:port, both evaluated under the command line's `--anchor`.
    @Test func testExploreTargetsNamesEachServerByItsLabelOrHostAndPort() async throws {
        let (a, b) = (try serve(), try serve())
        try write("alpha=127.0.0.1:\(a)   # the first node\n127.0.0.1:\(b)\n", "targets.txt")
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["explore", "--targets", "targets.txt", "--anchor", "ca.pem"], in: work, width: 160, height: 48)
        var text = try await tmux.screen(containing: "✓ Trusted")
        #expect(text.contains("▶ ✓ alpha"), "\(text)")
        #expect(text.contains("127.0.0.1:\(b)"), "\(text)")
        try tmux.send("j")
        text = try await tmux.screen(containing: "▶ ✓ 127.0.0.1:\(b)")
        #expect(text.contains("✓ Trusted"), "\(text)")
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }

    /// `check --targets` shows a line's label in place of the target, the address beside it.
    @Test func testCheckTargetsShowsTheLabel() throws {
        let a = try serve()
        try write("alpha=127.0.0.1:\(a)\nhttps://127.0.0.1:\(a)/?q=1\n", "labelled.txt")
        let run = try CLI.run([
            "check", "--targets", work.appendingPathComponent("labelled.txt").path, "--anchor",
            work.appendingPathComponent("ca.pem").path,
        ])
        #expect(run.status == 0, "\(run.out + run.err)")
        let rows = run.out.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("alpha ") && $0.contains("127.0.0.1:\(a)") }, "\(run.out)")
        // A URL whose query holds `=` is a target, not a label.
        #expect(rows.contains { $0.hasPrefix("https://127.0.0.1:\(a)/?q=1 ") }, "\(run.out)")
        #expect(run.out.contains("2 of 2 trusted"), "\(run.out)")
    }

    /// A label must be a name, and an explored file's lines carry only how to reach a server.
    @Test func testBadLabelsAndSessionWideLineOptionsAreRefusedWithTheirLine() throws {
        try write("good=127.0.0.1:1\nbad label!=127.0.0.1:2\n", "bad-label.txt")
        let bad = try CLI.run(["check", "--targets", work.appendingPathComponent("bad-label.txt").path])
        #expect(bad.status == 64, "\(bad.err)")
        #expect(bad.err.contains("bad-label.txt:2:"), "\(bad.err)")

        try write("name!=127.0.0.1:2\n", "bad-name.txt")
        let name = try CLI.run(["check", "--targets", work.appendingPathComponent("bad-name.txt").path])
        #expect(name.status == 64, "\(name.err)")
        #expect(name.err.contains("is no label"), "\(name.err)")

        try write("a=127.0.0.1:1 --pin sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n", "pinned.txt")
        let pinned = try CLI.run(["explore", "--targets", work.appendingPathComponent("pinned.txt").path])
        #expect(pinned.status == 64, "\(pinned.err)")
        #expect(pinned.err.contains("pinned.txt:1: --pin is one setting for every target"), "\(pinned.err)")

        let both = try CLI.run(["explore", "127.0.0.1:1", "--targets", work.appendingPathComponent("pinned.txt").path])
        #expect(both.status == 64, "\(both.err)")

        // The command line's connection options apply to the file's servers: only the missing
        // terminal stops this run.
        try write("a=127.0.0.1:1\n", "plain.txt")
        let proxied = try CLI.run([
            "explore", "--targets", work.appendingPathComponent("plain.txt").path, "--proxy", "http://127.0.0.1:9",
            "--timeout", "3",
        ])
        #expect(proxied.status == 64, "\(proxied.err)")
        #expect(proxied.err.contains("needs a terminal"), "\(proxied.err)")
    }
}
