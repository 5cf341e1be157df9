import Explorer
import ExplorerState
import TermUI
import TrustCore
import XCTest

/// The explorer in a classroom: the walk-through, predict mode, the help, and every layout
/// keeping the words that explain a verdict.
final class ClassroomTests: XCTestCase {
    static let scenarios = ["good", "wrong-host", "rogue-ca", "missing-intermediate-aia"]

    func testTheWalkThroughHidesTheVerdictUntilTheDecisiveStep() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        s.press(.char("w"))
        XCTAssertEqual(s.state.walk, 1)
        XCTAssertEqual(s.state.focus, .steps)
        XCTAssertFalse(s.state.verdictRevealed)
        let e = try XCTUnwrap(s.state.evaluation)
        let decisive = try XCTUnwrap(e.steps.firstIndex { $0 == e.verdict.decisiveStep })
        var screen = ExplorerView.lines(s.state, width: 100, height: 30).joined(separator: "\n")
        XCTAssertTrue(screen.contains("step 1 of \(e.steps.count)"), screen)
        XCTAssertFalse(screen.contains("-67602"), "no verdict before its step:\n\(screen)")
        while s.state.walk! <= decisive { s.press(.char(" ")) }
        XCTAssertEqual(s.state.walkStep?.id, .hostname)
        XCTAssertTrue(s.state.verdictRevealed)
        screen = ExplorerView.lines(s.state, width: 100, height: 30).joined(separator: "\n")
        XCTAssertTrue(screen.contains("-67602"), screen)
        XCTAssertTrue(
            DetailContent.lines(s.state).contains { $0.text == "Evidence: [0] 127.0.0.1" },
            "the step's evidence in Detail")
        // The pane scrolls to the field the step read, marked.
        XCTAssertTrue(screen.contains("▸ subjectAltName"), "the step's evidence in Detail:\n\(screen)")
        s.press(.left)
        XCTAssertFalse(s.state.verdictRevealed, "back before the decisive step hides it again")
        s.press(.right, .escape)
        XCTAssertNil(s.state.walk)
        XCTAssertTrue(s.state.verdictRevealed)
    }

    func testATrustedChainIsRevealedOnlyAtTheLastStep() throws {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("w"))
        let count = try XCTUnwrap(s.state.evaluation?.steps.count)
        while s.state.walk! < count {
            XCTAssertFalse(s.state.verdictRevealed)
            s.press(.char(" "))
        }
        XCTAssertTrue(s.state.verdictRevealed)
        s.press(.char(" "))
        XCTAssertEqual(s.state.walk, count, "the last step stays")
    }

    func testPredictModeAsksBeforeShowingAChangedVerdict() {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        s.press(.char("W"))
        XCTAssertTrue(s.state.predict)
        s.press(.char("p"))
        XCTAssertTrue(s.state.verdictHidden, "SSL(nil) trusts wrong-host: the room votes first")
        let screen = ExplorerView.lines(s.state, width: 120, height: 40).joined(separator: "\n")
        XCTAssertTrue(screen.contains("Trusted or not?"), screen)
        XCTAssertFalse(screen.contains("errSecSuccess"), screen)
        s.press(.char(" "))
        XCTAssertFalse(s.state.verdictHidden)
        s.press(.char("A"))
        XCTAssertFalse(s.state.verdictHidden, "a change that keeps the verdict asks nothing")
    }

    func testTheHelpListsTheFocusedPanesKeysFirstAndScrollsToTheEnd() {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("2"), .char("?"))
        let entries = HelpContent.entries(Keymap.standard, s.state)
        guard case .heading(let first) = entries.first else { return XCTFail("no heading first") }
        XCTAssertEqual(first, "In the Chain pane")
        guard case .binding(let b, _)? = entries.dropFirst().first else { return XCTFail("no binding") }
        XCTAssertTrue(b.panes.contains(.chain))
        for _ in 0..<200 { s.press(.char("j")) }
        let screen = ExplorerView.lines(s.state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(screen.contains("changed by the last change"), "the end of the help:\n\(screen)")
        XCTAssertTrue(screen.contains("Walk-through: end it"), screen)
    }

    func testAnUnknownKeySaysSo() {
        let s = Session(scenarios: ["good"])
        s.send(.unknownKey("Z"))
        XCTAssertEqual(s.state.message, "Z: no key here; ? lists the keys")
        s.press(.char("j"))
        XCTAssertNil(s.state.message, "for a moment: the next key clears it")
    }

    /// Every layout keeps the code and the words that explain it.
    func testEveryLayoutShowsTheReasonAndTheCode() throws {
        let s = Session(scenarios: Self.scenarios)
        let sizes = [(200, 60), (120, 40), (100, 30), (80, 24), (60, 16)]
        for name in ["wrong-host", "rogue-ca", "missing-intermediate-aia"] {
            s.select(name)
            let e = try XCTUnwrap(s.state.evaluation)
            for (w, h) in sizes {
                let lines = ExplorerView.lines(s.state, width: w, height: h)
                let verdict = lines[h - 4]
                if e.verdict.trusted {
                    XCTAssertTrue(verdict.contains("errSecSuccess (0)"), "\(name) \(w)x\(h): \(verdict)")
                } else {
                    let reason = try XCTUnwrap(e.verdict.decisiveStep?.title)
                    XCTAssertTrue(verdict.contains("\(e.verdict.osstatus)"), "\(name) \(w)x\(h): \(verdict)")
                    if w <= 100 && w >= 80 {
                        XCTAssertTrue(verdict.contains(reason), "\(name) \(w)x\(h): \(verdict)")
                    }
                }
                XCTAssertTrue(lines.allSatisfy { displayWidthOf($0) <= w })
            }
        }
        // The lab's names are never cut where the targets pane is drawn.
        let wide = ExplorerView.lines(s.state, width: 200, height: 60).joined(separator: "\n")
        XCTAssertTrue(wide.contains("missing-intermediate-aia"), wide)
    }

    /// The help scrolled to its end, a walk-through at its decisive step and an open prompt, at
    /// every size: the verdict's code (and, from 80 columns, its reason) stay on screen.
    func testOverlaysWalkThroughsAndPromptsKeepTheCodeAtEverySize() throws {
        let sizes = [(200, 60), (120, 40), (100, 30), (80, 24), (60, 16)]
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        let reason = try XCTUnwrap(s.state.evaluation?.verdict.decisiveStep?.title)
        /// Checks every size's screen for the code and reason, then with `also` (one drawing each).
        func check(_ what: String, also: (_ lines: [String], _ w: Int, _ h: Int) -> Void = { _, _, _ in }) {
            for (w, h) in sizes {
                let lines = ExplorerView.lines(s.state, width: w, height: h)
                XCTAssertTrue(lines[h - 4].contains("-67602"), "\(what) \(w)x\(h): \(lines[h - 4])")
                if w >= 80 && w <= 100 {
                    XCTAssertTrue(lines[h - 4].contains(reason), "\(what) \(w)x\(h): \(lines[h - 4])")
                }
                also(lines, w, h)
            }
        }
        s.press(.char("?"), .char("G"))
        check("help") { lines, w, h in
            let screen = lines.joined(separator: "\n")
            XCTAssertTrue(screen.contains("changed by the last change"), "help end at \(w)x\(h):\n\(screen)")
        }
        s.press(.char("p"))  // closes the help
        s.press(.char("w"))
        while s.state.walkStep?.id != .hostname { s.press(.char(" ")) }
        check("walk-through")
        s.press(.escape)
        s.press(.char("t"))
        s.type("2040-01-01")
        check("prompt") { lines, w, h in
            XCTAssertTrue(lines[h - 1].hasPrefix("Evaluate at: 2040-01-01"), "\(w)x\(h): \(lines[h - 1])")
        }
        s.press(.escape)
    }

    func testAClickFocusesAPaneAndSelectsTheRowUnderIt() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        /// One frame: its text and its layout, as `lines` and `layout` give them, drawn once.
        func drawn(_ w: Int, _ h: Int) -> (lines: [String], layout: FrameLayout) {
            var buffer = Buffer(width: w, height: h)
            let layout = ExplorerView.render(s.state, into: &buffer, area: buffer.area, options: ViewOptions())
            return (buffer.lines(), layout)
        }
        for (w, h) in [(200, 60), (120, 40), (80, 24)] {
            let (lines, layout) = drawn(w, h)
            let y = try XCTUnwrap(lines.firstIndex { $0.contains("✗ hostname") }, "\(w)x\(h)")
            let x = try XCTUnwrap(lines[y].range(of: "✗ hostname")).lowerBound.utf16Offset(in: lines[y])
            let target = try XCTUnwrap(layout.hitTest(x: x, y: y))
            XCTAssertEqual(target.pane, .steps)
            s.send(.click(target))
            XCTAssertEqual(s.state.focus, .steps)
            XCTAssertEqual(s.state.selectedStepValue?.id, .hostname, "\(w)x\(h)")
            s.press(.char("g"))
        }
        // A click on a scenario selects it; the wheel over the steps moves three rows.
        let (lines, layout) = drawn(120, 40)
        let y = try XCTUnwrap(lines.firstIndex { $0.contains("rogue-ca") })
        let target = try XCTUnwrap(layout.hitTest(x: 6, y: y))
        s.send(.click(target))
        XCTAssertEqual(s.state.target?.name, "rogue-ca")
        XCTAssertEqual(s.state.focus, .targets)
        s.send(.wheel(PointerTarget(pane: .steps, row: nil), 3))
        XCTAssertEqual(s.state.focus, .steps)
        XCTAssertEqual(s.state.selectedStep, 3)
        XCTAssertNil(
            ExplorerView.layout(s.state, width: 120, height: 40).hitTest(x: 5, y: 38), "the bottom bar is no pane")
    }

    func testAPinIsNeverSplitAndHexBreaksBetweenBytes() throws {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("2"), .enter)
        let leaf = try XCTUnwrap(s.state.selectedChainRow?.certificate)
        let pin = "sha256//" + leaf.spkiPin
        for (w, h) in [(200, 60), (100, 30), (80, 24)] {
            let lines = ExplorerView.lines(s.state, width: w, height: h)
            // The pin is further down than the first screen: scroll to it.
            var screen = lines
            var scrolled = 0
            while !screen.contains(where: { $0.contains("SPKI pin") }) && scrolled < 60 {
                s.press(.char("j"))
                scrolled += 1
                screen = ExplorerView.lines(s.state, width: w, height: h)
            }
            let text = ExplorerView.lines(s.state, width: w, height: h + 20)
            let whole = w >= 100 ? pin : leaf.spkiPin
            XCTAssertTrue(text.contains { $0.contains(whole) } || screen.contains { $0.contains(whole) }, "\(w)x\(h)")
            for line in screen {
                // A hex value broken across lines ends a line with a whole byte and its colon.
                if let r = line.range(of: #"([0-9a-f]{2}:)+[0-9a-f]?│?$"#, options: .regularExpression) {
                    XCTAssertFalse(
                        line[r].hasSuffix(":0")
                            || line[r].range(of: #":[0-9a-f]│?$"#, options: .regularExpression) != nil, line)
                }
            }
            s.press(.char("g"))
        }
    }

    /// A list scrolls only when the selection leaves its visible rows: moving back up from the
    /// bottom of a scrolled list moves the selection, not the list (the frame's offsets are
    /// handed back, as the driver does after each frame).
    func testListsKeepTheirScrollPositionBetweenFrames() {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("3"))
        func frame() { s.send(.frameLaid(ExplorerView.layout(s.state, width: 80, height: 24))) }
        frame()
        XCTAssertEqual(s.state.listOffsets[.steps], 0)
        for _ in 0..<24 {
            s.press(.char("j"))
            frame()
        }
        let scrolled = s.state.listOffsets[.steps] ?? 0
        XCTAssertGreaterThan(scrolled, 0, "the selection went below the visible rows")
        s.press(.char("k"))
        frame()
        XCTAssertEqual(s.state.listOffsets[.steps], scrolled, "one row up stays inside the view: no jump")
        s.press(.char("g"))
        frame()
        XCTAssertLessThanOrEqual(s.state.listOffsets[.steps] ?? 0, 1, "the first step (below its heading) in view")
    }

    func testEscCancelsAnEvaluationInProgressAndKeepsTheVerdict() {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        s.pressHolding(.char("p"))
        XCTAssertTrue(s.state.isBusy)
        s.press(.escape)
        XCTAssertFalse(s.state.isBusy)
        XCTAssertTrue(s.state.message?.hasPrefix("cancelled") == true, s.state.message ?? "")
        s.release()
        XCTAssertEqual(s.verdict?.osstatus, -67602, "the cancelled answer is ignored")
        XCTAssertNil(s.state.change)
    }

    func testTheLayoutFollowsTheSize() {
        XCTAssertEqual(ExplorerView.Layout(width: 200, height: 60), .fourPanes)
        XCTAssertEqual(ExplorerView.Layout(width: 120, height: 40), .twoPanes)
        XCTAssertEqual(ExplorerView.Layout(width: 80, height: 24), .twoPanes)
        XCTAssertEqual(ExplorerView.Layout(width: 60, height: 16), .onePane)
        let s = Session(scenarios: ["good"])
        let small = ExplorerView.lines(s.state, width: 60, height: 16)
        XCTAssertTrue(small[0].contains("1 Scenarios") && small[0].contains("3 Steps"), small[0])
        let tiny = ExplorerView.lines(s.state, width: 40, height: 10).joined(separator: "\n")
        XCTAssertTrue(tiny.contains("too small"), tiny)
    }

    func testSearchFindsRowsInTheFocusedPaneAndNGoesBack() {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        s.press(.char("3"))
        s.prompt("/", "HOSTNAME")
        XCTAssertEqual(s.state.selectedStepValue?.id, .hostname, "case-insensitive")
        s.press(.char("1"))
        s.press(.char("n"))
        XCTAssertEqual(s.state.target?.name, "wrong-host", "the only target matching: it stays")
        s.prompt("/", "missing")
        XCTAssertEqual(s.state.target?.name, "missing-intermediate-aia")
        s.press(.char("N"))
        XCTAssertNil(s.state.prompt, "N is the previous match while a search is active")
        s.press(.escape)
        XCTAssertNil(s.state.search)
        s.press(.char("N"))
        XCTAssertEqual(s.state.prompt?.kind, .pin, "and types a pin again once it is cleared")
        s.press(.escape)
    }

    func testTheDetailScrollsToItsLastWrappedLine() {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("2"), .char("4"))
        s.send(.frameLaid(FrameLayout(detail: Viewport(lines: 100, height: 20))))
        s.press(.char("G"))
        XCTAssertEqual(s.state.detailScroll, 80, "End shows the last line at the bottom")
        s.press(.char("k"))
        XCTAssertEqual(s.state.detailScroll, 79, "and k moves at once")
        s.send(.frameLaid(FrameLayout(detail: Viewport(lines: 50, height: 20))))
        XCTAssertEqual(s.state.detailScroll, 30, "a wider pane wraps less: clamped")
    }

    /// A lesson's variations are listed under "Try" as their `check` options, with the lab's
    /// file and key names standing for its paths and pins (docs/explorer.md).
    func testALessonsVariationsAreListedAsTheirCheckOptions() {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("1"))
        let expected = [
            "good": ["--pin good-leaf", "no --anchor"],
            "wrong-host": ["--policy basic", "--policy ssl-no-host"],
            "rogue-ca": ["--anchor rogue-ca.pem", "--anchor rogue-ca.pem --pin good-leaf"],
            "missing-intermediate-aia": ["--no-aia"],
        ]
        for (name, labels) in expected {
            s.select(name)
            let lines = DetailContent.lines(s.state)
            let tried = lines.drop { $0.text != "Try" }.dropFirst().prefix { line in
                if case .field = line.kind { return true }
                return false
            }
            let shown = tried.map { line -> String in
                if case .field(let label) = line.kind { return label }
                return ""
            }
            XCTAssertEqual(shown, labels, name)
        }
    }

    private func displayWidthOf(_ s: String) -> Int { s.count }
}
