import Foundation
import XCTest

/// The built trustx under a real terminal: tmux runs it, keys are sent, the screen is captured.
/// Skipped where tmux is not installed.
final class ExplorerTmuxTests: XCTestCase {
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// A private tmux server per test, so nothing else on the machine is touched.
    let socket = "trustx-test-\(UUID().uuidString.prefix(8))"

    /// Runs tmux through popen: Foundation's Process waits for every inherited descriptor, and
    /// the tmux server it starts outlives the client, so Shell.run would never return.
    func tmux(_ args: String...) throws -> String {
        let quoted = ([Self.tmux!, "-L", socket] + args).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        guard let pipe = popen(quoted.joined(separator: " ") + " 2>&1", "r") else { return "" }
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, pipe)
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        pclose(pipe)
        return String(decoding: out, as: UTF8.self)
    }

    /// Captures the screen until `condition` holds or 20 seconds pass.
    func screen(until condition: (String) -> Bool) throws -> String {
        var text = ""
        for _ in 0..<200 {
            text = try tmux("capture-pane", "-p")
            if condition(text) { return text }
            usleep(100_000)
        }
        return text
    }

    func testTrustxOnATerminalOpensTheExplorerOnTheLabAndQuitsWithQ() throws {
        try XCTSkipIf(Self.tmux == nil, "tmux is not installed")
        defer { _ = try? tmux("kill-server") }
        let command = "'\(CLI.binary.path)'; echo EXIT=$?; sleep 30"
        _ = try tmux(
            "new-session", "-d", "-x", "160", "-y", "48", "-e", "TERM=tmux-256color", "-e", "LANG=C.UTF-8", command)
        var text = try screen { $0.contains("Trusted · errSecSuccess") }
        XCTAssertTrue(text.contains("┌Scenarios"), text)
        XCTAssertTrue(text.contains("✓ good"), text)
        _ = try tmux("send-keys", "j")
        text = try screen { $0.contains("errSecHostNameMismatch (-67602)") }
        XCTAssertTrue(text.contains("✗ Not trusted · hostname@0 SSLHostname"), text)
        _ = try tmux("send-keys", "p")
        text = try screen { $0.contains("Δ policy -> SSL(nil): hostname@0: failed -> skipped") }
        XCTAssertTrue(text.contains("verdict: -67602 -> trusted"), text)
        _ = try tmux("send-keys", "q")
        text = try screen { $0.contains("EXIT=") }
        XCTAssertTrue(text.contains("EXIT=0"), text)
    }
}
