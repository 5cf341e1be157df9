import Glibc
import XCTest

@testable import TrustSupport

/// IPv4 literals against the C library's `inet_pton(AF_INET)`, which takes exactly the strict
/// dotted quad: four decimal parts, each at most 255, none with a leading zero.
final class IPAddressTests: XCTestCase {
    func pton(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    func testDottedQuadsAgreeWithInetPton() {
        let cases = [
            "127.0.0.1", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.04",
            "1.2.3.0", "1..2.3", ".1.2.3", "1.2.3.", "1.2.3.4 ", " 1.2.3.4", "1.2.3.4a", "1.2.3.-4", "1.2.3.1000",
            "10.0.0.255", "999.0.0.1", "", ".", "...", "1.2.3.٣", "１.2.3.4", "0x7f.0.0.1",
        ]
        for text in cases {
            XCTAssertEqual(parseIPAddress(text), pton(text), text.debugDescription)
        }
        // And a few thousand strings of digits and dots, drawn with a fixed seed.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = Array("0123456789.")
        for _ in 0..<5000 {
            var text = ""
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(seed >> 60) + 3
            for _ in 0..<length {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.append(alphabet[Int(seed >> 33) % alphabet.count])
            }
            XCTAssertEqual(parseIPAddress(text), pton(text), text)
        }
    }

    func testBracketsAndIPv6StillParse() {
        XCTAssertEqual(parseIPAddress("[127.0.0.1]"), [127, 0, 0, 1])
        XCTAssertEqual(parseIPAddress("::1"), Array(repeating: 0, count: 15) + [1])
        XCTAssertEqual(parseIPAddress("::ffff:1.2.3.4"), Array(repeating: 0, count: 10) + [255, 255, 1, 2, 3, 4])
        XCTAssertNil(parseIPAddress("::ffff:01.2.3.4"))
        // A NUL ends the C string inet_pton reads; here it is a byte that no address has.
        XCTAssertNil(parseIPAddress("1.2.3.4\0"))
    }
}
