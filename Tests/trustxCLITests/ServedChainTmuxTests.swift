import Foundation
import SuiteFixtures
import Testing
import TrustX509

/// The explorer's `S` under a real terminal: the Chain pane says the root was sent, and `S`
/// writes the chain to serve (the leaf alone here: its issuer is the anchor) to the file typed at
/// its prompt, never over a file that exists (docs/explorer.md, D442).
extension ExplorerTmuxTests {
    @Test func testSWritesTheChainToServeAfterTheChainPaneSaysTheRootWasSent() async throws {
        defer { _ = try? tmux("kill-server") }
        let pki = try TestPKI.get()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // The leaf and its CA, sent both: the CA is the path's self-signed root (RFC 8446 4.4.2).
        _ = try await startExplorer(
            [
                "explore", "--chain", pki.path("leaf.pem"), pki.path("ca.pem"), "--anchor", pki.path("ca.pem"),
                "--host", "127.0.0.1",
            ],
            in: work, environment: ["XDG_STATE_HOME=" + work.appendingPathComponent("state").path])
        var text = try await screen { $0.contains("root-sent") }
        #expect(text.contains("Served: 1"), "\(text)")

        try await writeChain(to: "served.pem")
        text = try await screen { $0.contains("wrote the chain to serve to served.pem") }
        let written = try PEM.blocks(in: [UInt8](try Data(contentsOf: work.appendingPathComponent("served.pem"))))
        let leaf = try PEM.blocks(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: pki.path("leaf.pem")))))
        #expect(written.map(\.der) == leaf.map(\.der))

        // Again over the file it wrote: refused, the file as it was.
        try await writeChain(to: "served.pem")
        text = try await screen { $0.contains("cannot write served.pem: it exists") }
        try send("q")
        _ = try await screen { $0.contains("EXIT=") }
    }

    /// `S`, then the name typed once the prompt shows it, then Enter: each step seen on the
    /// screen before the next, so a loaded machine cannot reorder them.
    func writeChain(to name: String) async throws {
        try send("S")
        _ = try await screen { $0.contains("Write the chain to serve to: ") }
        try send("C-u", name)
        _ = try await screen { $0.contains("Write the chain to serve to: \(name)") }
        try send("Enter")
    }
}
