import TermUI
import XCTest

/// Writing into a buffer: clipping, wide characters, combining marks, control characters, diffs.
final class BufferTests: XCTestCase {
    func testASCIIIsWrittenAndClippedToTheWidth() {
        var buffer = Buffer(width: 8, height: 2)
        XCTAssertEqual(buffer.set(x: 1, y: 0, string: "hello world"), 7)
        XCTAssertEqual(buffer.set(x: 0, y: 1, string: "abcdef", maxWidth: 3), 3)
        XCTAssertEqual(buffer.lines(), [" hello w", "abc"])
    }

    func testWritesOutsideTheBufferAreIgnored() {
        var buffer = Buffer(width: 4, height: 1)
        XCTAssertEqual(buffer.set(x: 0, y: 1, string: "x"), 0)
        XCTAssertEqual(buffer.set(x: 0, y: -1, string: "x"), 0)
        XCTAssertEqual(buffer.set(x: 4, y: 0, string: "x"), 0)
        XCTAssertEqual(buffer.set(x: 0, y: 0, string: "x", maxWidth: 0), 0)
        buffer.set(x: -2, y: 0, string: "abcd")
        XCTAssertEqual(buffer.lines(), ["cd"])
    }

    func testDisplayWidths() {
        XCTAssertEqual(displayWidth(of: Character("a")), 1)
        XCTAssertEqual(displayWidth(of: Character("中")), 2)
        XCTAssertEqual(displayWidth(of: Character("한")), 2)
        XCTAssertEqual(displayWidth(of: Character("😀")), 2)
        XCTAssertEqual(displayWidth(of: Character("Ａ")), 2)
        XCTAssertEqual(displayWidth(of: Character("✓")), 1)
        XCTAssertEqual(displayWidth(of: Character("é")), 1)
        XCTAssertEqual(displayWidth(of: Character("e\u{301}")), 1)
        XCTAssertEqual(displayWidth(of: Character("\u{301}")), 0)
        XCTAssertEqual(displayWidth(of: "Zürich 東京"), 11)
    }

