import SuiteFixtures
import XCTest

@testable import TrustCore
@testable import TrustReport
@testable import TrustX509

/// Bytes of a UTF8String that are not UTF-8 are shown as `\xNN` (docs/cli.md), not as U+FFFD,
/// which would make different malformed names look alike.
final class NonUTF8DisplayTests: XCTestCase {
    /// A leaf whose subject commonName is the UTF8String "ab", 0xFF, "c" (the signature no longer
    /// verifies, which does not matter for display).
    func malformedLeaf() throws -> Certificate {
        let ca = try TestPKI.root()
        let leaf = try TestPKI.leaf("abZc.example", issuer: ca)
        var der = leaf.certificate.der
        let needle = Array("abZc.example".utf8)
        let at = try XCTUnwrap(
            (0...(der.count - needle.count)).first { Array(der[$0..<($0 + needle.count)]) == needle })
        der[at + 2] = 0xFF
        return try Certificate(der: der)
    }

    func testInvalidBytesAppearAsHexEscapes() throws {
        let cert = try malformedLeaf()
        XCTAssertEqual(cert.displayName, "ab\\xFFc.example")
        XCTAssertEqual(cert.subject.description, "O=trustx tests, CN=ab\\xFFc.example")
        // The matching value keeps the replacement character; only display changes.
        XCTAssertEqual(cert.subject.commonNames, ["ab\u{FFFD}c.example"])
    }

    func testTheTextReportShowsTheEscapeAndNoReplacementCharacter() throws {
        let e = try evaluate([try malformedLeaf()], TestPKI.basic())
        let text = TextReport.render(e)
        XCTAssertTrue(text.contains("ab\\xFFc.example"), text)
        XCTAssertFalse(text.contains("\u{FFFD}"), text)
    }

    func testALiteralBackslashCannotImitateAnInvalidByte() throws {
        let leaf = try TestPKI.root("ab\\xFFc")
        XCTAssertEqual(leaf.certificate.subject.description, "O=trustx tests, CN=ab\\\\xFFc")
    }
}
