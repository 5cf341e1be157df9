import Foundation
import Testing
import TrustSupport
import TrustX509

/// The store key under a real terminal: a root Apple ships and this machine lacks is trusted with
/// Apple's store (the default), `s` switches to this machine's OpenSSL store and the same chain
/// reads Apple's "root not trusted" (-67843), `s` again brings Apple's store back.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class StoreKeyTmuxTests {
    /// A root Apple ships that this machine's /etc/ssl/certs lacks; nil when it has them all.
    static let rootThisMachineLacks: Certificate? = {
        let machine = Set(
            SystemTrustStore(certFile: nil, certDirectories: ["/etc/ssl/certs"]).allCertificates().map(\.sha256))
        let apple = AppleRootStore.shared
        return (0..<apple.count).lazy.compactMap({ apple.certificate(at: $0) }).first(where: {
            !machine.contains($0.sha256)
        })
    }()

    @Test(
        .enabled(
            if: StoreKeyTmuxTests.rootThisMachineLacks != nil,
            "this machine's /etc/ssl/certs has every root Apple ships"))
    func testSSwitchesTheExplorerBetweenApplesRootsAndThisMachines() async throws {
        let root = try #require(Self.rootThisMachineLacks)
        let dir = try TmuxSession.directory("store-key")
        try PEM.encode(root.der).write(to: dir.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        // Within the root's validity, whatever today is.
        let middle = Timestamp(
            secondsSinceEpoch: (root.notBefore.secondsSinceEpoch + root.notAfter.secondsSinceEpoch) / 2)
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["explore", "--chain", "root.pem", "--policy", "basic", "--at", middle.rfc3339], in: dir)
        var text = try await tmux.screen(containing: "✓ Trusted")
        #expect(text.contains("apple"), "\(text)")

        try tmux.send("s")
        text = try await tmux.screen(containing: "-67843")
        #expect(text.contains("✗ Not trusted"), "\(text)")
        #expect(text.contains("openssl"), "\(text)")

        try tmux.send("s")
        text = try await tmux.screen(containing: "✓ Trusted")
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