    func testWideCharactersTakeTwoCellsTheSecondAContinuation() {
        var buffer = Buffer(width: 6, height: 1)
        XCTAssertEqual(buffer.set(x: 0, y: 0, string: "中文x"), 5)
        XCTAssertEqual(buffer.lines(), ["中文x"])
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.symbol, "中")
        XCTAssertEqual(buffer.cell(x: 1, y: 0)?.isContinuation, true)
        XCTAssertEqual(buffer.cell(x: 2, y: 0)?.symbol, "文")
        XCTAssertEqual(buffer.cell(x: 4, y: 0)?.symbol, "x")
    }

    func testAWideCharacterThatDoesNotFitWholeIsNotWritten() {
        var buffer = Buffer(width: 4, height: 2)
        XCTAssertEqual(buffer.set(x: 0, y: 0, string: "a中文"), 3)
        XCTAssertEqual(buffer.set(x: 0, y: 1, string: "中文", maxWidth: 3), 2)
        XCTAssertEqual(buffer.lines(), ["a中", "中"])
        XCTAssertEqual(buffer.cell(x: 3, y: 0), .blank)
    }

    func testOverwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = Buffer(width: 6, height: 2)
        buffer.set(x: 0, y: 0, string: "中文")
        buffer.set(x: 1, y: 0, string: "x")  // over the continuation of 中
        buffer.set(x: 2, y: 0, string: "y")  // over the first half of 文
        XCTAssertEqual(buffer.lines()[0], " xy")
        buffer.set(x: 0, y: 1, string: "ab中")
        buffer.set(x: 1, y: 1, string: "中")  // a wide character over b and the first half of 中
        XCTAssertEqual(buffer.lines()[1], "a中")
        XCTAssertEqual(buffer.cell(x: 3, y: 1)?.symbol, " ")
    }

    func testCombiningMarksStayWithTheirBaseCharacter() {
        var buffer = Buffer(width: 5, height: 1)
        let text = "e\u{301}te\u{301}"  // "été", decomposed
        XCTAssertEqual(buffer.set(x: 0, y: 0, string: text), 3)
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.symbol, "e\u{301}")
        XCTAssertEqual(buffer.cell(x: 2, y: 0)?.symbol, "e\u{301}")
        XCTAssertEqual(buffer.lines(), [text])
    }

    func testAStrayCombiningMarkOccupiesNoCell() {
        var buffer = Buffer(width: 3, height: 1)
        XCTAssertEqual(buffer.set(x: 0, y: 0, string: "\u{301}ab"), 2)
        XCTAssertEqual(buffer.lines(), ["ab"])
    }

    func testControlAndFormatCharactersNeverReachTheBuffer() {
        let hostile = [
            "a\u{1B}[31mb",  // ESC: a colour change
            "\u{1B}]52;c;aGk=\u{07}",  // OSC 52 clipboard write, BEL-terminated
            "x\ny\rz\t",  // C0
            "\u{7F}\u{85}\u{9B}31m",  // DEL, NEL, CSI (C1)
            "\u{202E}gnp.exe",  // right-to-left override
            "\u{2066}a\u{2069}\u{200E}\u{200F}\u{061C}",  // isolates and marks
            "\u{2028}\u{2029}\u{FEFF}\u{AD}",  // separators, BOM, soft hyphen
        ]
        for text in hostile {
            var buffer = Buffer(width: 40, height: 1)
            buffer.set(x: 0, y: 0, string: text)
            for cell in buffer.cells {
                for scalar in cell.symbol.unicodeScalars {
                    XCTAssertTrue(scalar.value >= 0x20 && scalar.value != 0x7F, "\(text.debugDescription)")
                    XCTAssertFalse(scalar.value >= 0x80 && scalar.value < 0xA0, "\(text.debugDescription)")
                    XCTAssertNotEqual(scalar.properties.generalCategory, .format, "\(text.debugDescription)")
                }
            }
        }
        var buffer = Buffer(width: 12, height: 1)
        buffer.set(x: 0, y: 0, string: "a\u{1B}[31mb\u{202E}c")
        XCTAssertEqual(buffer.lines(), ["a\u{FFFD}[31mb\u{FFFD}c"])
    }

    func testEmojiJoinersAreKept() {
        var buffer = Buffer(width: 4, height: 1)
        let family = "👨\u{200D}👩\u{200D}👧"
        XCTAssertEqual(buffer.set(x: 0, y: 0, string: family), 2)
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.symbol, family)
    }

    func testSetStyleLaysAStyleOverARectangle() {
        var buffer = Buffer(width: 4, height: 2)
        buffer.set(x: 0, y: 0, string: "ab", style: Style(foreground: .red))
        buffer.setStyle(Rect(x: 1, y: 0, width: 10, height: 1), Style(modifiers: .bold))
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.style, Style(foreground: .red))
        XCTAssertEqual(buffer.cell(x: 1, y: 0)?.style, Style(foreground: .red, modifiers: .bold))
        XCTAssertEqual(buffer.cell(x: 3, y: 0)?.style, Style(modifiers: .bold))
        XCTAssertEqual(buffer.cell(x: 3, y: 1)?.style, .plain)
    }

    func testFillCoversARectangleClippedToTheBuffer() {
        var buffer = Buffer(width: 4, height: 3)
        buffer.set(x: 0, y: 1, string: "中文")
        buffer.fill(Rect(x: 1, y: 1, width: 9, height: 9), with: Cell(symbol: "."))
        XCTAssertEqual(buffer.lines(), ["", " ...", " ..."])
        buffer.fill(Rect(x: 0, y: 0, width: 1, height: 1), with: Cell(symbol: "\u{1B}"))
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.symbol, "\u{FFFD}")
    }

    func testDiffListsOnlyTheChangedCells() {
        var before = Buffer(width: 10, height: 3)
        before.set(x: 0, y: 0, string: "hello")
        var after = before
        XCTAssertEqual(after.diff(from: before), [])
        after.set(x: 1, y: 0, string: "a")
        after.set(x: 9, y: 2, string: "z", style: Style(modifiers: .bold))
        XCTAssertEqual(
            after.diff(from: before),
            [
                CellUpdate(x: 1, y: 0, cell: Cell(symbol: "a")),
                CellUpdate(x: 9, y: 2, cell: Cell(symbol: "z", style: Style(modifiers: .bold))),
            ])
        var restyled = before
        restyled.setStyle(Rect(x: 0, y: 0, width: 1, height: 1), Style(foreground: .green))
        XCTAssertEqual(restyled.diff(from: before).map(\.x), [0])
    }

    func testDiffNeverListsContinuationCells() {
        var before = Buffer(width: 6, height: 1)
        before.set(x: 0, y: 0, string: "abcd")
        var after = before
        after.set(x: 0, y: 0, string: "中")
        XCTAssertEqual(after.diff(from: before), [CellUpdate(x: 0, y: 0, cell: Cell(symbol: "中"))])
        // Back to narrow characters: both columns are drawn again.
        XCTAssertEqual(before.diff(from: after).map(\.x), [0, 1])
    }

    func testDiffAgainstAnotherAreaListsEveryCell() {
        let small = Buffer(width: 2, height: 2)
        let large = Buffer(width: 3, height: 2)
        XCTAssertEqual(large.diff(from: small).count, 6)
    }
}

