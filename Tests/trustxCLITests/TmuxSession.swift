import Foundation
import SuiteFixtures
import Testing

/// A private tmux server for one test: sessions run the built trustx (or a shell) at a given
/// size, keys are sent, the screen is captured.
final class TmuxSession {
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The server's socket name: nothing else on the machine is touched.
    let socket = "trustx-trainer-\(UUID().uuidString.prefix(8))"
    /// The session keys and captures go to.
    var session = "s0"
    /// How many sessions `start` started.
    var started = 0

    deinit { _ = try? run("kill-server") }

    /// Runs tmux outside Foundation's Process, which waits for every descriptor the child
    /// inherits, and the tmux server the client starts outlives it.
    @discardableResult
    func run(_ args: String...) throws -> String { try run(args) }

    @discardableResult
    func run(_ args: [String]) throws -> String {
        Self.run(socket: socket, args)
    }

    /// Runs tmux with `args` against the server on `socket` and returns what it printed: the one
    /// runner every tmux test uses. The client starts with none of this process's descriptors
    /// (`ChildLaunch.spawn`): the server it forks outlives it and would hold them open.
    static func run(socket: String, _ args: [String]) -> String {
        ChildLaunch.spawn([tmux!, "-L", socket] + args).output
    }

    static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Starts `command` (a shell command line) in a new session of `width` x `height` in
    /// `directory`, with a UTF-8 locale, tmux's terminal and `environment`.
    func start(
        _ command: String, in directory: URL, width: Int = 160, height: Int = 48, environment: [String: String] = [:]
    ) throws {
        // The new session starts before the old one is killed: a server left with no session
        // exits, and a session started while it exits is lost with it.
        let old = started > 0 ? session : nil
        started += 1
        session = "s\(started)"
        var args = [
            "new-session", "-d", "-s", session, "-c", directory.path, "-x", "\(width)", "-y", "\(height)", "-e",
            "TERM=tmux-256color", "-e", "LANG=C.UTF-8",
        ]
        for (k, v) in environment.sorted(by: { $0.key < $1.key }) { args += ["-e", "\(k)=\(v)"] }
        try run(args + [command])
        if let old { _ = try? run("kill-session", "-t", old) }
        // OSC 52 from the program fills a tmux buffer (the clipboard the tests read).
        try run("set-option", "-g", "set-clipboard", "on")
    }

    /// Starts `trustx ARGS` (the built binary), then `echo EXIT=$?` and a pause so the shell's
    /// screen can be read after it quits.
    func startTrustx(
        _ args: [String], in directory: URL, width: Int = 160, height: Int = 48, environment: [String: String] = [:]
    ) throws {
        let line = ([CLI.binary.path] + args).map(Self.quote).joined(separator: " ") + "; echo EXIT=$?; sleep 60"
        try start(line, in: directory, width: width, height: height, environment: environment)
    }

    /// Sends keys (tmux key names, or text).
    func send(_ keys: String...) throws { try send(keys) }

    /// Sends a list of keys in one tmux call.
    func send(_ keys: [String]) throws { try run(["send-keys", "-t", session] + keys) }

    /// Sends text literally, character by character.
    func type(_ text: String) throws { try run(["send-keys", "-t", session, "-l", text]) }

    /// The screen as text.
    func capture() throws -> String { try run("capture-pane", "-p", "-t", session) }

    /// How often `screen` captures while it waits: often, so a test waits little longer than the
    /// program takes to draw, and no fixed sleep stands in for waiting; not so often that the
    /// captures (a tmux client each) take the CPU the program under test needs.
    static let pollInterval: useconds_t = 20_000
    /// How long after a capture that meets the condition `screen` captures again to see the frame
    /// settled: a capture can catch a frame half drawn.
    static let settleInterval: useconds_t = 30_000

    /// Captures every 20 ms until `condition` holds and a second capture 30 ms later agrees (a
    /// capture can catch a frame half drawn), or 20 seconds pass: then the test fails (a wait that
    /// silently runs out would hide the defect) and the last capture is returned.
    func screen(
        sourceLocation: SourceLocation = #_sourceLocation, until condition: (String) -> Bool
    ) async throws -> String {
        var last = ""
        let guardTime = Date().addingTimeInterval(20)
        while Date() < guardTime {
            last = try capture()
            if condition(last) {
                try await Task.sleep(nanoseconds: UInt64(Self.settleInterval) * 1000)
                let again = try capture()
                if again == last { return last }
                last = again
            } else {
                try await Task.sleep(nanoseconds: UInt64(Self.pollInterval) * 1000)
            }
        }
        Issue.record("the screen never showed what the test waits for:\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// The screen once it contains `text`.
    func screen(containing text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await screen(sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// The clipboard (the last OSC 52 the program wrote).
    func clipboard() throws -> String { try run("show-buffer") }

    /// Row `n` of a capture.
    static func row(_ n: Int, of screen: String) -> String {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return rows.indices.contains(n) ? String(rows[n]) : ""
    }

    /// A fresh directory under the temporary directory.
    static func directory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
