import TermUI
import XCTest

/// Splitting rectangles: parts tile the area exactly, whatever the constraints ask.
final class LayoutTests: XCTestCase {
    func testAVerticalSplitStacksRowsTopToBottom() {
        let area = Rect(x: 2, y: 1, width: 20, height: 10)
        let parts = area.split(vertical: [.length(3), .fill, .length(1)])
        XCTAssertEqual(
            parts,
            [
                Rect(x: 2, y: 1, width: 20, height: 3),
                Rect(x: 2, y: 4, width: 20, height: 6),
                Rect(x: 2, y: 10, width: 20, height: 1),
            ])
    }

    func testAHorizontalSplitPlacesColumnsSideBySide() {
        let parts = Rect(x: 0, y: 0, width: 100, height: 5).split(horizontal: [.percentage(30), .fill])
        XCTAssertEqual(parts.map(\.x), [0, 30])
        XCTAssertEqual(parts.map(\.width), [30, 70])
        XCTAssertEqual(parts.map(\.height), [5, 5])
    }

    func testFillPartsShareTheRestAndMinPartsGrowWithoutFill() {
        let area = Rect(x: 0, y: 0, width: 11, height: 1)
        XCTAssertEqual(area.split(horizontal: [.fill, .length(2), .fill]).map(\.width), [5, 2, 4])
        XCTAssertEqual(area.split(horizontal: [.min(2), .length(3)]).map(\.width), [8, 3])
        XCTAssertEqual(area.split(horizontal: [.length(2), .length(3)]).map(\.width), [2, 9])
    }

    func testWhenTooSmallLaterPartsGetLess() {
        let tiny = Rect(x: 0, y: 0, width: 10, height: 3)
        XCTAssertEqual(tiny.split(vertical: [.length(2), .fill, .length(2)]).map(\.height), [2, 0, 1])
        XCTAssertEqual(tiny.split(horizontal: [.length(8), .min(5)]).map(\.width), [8, 2])
    }

    func testPartsAlwaysTileTheArea() {
        let choices: [Constraint] = [
            .length(0), .length(3), .length(50), .percentage(25), .percentage(100), .min(4), .fill,
        ]
        var seed: UInt64 = 42
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for _ in 0..<500 {
            let area = Rect(x: next(5), y: next(5), width: next(120), height: next(60))
            let constraints = (0..<(1 + next(5))).map { _ in choices[next(choices.count)] }
            let rows = area.split(vertical: constraints)
            XCTAssertEqual(rows.reduce(0) { $0 + $1.height }, area.height, "\(constraints) \(area)")
            XCTAssertEqual(rows.first?.y, area.y)
            for (a, b) in zip(rows, rows.dropFirst()) { XCTAssertEqual(a.bottom, b.y) }
            let columns = area.split(horizontal: constraints)
            XCTAssertEqual(columns.reduce(0) { $0 + $1.width }, area.width, "\(constraints) \(area)")
            for (a, b) in zip(columns, columns.dropFirst()) { XCTAssertEqual(a.right, b.x) }
        }
    }

    func testInsetShrinksEverySideAndNeverGoesNegative() {
        let area = Rect(x: 1, y: 1, width: 10, height: 5)
        XCTAssertEqual(area.inset(by: 1), Rect(x: 2, y: 2, width: 8, height: 3))
        XCTAssertEqual(area.inset(horizontal: 2, vertical: 0), Rect(x: 3, y: 1, width: 6, height: 5))
        XCTAssertTrue(area.inset(by: 3).isEmpty)
        XCTAssertGreaterThanOrEqual(area.inset(by: 100).width, 0)
        XCTAssertEqual(Rect(x: 0, y: 0, width: -3, height: 2).width, 0)
    }

    func testIntersection() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(a.intersection(Rect(x: 5, y: 8, width: 10, height: 10)), Rect(x: 5, y: 8, width: 5, height: 2))
        XCTAssertTrue(a.intersection(Rect(x: 20, y: 0, width: 5, height: 5)).isEmpty)
    }
}
