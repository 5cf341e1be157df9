import XCTest

@testable import TrustSupport

final class ByteSearchTests: XCTestCase {
    func testFindsFirstOccurrenceFromOffset() {
        let hay = Array("--x--BEGIN--BEGIN".utf8)
        let needle = Array("BEGIN".utf8)
        XCTAssertEqual(ByteSearch.find(needle, in: hay, from: 0), 5)
        XCTAssertEqual(ByteSearch.find(needle, in: hay, from: 6), 12, "a match ending at the last byte")
        XCTAssertNil(ByteSearch.find(needle, in: hay, from: 13))
        XCTAssertNil(ByteSearch.find(needle, in: hay, from: 100))
        XCTAssertNil(ByteSearch.find(needle, in: hay, from: -1))
        XCTAssertNil(ByteSearch.find([], in: hay, from: 0))
        XCTAssertEqual(ByteSearch.find(Array("BEGIN-".utf8), in: Array("BEGIBEGIN-".utf8), from: 0), 4)
    }
}
