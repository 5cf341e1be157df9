import XCTest

@testable import TrustSupport

final class Base64Tests: XCTestCase {
    /// RFC 4648 section 10's test vectors, both ways.
    func testRFC4648Vectors() {
        let vectors = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8), encoded)
            XCTAssertEqual(Base64.decodePrefix(Array(encoded.utf8)[...]), Array(plain.utf8), encoded)
        }
    }

    /// The strict reader refuses what RFC 4648 3.3 calls non-alphabet data and padding that does
    /// not complete a group; the prefix reader stops at the first `=` instead.
    func testStrictPaddingAndPrefixStop() {
        XCTAssertNil(Base64.decode("Zg=A"), "data after padding")
        XCTAssertNil(Base64.decode("Zg="), "one pad for a two-sextet group")
        XCTAssertNil(Base64.decode("Zm8=="), "two pads for a three-sextet group")
        XCTAssertNil(Base64.decode("="))
        XCTAssertEqual(Base64.decode("Zg = =\n"), Array("f".utf8), "whitespace between pads")
        XCTAssertEqual(Base64.decodePrefix(Array("Zg==Zm9v".utf8)[...]), Array("f".utf8))
        XCTAssertEqual(Base64.decodePrefix(Array("Zm9vYmFy".utf8)[...], limit: 3), Array("foo".utf8))
    }
}
