import TermUI
import XCTest

/// Each widget in a small area, in a tiny one (clipped, no crash), and in ASCII.
final class WidgetTests: XCTestCase {
    func render(width: Int, height: Int, _ draw: (inout Buffer, Rect) -> Void) -> [String] {
        var buffer = Buffer(width: width, height: height)
        draw(&buffer, buffer.area)
        return buffer.lines()
    }

    // MARK: Block

    func testBlockDrawsBordersAndATitle() {
        let lines = render(width: 13, height: 3) { Block(title: "Chain").render(into: &$0, area: $1) }
        XCTAssertEqual(
            lines,
            [
                "┌Chain──────┐",
                "│           │",
                "└───────────┘",
            ])
        XCTAssertEqual(Block().inner(Rect(x: 0, y: 0, width: 13, height: 3)), Rect(x: 1, y: 1, width: 11, height: 1))
    }

    func testBlockInASCII() {
        let lines = render(width: 8, height: 3) {
            Block(title: "Steps", symbols: .ascii).render(into: &$0, area: $1)
        }
        XCTAssertEqual(lines, ["+Steps-+", "|      |", "+------+"])
    }

    func testALongTitleIsClippedInsideTheCorners() {
        let lines = render(width: 6, height: 2) { Block(title: "Certificate").render(into: &$0, area: $1) }
        XCTAssertEqual(lines, ["┌Cert┐", "└────┘"])
    }

    func testBlockWithSomeBorders() {
        let lines = render(width: 5, height: 3) {
            Block(title: "T", borders: [.top, .bottom]).render(into: &$0, area: $1)
        }
        XCTAssertEqual(lines, ["T────", "", "─────"])
        XCTAssertEqual(
            Block(borders: [.top, .bottom]).inner(Rect(x: 0, y: 0, width: 5, height: 3)),
            Rect(x: 0, y: 1, width: 5, height: 1))
    }

