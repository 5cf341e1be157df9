import TrustSupport
import XCTest

/// The one edit distance behind every "did you mean": Levenshtein's definition, bounded.
final class EditDistanceTests: XCTestCase {
    func testLevenshteinsOwnExamples() {
        // kitten -> sitting: two substitutions and an insertion.
        XCTAssertEqual(EditDistance.between("kitten", "sitting", limit: 10), 3)
        XCTAssertEqual(EditDistance.between("flaw", "lawn", limit: 10), 2)
        XCTAssertEqual(EditDistance.between("", "abc", limit: 10), 3)
        XCTAssertEqual(EditDistance.between("same", "same", limit: 0), 0)
        XCTAssertEqual(EditDistance.between("TLSV1.2", "TLSv1.2", limit: 2), 1)
    }

    func testItStopsAtTheLimitPlusOne() {
        XCTAssertEqual(EditDistance.between("kitten", "sitting", limit: 2), 3, "3 is more than 2: limit + 1")
        XCTAssertEqual(EditDistance.between("a", String(repeating: "b", count: 100), limit: 2), 3)
        // Attacker-sized keys cost at most 256 x 256 cells, and a distant pair stops early.
        let huge = String(repeating: "x", count: 1_000_000)
        XCTAssertEqual(EditDistance.between(huge, "NSAllowsArbitraryLoads", limit: 3), 4)
        XCTAssertEqual(EditDistance.between(huge, huge, limit: 3), 0)
    }
}
