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
}
