import Explorer
import TermUI
import TrustCore
import XCTest

/// Every built-in theme on a real screen: underline and reverse mark text, never bare blank
/// cells (a padded column, the placeholder of the change mark), which would show as stray lines
/// and blocks; and under `mono` nothing is coloured.
final class ThemeScreenTests: XCTestCase {
    /// A screen with a failed decisive step, a selection, and a change mark after a toggle.
    func session() -> Session {
        let s = Session(scenarios: ["good", "wrong-host"])
        s.select("wrong-host")
        s.press(.char("p"))
        s.press(.tab, .tab)
        return s
    }

    /// Describes each stray mark: a run of underlined cells that begins or ends with a blank, or
    /// a run of reversed cells with no text in it.
    static func strayMarks(_ buffer: Buffer) -> [String] {
        var found: [String] = []
        for y in buffer.area.y..<buffer.area.bottom {
            for (mark, name) in [(Modifiers.underline, "underline"), (.reverse, "reverse")] {
                var x = buffer.area.x
                while x < buffer.area.right {
                    guard buffer.cell(x: x, y: y)!.style.modifiers.contains(mark) else {
                        x += 1
                        continue
                    }
                    var cells: [Cell] = []
                    let start = x
                    while x < buffer.area.right, let c = buffer.cell(x: x, y: y), c.style.modifiers.contains(mark) {
                        if !c.isContinuation { cells.append(c) }
                        x += 1
                    }
                    let blank = cells.map { $0.symbol == " " }
                    let stray =
                        mark == .underline ? blank.first! || blank.last! : blank.allSatisfy { $0 }
                    if stray { found.append("\(name) on blanks at row \(y), columns \(start)..<\(x)") }
                }
            }
        }
        return found
    }

    func testNoThemeLeavesMarksOnBlankCells() throws {
        let s = session()
        XCTAssertNotNil(s.state.change, "the toggle should leave a change to mark")
        for name in Theme.builtInNames {
            let theme = try XCTUnwrap(Theme.builtIn(name))
            for (width, height) in [(200, 60), (120, 40), (80, 24)] {
                var buffer = Buffer(width: width, height: height)
                ExplorerView.render(s.state, into: &buffer, area: buffer.area, options: ViewOptions(theme: theme))
                XCTAssertEqual(Self.strayMarks(buffer), [], "\(name) at \(width)x\(height)")
            }
        }
    }

    func testTheCheckCanFindAStrayMark() {
        var buffer = Buffer(width: 10, height: 1)
        buffer.set(x: 0, y: 0, string: "ab  ", style: Style(modifiers: .underline))
        buffer.set(x: 6, y: 0, string: "  ", style: Style(modifiers: .reverse))
        XCTAssertEqual(
            Self.strayMarks(buffer),
            ["underline on blanks at row 0, columns 0..<4", "reverse on blanks at row 0, columns 6..<8"])
    }

    func testMonoColoursNothing() throws {
        let s = session()
        var buffer = Buffer(width: 120, height: 40)
        let mono = try XCTUnwrap(Theme.builtIn("mono"))
        ExplorerView.render(s.state, into: &buffer, area: buffer.area, options: ViewOptions(theme: mono))
        for y in 0..<40 {
            for x in 0..<120 {
                let style = buffer.cell(x: x, y: y)!.style
                XCTAssertTrue(style.foreground == nil && style.background == nil, "colour at \(x),\(y)")
            }
        }
    }
}