    func testAFocusedBlockUsesTheFocusedStyle() {
        var buffer = Buffer(width: 6, height: 3)
        let focus = Style(foreground: .yellow, modifiers: .bold)
        Block(title: "A", focusedStyle: focus, isFocused: true).render(into: &buffer, area: buffer.area)
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.style, focus)
        XCTAssertEqual(buffer.cell(x: 1, y: 0)?.style, focus)  // the title
        XCTAssertEqual(buffer.cell(x: 2, y: 1)?.style, .plain)
        var unfocused = Buffer(width: 6, height: 3)
        Block(title: "A", focusedStyle: focus).render(into: &unfocused, area: unfocused.area)
        XCTAssertEqual(unfocused.cell(x: 0, y: 0)?.style, .plain)
    }

    func testTinyBlocksDoNotCrash() {
        XCTAssertEqual(render(width: 1, height: 1) { Block(title: "X").render(into: &$0, area: $1) }, ["┌"])
        XCTAssertEqual(render(width: 2, height: 1) { Block(title: "X").render(into: &$0, area: $1) }, ["┌┐"])
        XCTAssertEqual(render(width: 3, height: 1) { Block(title: "X").render(into: &$0, area: $1) }, ["┌X┐"])
        XCTAssertEqual(
            render(width: 3, height: 2) { b, _ in Block().render(into: &b, area: Rect(x: 1, y: 1, width: 9, height: 9))
            }, ["", " ┌─"])
        XCTAssertEqual(render(width: 0, height: 0) { Block().render(into: &$0, area: $1) }, [])
        XCTAssertTrue(Block().inner(Rect(x: 0, y: 0, width: 1, height: 1)).isEmpty)
    }

    // MARK: Paragraph

    func testParagraphWrapsAtWords() {
        let text = Paragraph(["The leaf's SAN does not match the host name."])
        let lines = render(width: 14, height: 5) { text.render(into: &$0, area: $1) }
        XCTAssertEqual(lines, ["The leaf's SAN", "does not match", "the host name.", "", ""])
    }

    func testParagraphBreaksWordsLongerThanTheWidth() {
        let text = Paragraph(["sha256/AAAABBBBCCCCDDDD ok"])
        XCTAssertEqual(
            render(width: 8, height: 4) { text.render(into: &$0, area: $1) },
            ["sha256/A", "AAABBBBC", "CCCDDDD", "ok"])
    }

    func testParagraphKeepsStylesAcrossWrappedLines() {
        let line = Line([Span("ok "), Span("failed step", style: Style(foreground: .red))])
        let wrapped = Paragraph([line]).displayLines(width: 9)
        XCTAssertEqual(wrapped.map(\.plainText), ["ok failed", "step"])
        XCTAssertEqual(wrapped[1].spans, [Span("step", style: Style(foreground: .red))])
        var buffer = Buffer(width: 9, height: 2)
        Paragraph([line]).render(into: &buffer, area: buffer.area)
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.style, .plain)
        XCTAssertEqual(buffer.cell(x: 3, y: 0)?.style, Style(foreground: .red))
        XCTAssertEqual(buffer.cell(x: 0, y: 1)?.style, Style(foreground: .red))
    }

    func testParagraphWithoutWrapClipsAndScrolls() {
        let text = Paragraph(["one two three", "four", "five", "six"], wrap: false, scroll: 1)
        XCTAssertEqual(render(width: 6, height: 2) { text.render(into: &$0, area: $1) }, ["four", "five"])
    }

    func testParagraphInABlockAndKeepingIndentation() {
        let text = Paragraph(["  indented text here"], block: Block(title: "Detail"))
        XCTAssertEqual(
            render(width: 12, height: 5) { text.render(into: &$0, area: $1) },
            [
                "┌Detail────┐",
                "│  indented│",
                "│text here │",
                "│          │",
                "└──────────┘",
            ])
    }

    func testParagraphWithWideCharactersWraps() {
        let text = Paragraph(["東京 大阪 名古屋"])
        XCTAssertEqual(render(width: 6, height: 3) { text.render(into: &$0, area: $1) }, ["東京", "大阪", "名古屋"])
    }

    func testTinyParagraphs() {
        let text = Paragraph(["some words that wrap"], block: Block())
        XCTAssertEqual(render(width: 3, height: 3) { text.render(into: &$0, area: $1) }, ["┌─┐", "│s│", "└─┘"])
        XCTAssertEqual(render(width: 1, height: 1) { Paragraph(["abc"]).render(into: &$0, area: $1) }, ["a"])
        XCTAssertEqual(Paragraph(["abc"]).displayLines(width: 0), [])
        XCTAssertEqual(
            render(width: 4, height: 1) { b, _ in
                Paragraph(["中中"]).render(into: &b, area: Rect(x: 0, y: 0, width: 1, height: 1))
            }, [""])
    }

    // MARK: ListView

    func testListMarksTheSelectedItem() {
        var buffer = Buffer(width: 12, height: 3)
        ListView(["leaf", "intermediate", "root"], selected: 1).render(into: &buffer, area: buffer.area)
        XCTAssertEqual(buffer.lines(), ["  leaf", "▶ intermedia", "  root"])
        XCTAssertEqual(buffer.cell(x: 5, y: 1)?.style, Style(modifiers: .reverse))
        XCTAssertEqual(buffer.cell(x: 11, y: 1)?.style, Style(modifiers: .reverse))
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.style, .plain)
    }

    func testListScrollsToKeepTheSelectionVisible() {
        let items: [Line] = (0..<10).map { Line("item \($0)") }
        var list = ListView(items, selected: 7)
        XCTAssertEqual(list.scrollOffset(height: 3), 5)
        XCTAssertEqual(
            render(width: 10, height: 3) { list.render(into: &$0, area: $1) }, ["  item 5", "  item 6", "▶ item 7"])
        list.offset = 5
        list.selected = 6  // still visible: no jump
        XCTAssertEqual(list.scrollOffset(height: 3), 5)
        list.selected = 2
        XCTAssertEqual(list.scrollOffset(height: 3), 2)
        list.offset = 100
        list.selected = nil
        XCTAssertEqual(list.scrollOffset(height: 3), 7)
    }

    func testListInASCIIWithABlock() {
        let list = ListView(["a", "b"], selected: 0, block: Block(title: "L", symbols: .ascii), symbols: .ascii)
        XCTAssertEqual(
            render(width: 6, height: 4) { list.render(into: &$0, area: $1) }, ["+L---+", "|> a |", "|  b |", "+----+"])
    }

    func testTinyLists() {
        let list = ListView(["alpha", "beta"], selected: 1)
        XCTAssertEqual(render(width: 1, height: 1) { list.render(into: &$0, area: $1) }, ["▶"])
        XCTAssertEqual(render(width: 3, height: 1) { list.render(into: &$0, area: $1) }, ["▶ b"])
        XCTAssertEqual(render(width: 5, height: 2) { ListView([]).render(into: &$0, area: $1) }, ["", ""])
        XCTAssertEqual(
            render(width: 5, height: 1) { ListView(["x"], selected: 9).render(into: &$0, area: $1) }, ["  x"])
    }

    // MARK: TableView

    func testTableWithHeaderAndSelectedRow() {
        let table = TableView(
            columns: [Column("Step", .length(9)), Column("Status", .fill)],
            rows: [["chain", "passed"], ["validity", "failed"], ["hostname", "skipped"]],
            selected: 1)
        XCTAssertEqual(
            render(width: 22, height: 4) { table.render(into: &$0, area: $1) },
            [
                "  Step      Status",
                "  chain     passed",
                "▶ validity  failed",
                "  hostname  skipped",
            ])
        XCTAssertEqual(table.columnLayout(in: Rect(x: 0, y: 0, width: 22, height: 4)).map(\.x), [2, 12])
    }

    func testTableClipsCellsToTheirColumnAndScrolls() {
        let rows: [[Line]] = (0..<6).map { [Line("row\($0)-long"), "x"] }
        let table = TableView(
            columns: [Column("Name", .length(4)), Column("V", .length(1))], rows: rows, selected: 5,
            highlightSymbol: "")
        var buffer = Buffer(width: 6, height: 3)
        table.render(into: &buffer, area: buffer.area)
        XCTAssertEqual(buffer.lines(), ["Name V", "row4 x", "row5 x"])
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.style, Style(modifiers: .bold))
        XCTAssertEqual(buffer.cell(x: 0, y: 2)?.style, Style(modifiers: .reverse))
    }

    func testTinyTables() {
        let table = TableView(
            columns: [Column("A", .length(3)), Column("B", .length(3))], rows: [["1", "2"]], selected: 0,
            block: Block())
        XCTAssertEqual(render(width: 3, height: 3) { table.render(into: &$0, area: $1) }, ["┌─┐", "│ │", "└─┘"])
        XCTAssertEqual(render(width: 4, height: 1) { table.render(into: &$0, area: $1) }, ["┌──┐"])
        XCTAssertEqual(
            render(width: 5, height: 2) { TableView(columns: [], rows: [["x"]]).render(into: &$0, area: $1) },
            ["", ""])
    }

    // MARK: KeyHints

    func testKeyHintsShowWholeHintsThatFit() {
        let hints = KeyHints([(key: "q", action: "quit"), (key: "↑↓", action: "move"), (key: "?", action: "help")])
        XCTAssertEqual(render(width: 30, height: 1) { hints.render(into: &$0, area: $1) }, ["q quit  ↑↓ move  ? help"])
        XCTAssertEqual(render(width: 15, height: 1) { hints.render(into: &$0, area: $1) }, ["q quit  ↑↓ move"])
        XCTAssertEqual(render(width: 14, height: 1) { hints.render(into: &$0, area: $1) }, ["q quit"])
        XCTAssertEqual(render(width: 3, height: 1) { hints.render(into: &$0, area: $1) }, [""])
        var buffer = Buffer(width: 10, height: 1)
        hints.render(into: &buffer, area: buffer.area)
        XCTAssertEqual(buffer.cell(x: 0, y: 0)?.style, Style(modifiers: .bold))
        XCTAssertEqual(buffer.cell(x: 2, y: 0)?.style, .plain)
    }

    // MARK: Symbols

    func testSymbolSets() {
        let unicode = Symbols.unicode
        let ascii = Symbols.ascii
        XCTAssertEqual(
            [unicode.check, unicode.cross, unicode.bullet, unicode.dash, unicode.pointer], ["✓", "✗", "•", "–", "▶"])
        XCTAssertEqual([ascii.check, ascii.cross, ascii.bullet, ascii.dash, ascii.pointer], ["+", "x", "o", "-", ">"])
        XCTAssertEqual([ascii.topLeft, ascii.horizontal, ascii.vertical], ["+", "-", "|"])
        for s in [
            ascii.check, ascii.cross, ascii.bullet, ascii.dash, ascii.pointer, ascii.ellipsis, ascii.topLeft,
            ascii.topRight, ascii.bottomLeft, ascii.bottomRight, ascii.horizontal, ascii.vertical,
        ] {
            XCTAssertTrue(s.unicodeScalars.allSatisfy(\.isASCII), s)
        }
    }
}

/// `wrapText`: the one word wrap of the terminal UI.
final class WrapTextTests: XCTestCase {
    func testHexBreaksAfterASeparatorNeverInsideAByte() {
        XCTAssertEqual(wrapText("ab:cd:ef:01", width: 7), ["ab:cd:", "ef:01"])
        XCTAssertEqual(wrapText("Serial 68:2f:c4:ba:5e", width: 12), ["Serial", "68:2f:c4:ba:", "5e"])
    }

    func testWordsBreakAtSpacesAndAWordTooLongIsSplit() {
        XCTAssertEqual(
            wrapText("localhost matches no subjectAltName", width: 20), ["localhost matches no", "subjectAltName"])
        XCTAssertEqual(wrapText("abcdefghij", width: 4), ["abcd", "efgh", "ij"])
        XCTAssertEqual(wrapText("anything", width: 0), [])
    }
}
