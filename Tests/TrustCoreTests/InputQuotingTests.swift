import XCTest

@testable import ATSModel
@testable import TrustCore
@testable import TrustX509

/// Error messages quote input to let the reader find it, at most a few hundred bytes of it: a
/// megabyte-long tag name, PEM label or object identifier gives a one-line message.
final class InputQuotingTests: XCTestCase {
    func testAPropertyListTagNameIsQuotedShortly() throws {
        let name = String(repeating: "k", count: 1_000_000)
        let xml = Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><\(name)></dict></plist>".utf8)
        XCTAssertThrowsError(try PropertyList.parse(xml)) { error in
            let text = "\(error)"
            XCTAssertLessThan(text.utf8.count, 400, String(text.prefix(400)))
            XCTAssertTrue(text.contains("kkkk… (1000000 bytes)"), String(text.prefix(400)))
        }
        let key = Array("<plist version=\"1.0\"><dict><key>\(name)</key></dict></plist>".utf8)
        XCTAssertThrowsError(try PropertyList.parse(key)) { error in
            XCTAssertLessThan("\(error)".utf8.count, 400, String("\(error)".prefix(400)))
        }
    }

    func testAPEMLabelIsBoundedAndQuotedShortly() throws {
        let label = String(repeating: "L", count: 500_000)
        let pem = Array("-----BEGIN \(label)-----\nAAAA\n".utf8)
        XCTAssertThrowsError(try PEM.blocks(in: pem)) { thrown in
            guard let error = thrown as? DecodingError else { return XCTFail("\(thrown)") }
            XCTAssertEqual(error.offset, 11)
            XCTAssertLessThan(error.reason.utf8.count, 200, String(error.reason.prefix(300)))
            XCTAssertTrue(error.reason.contains("(500000 bytes)"), String(error.reason.prefix(300)))
        }
        // A short label without its END line is still quoted in full.
        XCTAssertThrowsError(try PEM.blocks(in: Array("-----BEGIN X509 CRL-----\nAAAA\n".utf8))) { error in
            XCTAssertEqual((error as? DecodingError)?.reason, "PEM block \"X509 CRL\" has no matching END line")
        }
    }

    func testAnUnknownObjectIdentifierIsNamedShortly() {
        // 1.2.1.1.1…: 100,000 arcs.
        let oid = OID(bytes: [0x2A] + [UInt8](repeating: 1, count: 100_000))
        XCTAssertEqual(oid.dotted.utf8.count, 200_003)
        XCTAssertLessThan(oid.name.utf8.count, 230)
    }

    func testAnATSNoteQuotesAHugeKeyShortly() throws {
        let key = String(repeating: "N", count: 100_000)
        let xml = """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>\
            <key>\(key)</key><true/></dict></dict></plist>
            """
        let configuration = try ATSConfiguration.decode(infoPlist: Array(xml.utf8))
        let note = try XCTUnwrap(configuration.notes.first)
        XCTAssertEqual(note.problem, .unknownKey(suggestion: nil))
        XCTAssertLessThan(note.description.utf8.count, 400, String(note.description.prefix(400)))
        XCTAssertTrue(
            note.description.contains("NNNN… (100000 bytes): unknown key"), String(note.description.prefix(400)))
    }
}
