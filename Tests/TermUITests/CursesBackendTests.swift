import Foundation
import TermUI
import XCTest

/// The curses backend on a real terminal: tmux runs this test binary as a child (the `child` test),
/// and the parent reads the screen and the terminal's state afterwards.
final class CursesBackendTests: XCTestCase {
    static let childVariable = "TERMUI_CURSES_CHILD"

    func testOpeningRefusesWhenOutputIsNotATerminal() throws {
        guard isatty(STDOUT_FILENO) == 0 || isatty(STDIN_FILENO) == 0 else { throw XCTSkip("running on a tty") }
        XCTAssertThrowsError(try CursesBackend.open()) { error in
            XCTAssertEqual(error as? TerminalError, .notATerminal)
            XCTAssertTrue("\(error)".contains("needs a terminal"))
            XCTAssertFalse("\(error)".contains("trustx"), "the library does not name the program")
        }
    }

    /// Runs only inside tmux: draws a frame, then on `!` crashes, on `q` closes.
    func testChild() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else {
            throw XCTSkip("the child half of the tmux tests; they run it with \(Self.childVariable) set")
        }
        let backend = try CursesBackend.open()
        let terminal = Terminal(backend: backend)
        var keys: [String] = []
        func frame() {
            terminal.draw { buffer in
                Paragraph(["東京 \u{1B}[31mx"] + keys.map { Line($0) }, block: Block(title: "Chain"))
                    .render(into: &buffer, area: buffer.area)
            }
        }
        frame()
        while true {
            guard let key = backend.readKey(timeoutMilliseconds: 100) else { continue }
            if key == .char("q") { break }
            if key == .char("!") { fatalError("crash on purpose") }
            keys.append("\(key)")
            frame()
        }
        backend.close()
        backend.close()  // endwin exactly once: a second close does nothing
    }

    /// Runs tmux on a private server through `system` (Foundation's Process hung waiting for the
    /// client whose forked server keeps running), output captured through a file.
    @discardableResult
    func tmux(_ socket: String, _ arguments: [String]) -> String {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let output = NSTemporaryDirectory() + "\(socket).out"
        let status = system("tmux -L \(socket) \(quoted.joined(separator: " ")) >'\(output)' 2>/dev/null </dev/null")
        defer { unlink(output) }
        guard status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8) else { return "" }
        return text
    }

    func screen(_ socket: String) -> [String] {
        tmux(socket, ["capture-pane", "-p", "-t", "t"]).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
    }

    func waitFor(_ socket: String, _ text: String) -> [String] {
        var lines: [String] = []
        // Polled every 10 ms for at most 3 s: the wait ends as soon as the text is drawn.
        for _ in 0..<300 {
            lines = screen(socket)
            if lines.contains(where: { $0.contains(text) }) { return lines }
            usleep(10_000)
        }
        XCTFail("'\(text)' never appeared in \(lines)")
        return lines
    }

    /// Waits until the screen's first rows are `rows` (a frame is drawn in pieces: a capture can
    /// land between them), at most 3 s; the last capture either way.
    func waitFor(_ socket: String, rows: [String]) -> [String] {
        var lines: [String] = []
        for _ in 0..<300 {
            lines = screen(socket)
            if Array(lines.prefix(rows.count)) == rows { return lines }
            usleep(10_000)
        }
        return lines
    }

    func runInTmux(finishWith key: String) throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else { throw XCTSkip("no tmux") }
        let socket = "termui-test-\(getpid())-\(key == "q" ? "q" : "crash")"
        let binary = CommandLine.arguments[0]
        let child =
            "env \(Self.childVariable)=1 TERM=tmux-256color LANG=C.UTF-8 '\(binary)' "
            + "TermUITests.CursesBackendTests/testChild 2>/dev/null; code=$?; clear; "
            + "echo EXIT=$code; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; sleep 20"
        tmux(socket, ["new-session", "-d", "-s", "t", "-x", "24", "-y", "5", "sh", "-c", child])
        defer {
            tmux(socket, ["kill-server"])
            unlink("/tmp/tmux-\(getuid())/\(socket)")
        }
        let firstRows = ["┌Chain─────────────────┐", "│東京 �[31mx           │", "│                      │"]
        let first = waitFor(socket, "┌Chain")
        guard first.contains(where: { $0.contains("┌Chain") }) else { return first }
        XCTAssertEqual(Array(waitFor(socket, rows: firstRows).prefix(3)), firstRows)
        tmux(socket, ["send-keys", "-t", "t", "Down"])
        XCTAssertTrue(waitFor(socket, "down").contains("│down                  │"))
        tmux(socket, ["resize-window", "-t", "t", "-x", "14", "-y", "6"])
        let smallRows = [
            "┌Chain───────┐", "│東京 �[31mx │", "│down        │", "│resize      │", "│            │", "└────────────┘",
        ]
        _ = waitFor(socket, "resize")
        XCTAssertEqual(Array(waitFor(socket, rows: smallRows).prefix(6)), smallRows)
        tmux(socket, ["send-keys", "-t", "t", key])
        return waitFor(socket, "icanon")
    }

    func testTheTerminalIsRestoredAfterQuitting() throws {
        let lines = try runInTmux(finishWith: "q")
        XCTAssertTrue(lines.contains("EXIT=0"), "\(lines)")
        XCTAssertTrue(lines.contains("icanon echo"), "\(lines)")
    }

    func testTheTerminalIsRestoredAfterACrash() throws {
        let lines = try runInTmux(finishWith: "!")
        XCTAssertFalse(lines.contains("EXIT=0"), "\(lines)")
        XCTAssertTrue(lines.contains("icanon echo"), "\(lines)")
    }
}
