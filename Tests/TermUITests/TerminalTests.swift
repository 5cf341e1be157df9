import TermUI
import XCTest

/// The frame loop: the first frame clears and draws, later frames draw only changes, a resize redraws.
final class TerminalTests: XCTestCase {
    func screen(selected: Int) -> (inout Buffer) -> Void {
        { buffer in
            let parts = buffer.area.split(vertical: [.fill, .length(1)])
            ListView(["leaf", "intermediate", "root"], selected: selected, block: Block(title: "Chain"))
                .render(into: &buffer, area: parts[0])
            KeyHints([(key: "q", action: "quit"), (key: "↑↓", action: "move")]).render(into: &buffer, area: parts[1])
        }
    }

    func testTheFirstFrameDrawsEverythingAndAnIdenticalFrameNothing() {
        let terminal = Terminal(backend: TestBackend(width: 16, height: 6))
        let drawn = terminal.draw(screen(selected: 0))
        XCTAssertEqual(terminal.backend.clearCount, 1)
        XCTAssertEqual(
            terminal.backend.lines(),
            [
                "┌Chain─────────┐",
                "│▶ leaf        │",
                "│  intermediate│",
                "│  root        │",
                "└──────────────┘",
                "q quit  ↑↓ move",
            ])
        XCTAssertGreaterThan(drawn, 0)
        XCTAssertEqual(terminal.draw(screen(selected: 0)), 0)
        XCTAssertEqual(terminal.backend.lastDrawCount, 0)
        XCTAssertEqual(terminal.backend.clearCount, 1)
        XCTAssertEqual(terminal.backend.flushCount, 2)
    }

    func testMovingTheSelectionDrawsOnlyTheTwoRowsThatChanged() {
        let terminal = Terminal(backend: TestBackend(width: 16, height: 6))
        terminal.draw(screen(selected: 0))
        let drawn = terminal.draw(screen(selected: 1))
        // The marker and highlight leave row 1 and come to row 2: at most the 14 inner cells of each.
        XCTAssertGreaterThan(drawn, 2)
        XCTAssertLessThanOrEqual(drawn, 28)
        XCTAssertEqual(terminal.backend.lines()[1...2], ["│  leaf        │", "│▶ intermediate│"])
        XCTAssertEqual(terminal.backend.buffer.cell(x: 5, y: 2)?.style, Style(modifiers: .reverse))
        XCTAssertEqual(terminal.backend.buffer.cell(x: 5, y: 1)?.style, .plain)
    }

    func testAResizeClearsTheScreenAndRedrawsTheWholeFrame() {
        let terminal = Terminal(backend: TestBackend(width: 16, height: 6))
        terminal.draw(screen(selected: 0))
        terminal.backend.resize(width: 10, height: 3)
        terminal.draw(screen(selected: 0))
        XCTAssertEqual(terminal.backend.clearCount, 2)
        XCTAssertEqual(terminal.backend.lines(), ["┌Chain───┐", "└────────┘", "q quit"])
        terminal.backend.resize(width: 16, height: 6)
        terminal.draw(screen(selected: 2))
        XCTAssertEqual(terminal.backend.clearCount, 3)
        XCTAssertEqual(terminal.backend.lines()[3], "│▶ root        │")
    }

    func testInvalidateForcesAFullRedraw() {
        let terminal = Terminal(backend: TestBackend(width: 16, height: 6))
        let first = terminal.draw(screen(selected: 0))
        terminal.invalidate()
        XCTAssertEqual(terminal.draw(screen(selected: 0)), first)
        XCTAssertEqual(terminal.backend.clearCount, 2)
    }

    func testTheScreenMatchesTheFrameAfterManyChanges() {
        // Whatever the sequence of frames, drawing only the differences leaves the screen equal to the frame.
        let terminal = Terminal(backend: TestBackend(width: 12, height: 4))
        let texts = ["abc", "中文字", "a中b", "", "é\u{301}x", "😀😀😀😀😀😀😀", "tail 中", "  中"]
        for (i, a) in texts.enumerated() {
            for b in texts.shuffled().prefix(3) {
                var expected = Buffer(width: 12, height: 4)
                let frame: (inout Buffer) -> Void = { buffer in
                    buffer.set(x: i % 3, y: 0, string: a)
                    buffer.set(x: 1, y: 1, string: b, style: Style(foreground: .indexed(UInt8(i))))
                    buffer.set(x: 0, y: 2, string: a + b)
                }
                frame(&expected)
                terminal.draw(frame)
                XCTAssertEqual(terminal.backend.buffer, expected, "\(a) / \(b)")
            }
        }
    }

    func testTinyTerminalsRenderWhatFits() {
        for (width, height) in [(10, 3), (1, 1), (0, 0), (3, 1), (2, 5)] {
            let terminal = Terminal(backend: TestBackend(width: width, height: height))
            terminal.draw { buffer in
                let parts = buffer.area.split(vertical: [.length(1), .fill, .length(1)])
                let columns = parts[1].split(horizontal: [.percentage(40), .fill])
                Paragraph(["trustx explorer"], style: Style(modifiers: .bold)).render(into: &buffer, area: parts[0])
                ListView(["a", "b", "c"], selected: 2, block: Block(title: "Chain")).render(
                    into: &buffer, area: columns[0])
                TableView(
                    columns: [Column("Step", .length(8)), Column("", .fill)], rows: [["chain", "✓"]], selected: 0,
                    block: Block(title: "Steps", isFocused: true)
                ).render(into: &buffer, area: columns[1])
                KeyHints([(key: "q", action: "quit")]).render(into: &buffer, area: parts[2])
            }
            XCTAssertEqual(terminal.backend.lines().count, height)
            for line in terminal.backend.lines() { XCTAssertLessThanOrEqual(displayWidth(of: line), width) }
        }
        let terminal = Terminal(backend: TestBackend(width: 10, height: 3))
        terminal.draw { buffer in
            Block(title: "Chain").render(into: &buffer, area: buffer.area)
            Paragraph(["a long text"]).render(into: &buffer, area: Block().inner(buffer.area))
        }
        XCTAssertEqual(terminal.backend.lines(), ["┌Chain───┐", "│a long  │", "└────────┘"])
    }
}
