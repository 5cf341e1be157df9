import Explorer
import ExplorerState
import TermUI
import XCTest

/// The driver between the terminal and `reduce`: the mouse is resolved against the layout the
/// last frame returned, not a layout made again at click time, so a click lands on what the user
/// saw whatever changed since; and what the terminal answers reaches the state as an action.
final class ExplorerDriverTests: XCTestCase {
    func testAClickSelectsTheStepItsRowShowedInTheLastFrameAfterTheListScrolled() throws {
        let s = Session(scenarios: ClassroomTests.scenarios)
        s.select("wrong-host")
        s.press(.char("3"))
        let driver = ExplorerDriver((s.state, []))
        defer { driver.executor.shutdown() }
        let pointer = Symbols.unicode.pointer
        func frame() -> [String] {
            var buffer = Buffer(width: 80, height: 24)
            driver.frameLaid(
                ExplorerView.render(driver.state, into: &buffer, area: buffer.area, options: ViewOptions()))
            return buffer.lines()
        }
        _ = frame()
        for _ in 0..<20 {
            driver.press(.char("j"))
            _ = frame()
        }
        let seen = frame()
        XCTAssertGreaterThan(driver.state.listOffsets[.steps] ?? 0, 0, "the selection went below the visible rows")
        let steps = try XCTUnwrap(driver.layout?.panes.first { $0.pane == .steps })
        // A step row the frame showed, not the selected one: a status mark where the text starts.
        let marks = [Symbols.unicode.check, Symbols.unicode.cross, Symbols.unicode.bullet, Symbols.unicode.dash]
        let y = try XCTUnwrap(
            (steps.inner.y..<steps.inner.bottom).first { y in
                let row = Array(seen[y]).dropFirst(steps.inner.x).map(String.init)
                return row.count > 3 && row[0] == " " && marks.contains(row[2])
            }, seen.joined(separator: "\n"))
        let shown = String(Array(seen[y]).dropFirst(steps.inner.x))

        // The selection moves to the top before the click, with no frame between: laying the
        // list out again now would scroll it back and put another step under the pointer.
        driver.press(.char("g"))
        XCTAssertEqual(driver.state.selectedStep, 0)
        XCTAssertTrue(driver.mouse(MouseEvent(.click, x: steps.inner.x + 4, y: y)))

        let id = try XCTUnwrap(driver.state.selectedStepValue?.id.rawValue)
        XCTAssertTrue(shown.contains(String(id.prefix(7))), "\(id) was not on the clicked row: \(shown)")
        // The next frame shows the clicked step selected on the row that was clicked.
        let after = frame()
        let row = String(Array(after[y]).dropFirst(steps.inner.x))
        XCTAssertTrue(row.hasPrefix(pointer), row)
        XCTAssertEqual(row.dropFirst(pointer.count), shown.dropFirst(pointer.count))
    }

    func testAClickOutsideEveryPaneOfTheLastFrameDoesNothing() {
        let s = Session(scenarios: ClassroomTests.scenarios)
        let driver = ExplorerDriver((s.state, []))
        defer { driver.executor.shutdown() }
        XCTAssertFalse(driver.mouse(MouseEvent(.click, x: 5, y: 5)), "no frame drawn yet: nothing to click")
        var buffer = Buffer(width: 120, height: 40)
        driver.frameLaid(ExplorerView.render(driver.state, into: &buffer, area: buffer.area, options: ViewOptions()))
        let before = driver.state.focus
        // The bottom four lines are the verdict, the settings, the change line and the keys.
        XCTAssertFalse(driver.mouse(MouseEvent(.click, x: 5, y: 38)))
        XCTAssertEqual(driver.state.focus, before)
    }

    func testACopyTheTerminalRefusesIsKeptAndSaidInTheStatusLine() {
        let s = Session(scenarios: ClassroomTests.scenarios)
        let driver = ExplorerDriver((s.state, []))
        defer { driver.executor.shutdown() }
        var offered: [String] = []
        driver.clipboard = { text in
            offered.append(text)
            return false
        }
        driver.press(.char("y"))
        XCTAssertEqual(offered.count, 1)
        XCTAssertEqual(driver.copied, offered)
        XCTAssertEqual(driver.state.message, "the terminal did not take the copy; the command is shown above")
        XCTAssertTrue(
            ExplorerView.lines(driver.state, width: 120, height: 40).contains { $0.contains("did not take the copy") })
    }
}
