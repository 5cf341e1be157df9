import XCTest

@testable import TrustSupport

/// Error messages quote attacker-supplied input at a bounded size.
final class InputExcerptTests: XCTestCase {
    func testShortInputIsQuotedWhole() {
        XCTAssertEqual(InputExcerpt.quote("abc", limit: 3), "abc")
    }

    func testLongInputIsCutAndItsSizeSaid() {
        let tag = String(repeating: "x", count: 3_900_000)
        XCTAssertEqual(InputExcerpt.quote(tag), String(repeating: "x", count: 200) + "… (3900000 bytes)")
    }

    func testCutNeverSplitsACharacter() {
        // "é" is two bytes: a limit of 3 keeps one whole "é", not one and a half.
        XCTAssertEqual(InputExcerpt.quote("ééé", limit: 3), "é… (6 bytes)")
    }

    func testBytesAreCutBeforeDecoding() {
        XCTAssertEqual(InputExcerpt.quote(bytes: [UInt8](repeating: 0x41, count: 1000), limit: 4), "AAAA… (1000 bytes)")
    }
}
