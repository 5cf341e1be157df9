import Explorer
import ExplorerState
import TermUI
import TrustCore
import TrustLab
import XCTest

/// Issue 28's classroom defects replayed without a terminal: predict mode giving the answer away
/// before Space, `q` in a popup, the walk-through's evidence and rows, unavailable lab rows, the
/// popups' margins, the presenter switch and `:`. Each test is named after the defect and fails
/// on the behaviour before the fix; the tmux tests (ClassroomTmuxTests) drive the same keys in a
/// terminal.
final class ClassroomFlowTests: XCTestCase {
    static let scenarios = ["good", "wrong-host", "rogue-ca", "missing-intermediate-aia"]

    func screen(_ s: Session, _ width: Int, _ height: Int) -> String {
        ExplorerView.lines(s.state, width: width, height: height).joined(separator: "\n")
    }

    /// wrong-host, `W`, `p` (SSL with a nil host trusts it): the room votes.
    func votingOnWrongHost() -> Session {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        s.press(.char("W"), .char("p"))
        XCTAssertTrue(s.state.verdictHidden, "SSL(nil) flips wrong-host to trusted: a vote")
        return s
    }

    // MARK: Item 2: predict mode shows the answer before Space

    func testPredictModeWalkThroughShowsNoChangeLineVerdictBeforeTheReveal() throws {
        let s = votingOnWrongHost()
        s.press(.char("w"))
        XCTAssertNotNil(s.state.walk)
        var text = screen(s, 100, 30)
        let changeRow = ExplorerView.lines(s.state, width: 100, height: 30)[28]
        XCTAssertTrue(changeRow.contains("what changed shows with the verdict"), text)
        XCTAssertFalse(text.contains("-> trusted"), "the change line gives the answer:\n\(text)")
        XCTAssertFalse(text.contains("errSecSuccess"), text)
        XCTAssertFalse(text.contains("✓ wrong-host"), text)
        // Esc ends the walk before its deciding step: the vote is still pending.
        s.press(.escape)
        XCTAssertTrue(s.state.verdictHidden)
        text = screen(s, 100, 30)
        XCTAssertTrue(text.contains("Trusted or not?"), text)
        // Walked to the end, the walk is the reveal.
        s.press(.char("w"))
        let count = try XCTUnwrap(s.state.evaluation?.steps.count)
        while s.state.walk! < count { s.press(.char(" ")) }
        XCTAssertFalse(s.state.verdictHidden)
        XCTAssertTrue(screen(s, 100, 30).contains("-> trusted"))
    }

    func testPredictModeMovingAwayAndBackKeepsTheVoteAndShowsNoMark() {
        let s = votingOnWrongHost()
        s.press(.char("k"))
        XCTAssertEqual(s.state.target?.name, "good")
        var text = screen(s, 100, 30)
        XCTAssertFalse(text.contains("✓ wrong-host"), "the voted target's mark gives the answer:\n\(text)")
        XCTAssertTrue(text.contains("? wrong-host"), text)
        s.press(.char("j"))
        XCTAssertEqual(s.state.target?.name, "wrong-host")
        XCTAssertTrue(s.state.verdictHidden, "the vote is kept")
        text = screen(s, 100, 30)
        XCTAssertTrue(text.contains("Trusted or not?"), text)
        XCTAssertFalse(text.contains("✓ Trusted"), text)
        s.press(.char(" "))
        XCTAssertFalse(s.state.verdictHidden)
        XCTAssertTrue(screen(s, 100, 30).contains("✓ Trusted"))
        XCTAssertTrue(s.state.pendingVotes.isEmpty)
    }