/// Styles as text, and no marks on blank cells: a span's underline and reverse stay on its words.
final class BufferStyleTests: XCTestCase {
    let u = Style(modifiers: .underline)
    let r = Style(foreground: .red, modifiers: .reverse)
    let bar = Style(modifiers: .reverse)

    func testStyleLinesGiveOneCharacterPerCellAlignedWithTheText() {
        var buffer = Buffer(width: 10, height: 2)
        buffer.set(x: 0, y: 0, string: "中x", style: u)
        buffer.set(x: 4, y: 0, string: "ok", style: Style(modifiers: .bold))
        buffer.set(x: 1, y: 1, string: "plain")
        XCTAssertEqual(buffer.lines(), ["中x ok", " plain"])
        XCTAssertEqual(buffer.styleLines([u: "u"]), ["uu.??", ""])
        XCTAssertEqual(buffer.styleLines([u: "u", .plain: " "]), ["uu ??    ", "          "])
    }

    func testASpansUnderlineAndReverseLeaveItsPaddingButNotTheSpacesBetweenItsWords() {
        var buffer = Buffer(width: 20, height: 1)
        buffer.set(
            x: 0, y: 0, line: Line([Span("   ", style: u), Span(" Not trusted ", style: r), Span("x", style: u)]))
        XCTAssertEqual(buffer.lines(), ["    Not trusted x"])
        // The padding keeps the span's colour (invisible on a blank) but not its marks.
        XCTAssertEqual(
            buffer.styleLines([u: "u", r: "r", Style(foreground: .red): "c"]), ["...crrrrrrrrrrrcu"])
    }

    func testTheBaseStyleStillCoversPadding() {
        var buffer = Buffer(width: 8, height: 1)
        buffer.set(x: 0, y: 0, line: Line([Span(" a ", style: u)]), baseStyle: bar)
        XCTAssertEqual(buffer.styleLines([bar: "b", bar.patched(with: u): "B"]), ["bBb"])
    }

    func testAnOrphanedHalfOfAWideCharacterLosesItsMarks() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.set(x: 0, y: 0, string: "中", style: u)
        buffer.set(x: 1, y: 0, string: "x")
        XCTAssertEqual(buffer.lines(), [" x"])
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.style.modifiers.contains(.underline), false)
    }

    func testABlankCellsOldMarksAreErasedOnScreen() {
        let terminal = Terminal(backend: TestBackend(width: 6, height: 1))
        terminal.draw { $0.set(x: 0, y: 0, string: "a   b", style: u) }
        terminal.draw { $0.set(x: 0, y: 0, string: "a   b") }
        XCTAssertEqual(terminal.backend.buffer.styleLines([u: "u"]), [""])
    }
}
