import Foundation
import Testing
import TrustLab

/// Issue 28's classroom defects in a real terminal (tmux), with the keys the issue names: predict
/// mode giving the answer away before Space, `q` in a popup, the walk-through's evidence and rows
/// at 80x24, unavailable lab rows, the popups' stray border glyphs; and the presenter switch and
/// `:` that a trainer on a projector asked for. Each test is named after its defect and fails on
/// the behaviour before the fix; ExplorerTests' ClassroomFlowTests replay the same without a
/// terminal.
@Suite(.enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class ClassroomTmuxTests {
    let tmux = TmuxSession()
    let work: URL

    init() throws {
        work = try TmuxSession.directory("classroom")
    }

    deinit { try? FileManager.default.removeItem(at: work) }

    /// The lab's lessons under `trustx explore --group lessons` at `width` x `height`, once good
    /// has its verdict.
    func startLessons(width: Int, height: Int, _ extra: [String] = []) async throws -> String {
        try tmux.startTrustx(
            ["explore", "--group", "lessons"] + extra, in: work, width: width, height: height,
            environment: ["XDG_STATE_HOME": work.appendingPathComponent("state").path])
        return try await tmux.screen { $0.contains("errSecSuccess") || $0.contains("EXIT=") }
    }

    /// wrong-host selected, predict mode on, and `p` pressed: SSL with a nil host trusts it, so
    /// the screen asks the room.
    func voteOnWrongHost(width: Int, height: Int) async throws -> String {
        _ = try await startLessons(width: width, height: height)
        try tmux.send("j")
        _ = try await tmux.screen(containing: "-67602")
        try tmux.send("W", "p")
        return try await tmux.screen(containing: "Trusted or not?")
    }

    /// Row `n` from the bottom (1: the key bar, 2: the change line, 4: the verdict line).
    static func bottom(_ n: Int, of screen: String, height: Int) -> String {
        TmuxSession.row(height - n, of: screen)
    }

    func quit() async throws {
        try tmux.send("q")
        let text = try await tmux.screen(containing: "EXIT=")
        #expect(text.contains("EXIT=0"), "\(text)")
    }

    // MARK: Item 2: predict mode shows the answer before Space

    /// `w` during a vote walks the steps; the change line keeps what changed for the reveal.
    @Test func testPredictModeWalkThroughShowsNoVerdictInTheChangeLine() async throws {
        var text = try await voteOnWrongHost(width: 80, height: 24)
        try tmux.send("w")
        text = try await tmux.screen(containing: "step 1 of")
        let change = Self.bottom(2, of: text, height: 24)
        #expect(change.contains("what changed shows with the verdict"), "\(text)")
        #expect(!change.contains("trusted"), "the change line gives the answer:\n\(text)")
        #expect(!text.contains("✓ Trusted") && !text.contains("errSecSuccess"), "\(text)")
        // Esc before the deciding step: the room still has to vote.
        try tmux.send("Escape")
        text = try await tmux.screen(containing: "Trusted or not?")
        try tmux.send("Space")
        text = try await tmux.screen(containing: "✓ Trusted")
        #expect(Self.bottom(2, of: text, height: 24).contains("-> trusted"), "\(text)")
        try await quit()
    }

    /// `k` then `j` during a vote: no mark gives the voted target away, and the vote is kept.
    @Test func testPredictModeKeepsTheVoteWhenTheSelectionMovesAwayAndBack() async throws {
        var text = try await voteOnWrongHost(width: 100, height: 30)
        try tmux.send("k")
        text = try await tmux.screen { $0.contains("▶ ✓ good") && !$0.contains("Trusted or not?") }
        #expect(text.contains("? wrong-host"), "\(text)")
        #expect(!text.contains("✓ wrong-host"), "the voted target's mark gives the answer:\n\(text)")
        try tmux.send("j")
        text = try await tmux.screen(containing: "▶ ? wrong-host")
        text = try await tmux.screen { $0.contains("Trusted or not?") && !$0.contains("Connecting") }
        #expect(!text.contains("✓ Trusted"), "\(text)")
        try tmux.send("Space")
        text = try await tmux.screen(containing: "✓ Trusted")
        #expect(text.contains("▶ ✓ wrong-host"), "\(text)")
        try await quit()
    }

    /// At 160x40 the Detail pane sits beside "Trusted or not?": the lesson's answers wait.
    @Test func testPredictModeHidesTheLessonRowsBesideTrustedOrNotAt160x40() async throws {
        let text = try await voteOnWrongHost(width: 160, height: 40)
        #expect(text.contains("4 Scenario wrong-host"), "\(text)")
        #expect(text.contains("hidden until the verdict shows"), "\(text)")
        #expect(!text.contains("-67602 errSecHostNameMismatch, URLError -999"), "Expected:\n\(text)")
        #expect(!text.contains("ssl-no-host trusted"), "a Try row:\n\(text)")
        #expect(!text.contains("Verdict"), "\(text)")
        try tmux.send("Space")
        let shown = try await tmux.screen(containing: "✓ Trusted")
        #expect(shown.contains("ssl-no-host trusted"), "\(shown)")
        try await quit()
    }

    // MARK: The presenter switch

    /// `e` hides the lesson's Expected and Try rows while predict mode is on; `e` shows them.
    @Test func testPresenterSwitchHidesExpectedAndTryWhileTheRoomVotes() async throws {
        _ = try await startLessons(width: 80, height: 24)
        try tmux.send("j", "4")
        var text = try await tmux.screen(containing: "Expected      -67602")
        try tmux.send("W", "e")
        text = try await tmux.screen(containing: "Expected      hidden while the room votes")
        #expect(!text.contains("ssl-no-host"), "\(text)")
        try tmux.send("e")
        text = try await tmux.screen(containing: "Expected      -67602")
        try await quit()
    }

    // MARK: Item 3: q in a popup quits

    /// `q` and Esc close the help, the `y` popup and the `X` popup; `q` quits only outside them.
    @Test func testQAndEscCloseEveryPopupInsteadOfQuitting() async throws {
        var text = try await startLessons(width: 100, height: 30)
        for close in ["q", "Escape"] {
            try tmux.send("?")
            text = try await tmux.screen(containing: "q, Esc or any other key closes")
            try tmux.send(close)
            text = try await tmux.screen { !$0.contains("Help") }
            #expect(!text.contains("EXIT="), "\(close) in the help quits:\n\(text)")
            try tmux.send("y")
            text = try await tmux.screen(containing: "Reproduce with trustx check")
            #expect(text.contains("q, Esc or any other key closes."), "\(text)")
            try tmux.send(close)
            text = try await tmux.screen { !$0.contains("Reproduce with") }
            #expect(!text.contains("EXIT="), "\(close) in the y popup quits:\n\(text)")
            try tmux.send("X")
            text = try await tmux.screen(containing: "Export settings as")
            try tmux.type("swift")
            try tmux.send("Enter")
            text = try await tmux.screen(containing: "Export as swift")
            try tmux.send(close)
            text = try await tmux.screen { !$0.contains("Export as swift") }
            #expect(!text.contains("EXIT="), "\(close) in the X popup quits:\n\(text)")
        }
        try await quit()
    }

    // MARK: Item 18: popups leave stray border glyphs at 80 columns

    @Test func testPopupsLeaveNoStrayBorderGlyphsAtEightyColumns() async throws {
        var text = try await startLessons(width: 80, height: 24)
        try tmux.send("?")
        text = try await tmux.screen(containing: "Help")
        #expect(!text.contains("┌┌") && !text.contains("││"), "\(text)")
        for row in 0..<20 {
            #expect(TmuxSession.row(row, of: text).first == " ", "row \(row):\n\(text)")
        }
        try tmux.send("Escape", "y")
        text = try await tmux.screen(containing: "Reproduce with trustx check")
        #expect(!text.contains("┌┌"), "\(text)")
        let top = text.split(separator: "\n").first { $0.contains("Reproduce with trustx check") }
        #expect(top?.hasPrefix(" ┌") == true, "\(text)")
        try tmux.send("Escape")
        try await quit()
    }

    // MARK: Item 15: the walk-through at 80x24

    /// wrong-host walked to its hostname step (18): the Detail pane shows the subjectAltName the
    /// step read, marked `▸`, and the walk's rows keep `@0` and `@1` apart.
    @Test func testWalkThroughAtEightyByTwentyFourShowsItsMarkedEvidenceAndKeepsTheSuffix() async throws {
        _ = try await startLessons(width: 80, height: 24)
        try tmux.send("j")
        _ = try await tmux.screen(containing: "-67602")
        try tmux.send("w")
        _ = try await tmux.screen(containing: "step 1 of")
        try tmux.send(Array(repeating: "Space", count: 17))
        let text = try await tmux.screen(containing: "step 18 of")
        let rows = (0..<20).map { TmuxSession.row($0, of: text) }
        #expect(rows.contains { $0.contains("▸ subjectAltName") }, "\(text)")
        #expect(rows.contains { $0.contains("▸   iPAddress: 127.0.0.1") }, "\(text)")
        let basic = rows.filter { $0.contains("✓ basic") || $0.contains("– basic") }
        #expect(basic.count == 2, "\(text)")
        #expect(basic.first?.contains("@0") == true && basic.last?.contains("@1") == true, "\(text)")
        try tmux.send("Escape")
        try await quit()
    }

    // MARK: Item 17: unavailable lab rows

    /// The first scenario of the catalogue the lab cannot serve, if any.
    static let unavailable = LabScenario.all.first { $0.unavailable != nil }

    /// `/` and its name select it: the row reads whole, and its reason in full in the Detail.
    @Test(.enabled(if: unavailable != nil, "every scenario of the catalogue is served"))
    func testUnavailableLabRowIsSelectableAndItsReasonReadsWhole() async throws {
        let scenario = try #require(Self.unavailable)
        try tmux.startTrustx(["explore", "--group", scenario.group.id], in: work, width: 80, height: 24)
        _ = try await tmux.screen { $0.contains("Scenarios") && !$0.contains("starting") }
        try tmux.send(":")
        _ = try await tmux.screen(containing: "Go to:")
        try tmux.type(scenario.name)
        try tmux.send("Enter")
        let text = try await tmux.screen(containing: "• Not served")
        #expect(text.contains("▶ • \(scenario.name) (unavailable)"), "\(text)")
        let words = text.split(separator: "\n").prefix(20).flatMap { row in
            row.split(separator: "│").dropFirst().joined(separator: " ").split(separator: " ")
        }.joined(separator: " ")
        let reason = try #require(scenario.unavailable).split(separator: " ").joined(separator: " ")
        #expect(words.contains(reason), "\(reason)\n\(text)")
        try await quit()
    }

    // MARK: Going to a scenario without filtering

    /// At 80x24 the Targets pane shows three rows: `:` and a number or a name selects one.
    @Test func testColonGoesToAScenarioByNumberOrNameWithoutFiltering() async throws {
        var text = try await startLessons(width: 80, height: 24)
        try tmux.send(":")
        text = try await tmux.screen(containing: "Go to:")
        try tmux.type("rogue")
        try tmux.send("Enter")
        text = try await tmux.screen(containing: "-25318")
        #expect(text.contains("▶ ✗ rogue-ca"), "\(text)")
        #expect(!text.contains("Scenarios /"), "no filter:\n\(text)")
        try tmux.send(":")
        _ = try await tmux.screen(containing: "Go to:")
        try tmux.type("2")
        try tmux.send("Enter")
        text = try await tmux.screen(containing: "-67602")
        #expect(text.contains("Scenarios 2/"), "\(text)")
        try await quit()
    }
}