    func testPredictModeComparingWithAVotedTargetKeepsItsVerdictHidden() throws {
        let s = votingOnWrongHost()
        s.press(.char("m"), .char("k"), .char("M"))
        XCTAssertTrue(s.state.comparison.showing)
        let text = screen(s, 160, 40)
        let verdictRow = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("│Verdict") })
        XCTAssertTrue(verdictRow.contains("hidden until it is revealed (Space)"), text)
        XCTAssertEqual(verdictRow.components(separatedBy: "trusted").count, 2, "only good's side:\n\(text)")
        XCTAssertTrue(text.contains("? wrong-host"), text)
    }

    func testPredictModeLessonRowsStayHiddenBesideTrustedOrNot() throws {
        // no-forward-secrecy has a Network row and Info.plist rows with their codes; +3y expires
        // its leaf (397 days), which flips the verdict.
        let s = Session(scenarios: ["good", "no-forward-secrecy"])
        s.select("no-forward-secrecy")
        s.press(.char("W"))
        s.prompt("t", "+3y")
        XCTAssertTrue(s.state.verdictHidden)
        let lines = DetailContent.lines(s.state)
        let fields = lines.compactMap { line -> String? in
            if case .field(let label) = line.kind { return label + " " + line.text }
            return nil
        }
        XCTAssertFalse(fields.contains { $0.hasPrefix("Network") }, "\(fields)")
        XCTAssertFalse(lines.contains { $0.kind == .heading && $0.text == "Try" })
        XCTAssertFalse(lines.contains { $0.kind == .heading && $0.text == "Verdict" })
        XCTAssertFalse(fields.contains { $0.contains("-1200") || $0.contains("-67818") }, "\(fields)")
        let text = screen(s, 160, 40)
        XCTAssertTrue(text.contains("Trusted or not?"), text)
        XCTAssertFalse(text.contains("-1200"), text)
        XCTAssertFalse(text.contains("-67818"), text)
        s.press(.char(" "))
        XCTAssertTrue(DetailContent.lines(s.state).contains { $0.kind == .heading && $0.text == "Verdict" })
    }

    func testPredictModeChainPaneKeepsThePathAndItsTrustHiddenUntilTheReveal() throws {
        // missing-intermediate-aia is trusted with AIA fetching on (the intermediate is fetched,
        // a path of 3 ends at a trusted anchor) and not with it off: `f` flips it, a vote.
        let s = Session(scenarios: Self.scenarios)
        s.select("missing-intermediate-aia")
        s.press(.char("W"), .char("f"))
        XCTAssertTrue(s.state.verdictHidden, "AIA off leaves the path cut short: a vote")
        let rows = ExplorerView.lines(s.state, width: 160, height: 40)
        let chainTitle = try XCTUnwrap(rows.first { $0.contains("2 Chain") })
        XCTAssertFalse(chainTitle.contains("path"), "the path's length gives the answer:\n\(chainTitle)")
        XCTAssertFalse(chainTitle.contains("changed"), chainTitle)
        let text = Self.pane("┌2 Chain", in: rows)
        XCTAssertTrue(text.contains("Chain as sent"), text)
        XCTAssertFalse(text.contains("trusted"), "a path row says how it was trusted:\n\(text)")
        XCTAssertFalse(text.contains("no anchor"), text)
        s.press(.char(" "))
        let revealed = ExplorerView.lines(s.state, width: 160, height: 40).first { $0.contains("2 Chain") } ?? ""
        XCTAssertTrue(revealed.contains("in path"), revealed)
    }

    /// The text inside the pane whose top border starts with `title`, row by row.
    static func pane(_ title: String, in rows: [String]) -> String {
        let grid = rows.map { Array($0) }
        let mark = Array(title)
        for (r, row) in grid.enumerated() {
            guard let left = row.indices.first(where: { row[$0...].starts(with: mark) }),
                let right = row[(left + 1)...].firstIndex(of: "┐")
            else { continue }
            var text: [String] = []
            for below in grid[(r + 1)...] {
                guard below.count > right, below[left] == "│" else { break }
                text.append(String(below[(left + 1)..<right]))
            }
            return text.joined(separator: "\n")
        }
        return ""
    }

    // MARK: The presenter switch

    func testPresenterSwitchHidesExpectedAndTryWhileARoomVotes() {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        func expected() -> String? {
            DetailContent.lines(s.state).first { $0.kind == .field("Expected") }?.text
        }
        XCTAssertEqual(expected(), "-67602 errSecHostNameMismatch, URLError -999")
        s.press(.char("e"))
        XCTAssertTrue(s.state.presenter)
        XCTAssertEqual(expected(), "-67602 errSecHostNameMismatch, URLError -999", "no vote without predict mode")
        s.press(.char("W"))
        XCTAssertEqual(expected(), "hidden while the room votes (e shows them)")
        XCTAssertFalse(DetailContent.lines(s.state).contains { $0.kind == .heading && $0.text == "Try" })
        s.press(.char("e"))
        XCTAssertEqual(expected(), "-67602 errSecHostNameMismatch, URLError -999")
    }

    // MARK: Item 3: q in a popup

    func testQInAPopupClosesItInsteadOfQuitting() {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("?"))
        XCTAssertTrue(s.state.showHelp)
        s.press(.char("q"))
        XCTAssertFalse(s.state.showHelp)
        XCTAssertFalse(s.state.shouldQuit, "q in the help quits")
        s.press(.char("y"))
        XCTAssertNotNil(s.state.overlay)
        XCTAssertEqual(s.state.overlay!.paragraphs.last, "q, Esc or any other key closes.")
        s.press(.char("q"))
        XCTAssertNil(s.state.overlay)
        XCTAssertFalse(s.state.shouldQuit, "q in the y popup quits")
        s.press(.char("y"), .escape)
        XCTAssertNil(s.state.overlay)
        s.press(.char("q"))
        XCTAssertTrue(s.state.shouldQuit, "q quits where no popup is open")
    }

    // MARK: Item 18: popups leave stray border glyphs at 80 columns

    func testPopupsLeaveNoStrayBorderGlyphsAtEightyColumns() {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("?"))
        var rows = ExplorerView.lines(s.state, width: 80, height: 24)
        XCTAssertTrue(rows.joined().contains("Help"))
        XCTAssertFalse(rows.joined(separator: "\n").contains("┌┌"), rows.joined(separator: "\n"))
        for row in rows.prefix(20) {
            XCTAssertEqual(row.first, " ", "a pane's border beside the help's:\n\(rows.joined(separator: "\n"))")
        }
        s.press(.escape, .char("y"))
        rows = ExplorerView.lines(s.state, width: 80, height: 24)
        let top = rows.firstIndex { $0.contains("Reproduce with trustx check") }!
        XCTAssertTrue(rows[top].hasPrefix(" ┌"), rows.joined(separator: "\n"))
        XCTAssertFalse(rows.joined(separator: "\n").contains("┌┌"), rows.joined(separator: "\n"))
    }

    // MARK: Item 15: the walk-through's evidence, marker and rows

    func testWalkThroughAtEightyByTwentyFourScrollsToItsEvidenceAndMarksIt() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        s.press(.char("w"))
        while s.state.walkStep?.id != .hostname { s.press(.char(" ")) }
        let rows = ExplorerView.lines(s.state, width: 80, height: 24)
        let detail = rows.prefix(20).map { String($0.dropFirst(32)) }
        XCTAssertTrue(
            detail.contains { $0.contains("▸") && $0.contains("subjectAltName") },
            "the evidence the hostname step read is on screen and marked:\n\(rows.joined(separator: "\n"))")
        // The user's own scroll is kept from there.
        let scroll = s.state.detailScroll
        s.send(.frameLaid(ExplorerView.layout(s.state, width: 80, height: 24)))
        XCTAssertGreaterThan(s.state.detailScroll, 0)
        XCTAssertEqual(s.state.detailScroll, max(scroll, s.state.detailScroll))
        s.press(.char("4"), .char("k"))
        XCTAssertFalse(s.state.detailFollowsEvidence)
    }

    func testWalkThroughRowsKeepTheCertificateSuffixAtEightyColumns() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        s.press(.char("w"))
        let e = try XCTUnwrap(s.state.evaluation)
        // Walk until both certificates' basic-constraints rows are revealed.
        let last = try XCTUnwrap(e.steps.lastIndex { $0.id == .basicConstraints })
        while s.state.walk! <= last { s.press(.char(" ")) }
        let rows = ExplorerView.lines(s.state, width: 80, height: 24).map { String($0.prefix(32)) }
        let basic = rows.filter { $0.contains("basic") }
        XCTAssertEqual(basic.count, 2, rows.joined(separator: "\n"))
        XCTAssertTrue(basic[0].contains("@0") && basic[1].contains("@1"), basic.joined(separator: "\n"))
    }

    // MARK: Item 17: unavailable lab rows

    func testUnavailableLabRowIsSelectableAndItsReasonReadsInDetail() throws {
        let scenario = try XCTUnwrap(LabScenario.named("rc4") ?? LabScenario.all.last)
        let reason = "this machine's OpenSSL could not make the scenario's key (a reason long enough to wrap)"
        let unavailable = ExplorerTarget.unavailable(scenario, reason: reason)
        let s = Session(scenarios: Self.scenarios)
        var state = s.state
        state.targets.append(unavailable)
        var effects: [Effect] = []
        (state, effects) = reduce(state, .command(.last))
        XCTAssertTrue(effects.isEmpty, "nothing to connect to")
        XCTAssertEqual(state.target?.name, scenario.name, "the row is selectable")
        let rows = ExplorerView.lines(state, width: 80, height: 24)
        let text = rows.joined(separator: "\n")
        XCTAssertTrue(text.contains("\(scenario.name) (unavailable)"), text)
        let words = rows.flatMap { $0.split(separator: "│").dropFirst().joined(separator: " ").split(separator: " ") }
            .joined(separator: " ")
        XCTAssertTrue(words.contains(reason), "the reason reads in full:\n\(text)")
        XCTAssertTrue(rows[20].contains("Not served"), rows[20])
        XCTAssertTrue(text.contains("no chain: the lab does"), "the Chain pane says why it is empty:\n\(text)")
        (state, _) = reduce(state, .command(.copyCommand))
        XCTAssertNil(state.overlay)
        XCTAssertTrue(state.message?.contains("not served") == true, state.message ?? "")
        // In catalogue order, among its group's served scenarios.
        let ordered = ExplorerTarget.inCatalogueOrder(served: s.state.targets, unavailable: [(scenario, reason)])
        XCTAssertEqual(ordered.map(\.name).sorted(), (s.state.targets.map(\.name) + [scenario.name]).sorted())
        let order = LabScenario.all.map(\.name)
        let indices = ordered.compactMap { order.firstIndex(of: $0.name) }
        XCTAssertEqual(indices, indices.sorted())
    }

    // MARK: Going to a scenario by number or name

    func testColonGoesToATargetByNumberOrNameWithoutFiltering() {
        let s = Session(scenarios: Self.scenarios)
        s.prompt(":", "3")
        XCTAssertEqual(s.state.target?.name, "rogue-ca")
        XCTAssertNil(s.state.targetFilter)
        s.prompt(":", "missing")
        XCTAssertEqual(s.state.target?.name, "missing-intermediate-aia")
        s.prompt(":", "WRONG-HOST")
        XCTAssertEqual(s.state.target?.name, "wrong-host")
        XCTAssertEqual(s.state.visibleTargets.count, 4, "the list is not filtered")
        s.press(.char(":"))
        s.type("nosuch")
        s.press(.enter)
        XCTAssertEqual(s.state.message, "no target numbered or named \"nosuch\"")
        XCTAssertEqual(s.state.target?.name, "wrong-host")
        s.press(.escape)
        // Tab completes a name.
        s.press(.char(":"))
        s.type("rog")
        s.press(.tab)
        XCTAssertEqual(s.state.prompt?.text, "rogue-ca")
        s.press(.enter)
        XCTAssertEqual(s.state.target?.name, "rogue-ca")
    }
}
