import Foundation
import Testing

/// `m` and `M` under a real terminal, on the lab: the `good` scenario marked, `expired` selected
/// and compared. The lab issues both leaves from its Library Test CA, each over a key of its own
/// (docs/lab.md), so the leaves are different and the CA that ends both paths is the same
/// certificate; `expired` fails with Apple's CertificateExpired (-67818).
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class CompareTmuxTests {
    @Test func testMarkingGoodAndComparingExpiredShowsBothSidesAndTheirRelations() async throws {
        let tmux = TmuxSession()
        try tmux.startTrustx(["explore", "--group", "lessons"], in: try TmuxSession.directory("compare"))
        _ = try await tmux.screen(containing: "Trusted · errSecSuccess")

        try tmux.send("m")
        var text = try await tmux.screen(containing: "good ◆")
        #expect(text.contains("good marked"), "\(text)")

        // The filter selects the one scenario named so, wherever the catalogue lists it.
        try tmux.send("/")
        try tmux.type("expired")
        try tmux.send("Enter")
        _ = try await tmux.screen(containing: "-67818")

        try tmux.send("M")
        text = try await tmux.screen { $0.contains("expired (selected)") && $0.contains("Path as built") }
        #expect(text.contains("Compare good | expired"), "\(text)")
        #expect(text.contains("good (marked)"), "\(text)")
        #expect(text.contains("[0] different"), "\(text)")
        #expect(text.contains("[1] same certificate  Library Test CA"), "\(text)")
        #expect(text.contains("-67818 errSecCertificateExpired"), "\(text)")

        try tmux.send("Escape")
        text = try await tmux.screen { !$0.contains("expired (selected)") }
        #expect(text.contains("Scenario expired"), "\(text)")
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
