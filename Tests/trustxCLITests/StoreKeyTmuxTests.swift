import Foundation
import TrustSupport
import TrustX509
import XCTest

/// The store key under a real terminal: a root Apple ships and this machine lacks is trusted with
/// Apple's store (the default), `s` switches to this machine's OpenSSL store and the same chain
/// reads Apple's "root not trusted" (-67843), `s` again brings Apple's store back.
final class StoreKeyTmuxTests: XCTestCase {
    func testSSwitchesTheExplorerBetweenApplesRootsAndThisMachines() throws {
        try XCTSkipIf(TmuxSession.tmux == nil, "tmux is not installed")
        let machine = Set(
            SystemTrustStore(certFile: nil, certDirectories: ["/etc/ssl/certs"]).allCertificates().map(\.sha256))
        let apple = AppleRootStore.shared
        guard
            let root = (0..<apple.count).lazy.compactMap({ apple.certificate(at: $0) }).first(where: {
                !machine.contains($0.sha256)
            })
        else {
            throw XCTSkip("this machine's /etc/ssl/certs has every root Apple ships")
        }
        let dir = try TmuxSession.directory("store-key")
        try PEM.encode(root.der).write(to: dir.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        // Within the root's validity, whatever today is.
        let middle = Timestamp(
            secondsSinceEpoch: (root.notBefore.secondsSinceEpoch + root.notAfter.secondsSinceEpoch) / 2)
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["explore", "--chain", "root.pem", "--policy", "basic", "--at", middle.rfc3339], in: dir)
        var text = try tmux.screen(containing: "✓ Trusted")
        XCTAssertTrue(text.contains("apple"), text)

        try tmux.send("s")
        text = try tmux.screen(containing: "-67843")
        XCTAssertTrue(text.contains("✗ Not trusted"), text)
        XCTAssertTrue(text.contains("openssl"), text)

        try tmux.send("s")
        text = try tmux.screen(containing: "✓ Trusted")
        try tmux.send("q")
        XCTAssertTrue(try tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
