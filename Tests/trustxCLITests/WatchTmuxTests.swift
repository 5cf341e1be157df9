import Foundation
import SuiteFixtures
import Testing

/// `l` under a real terminal: the explorer watches an openssl s_server once a second, the server
/// is replaced on the same port by one with a new certificate and key, and the Targets strip
/// marks the change while the Detail lists the new leaf.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class WatchTmuxTests {
    @Test func testWatchingAServerThatRestartsWithANewKeyMarksTheStripAndListsTheNewLeaf() async throws {
        let pki = try TestPKI.get()
        let dir = try TmuxSession.directory("watch")
        // A second leaf for the same address, with its own key, from the same CA.
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Shell.openssl(["req"] + ec + ["-keyout", "new.key", "-out", "new.csr", "-subj", "/CN=127.0.0.1"], in: dir)
        try Shell.openssl(
            [
                "x509", "-req", "-in", "new.csr", "-CA", pki.path("ca.pem"), "-CAkey", pki.path("ca.key"),
                "-set_serial", "4661", "-days", "365", "-extfile", pki.path("leaf.ext"), "-out", "new.pem",
            ], in: dir)
        let fingerprint = try Shell.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["openssl", "x509", "-in", "new.pem", "-noout", "-fingerprint", "-sha256"], in: dir
        ).out
        // `sha256 Fingerprint=AB:CD:...`: the first three bytes, as the Detail shortens digests.
        let hex = fingerprint.split(separator: "=").last.map { $0.replacingOccurrences(of: ":", with: "") } ?? ""
        let newLeaf = String(hex.lowercased().prefix(6))
        #expect(newLeaf.count == 6, "\(fingerprint)")

        var server = try OpenSSLServer(
            ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: pki.directory)
        defer { server.stop() }
        let port = server.port
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["explore", "https://127.0.0.1:\(port)", "--anchor", pki.path("ca.pem"), "--watch", "1"], in: dir)
        _ = try await tmux.screen(containing: "✓ Trusted")
        // The Targets pane and the target's Detail, then the watch.
        try tmux.send("1")
        try tmux.send("l")
        _ = try await tmux.screen { $0.contains("↻ ·") && Self.detail($0).contains("first evaluation: trusted") }

        server.stop()
        server = try OpenSSLServer(
            ["-cert", dir.appendingPathComponent("new.pem").path, "-key", dir.appendingPathComponent("new.key").path],
            port: port, in: dir)
        _ = try await tmux.screen { screen in
            let targets = screen.split(separator: "\n").first { $0.contains("↻") } ?? ""
            let detail = Self.detail(screen)
            return targets.contains("●") && detail.contains("new leaf (new key)") && detail.contains("-> \(newLeaf)…")
        }
        // The screen follows the server: it re-evaluates the new leaf (after the round that found
        // it, so waited for), and the change line names the watch as the cause.
        _ = try await tmux.screen(containing: "watch: ")
        try tmux.send("l")
        _ = try await tmux.screen(containing: "stopped (l goes on)")
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }

    /// The Detail pane's text with its wrapped lines joined by spaces, as the explorer wraps at
    /// spaces: the rows under the `┌4` border, between that border's columns.
    static func detail(_ screen: String) -> String {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        guard let top = rows.firstIndex(where: { String($0).contains("┌4 ") }),
            let left = rows[top].firstIndex(of: "┌"),
            let right = rows[top][rows[top].index(left, offsetBy: 1)...].firstIndex(of: "┐")
        else { return "" }
        var text: [String] = []
        for row in rows[(top + 1)...] {
            guard row.count > right, row[left] == "│" else { break }
            text.append(String(row[(left + 1)..<right]).trimmingCharacters(in: .whitespaces))
        }
        return text.joined(separator: " ")
    }
}
