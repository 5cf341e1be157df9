import ExplorerState
import TrustCore
import TrustSupport
import TrustX509
import XCTest

/// `s` switches the system roots between Apple's store and this machine's.
final class StoreKeyTests: XCTestCase {
    func testSSwitchesBetweenApplesStoreAndThisMachinesForAnAppleOnlyRoot() throws {
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
        let target = ExplorerTarget(
            name: "root", location: "root.der", host: "", source: .files([root], paths: ["root.der"]))
        var toggles = Toggles()
        toggles.policy = .basicX509
        toggles.time = Timestamp(
            secondsSinceEpoch: (root.notBefore.secondsSinceEpoch + root.notAfter.secondsSinceEpoch) / 2)
        let s = Session(
            targets: [target], systemStore: AppleRootStore.shared, toggles: toggles)
        XCTAssertEqual(s.state.settings.systemStore?.storeName, "apple")
        XCTAssertEqual(s.verdict?.trusted, true)
        // The Detail pane's verdict gives both stores and the root that makes the difference.
        var overview = s.state
        overview.detailSubject = .targets
        let trustedBy = DetailContent.lines(overview).first { $0.kind == .field("Trusted by") }
        XCTAssertEqual(trustedBy?.text.hasPrefix("apple: trusted · openssl: not trusted; the difference: "), true)
        XCTAssertEqual(trustedBy?.text.contains(String(hexString(root.sha256).prefix(16))), true)
        s.press(.char("s"))
        XCTAssertEqual(s.state.toggles.store, .openssl)
        XCTAssertEqual(s.state.settings.systemStore?.storeName, "openssl")
        XCTAssertEqual(s.verdict?.trusted, false)
        XCTAssertEqual(s.verdict?.osstatus, -67843)
        XCTAssertEqual(s.state.change?.cause, "store -> openssl")
        s.press(.char("s"))
        XCTAssertEqual(s.state.toggles.store, .apple)
        XCTAssertEqual(s.verdict?.trusted, true)
    }

    func testTheHelpListsTheStoreKey() {
        let binding = Keymap.standard.binding(for: .cycleStore)
        XCTAssertEqual(binding?.keys, [.char("s")])
        XCTAssertEqual(Keymap.standard.command(for: .char("s")), .cycleStore, "no other binding takes s first")
    }
}
