import Foundation
import TrustExport
import XCTest

/// Every escape is read back by the tool that will read the export: bash, Foundation's property
/// list parser. Swift literals are compiled and run in SwiftDelegateExportTests.
final class EscapingTests: XCTestCase {
    static let hostile = [
        "plain", "with space", "it's", "$(touch /tmp/trustx-pwned)", "`id`", "a\nb", "\u{1B}[31mred", "tab\there",
        "", "ü", "back\\slash", "semi;colon", "x'y\"z", "--", "\u{202E}moc.elgoog", "a*/b", "-->", "\0nul",
    ]

    func testShellQuotedWordsAreReadBackExactlyByBash() throws {
        for text in Self.hostile where !text.contains("\0") {
            let r = try Run.program("/bin/bash", ["-c", "printf %s " + Escaping.shellQuote(text)])
            XCTAssertEqual(r.status, 0, text)
            XCTAssertEqual(r.out, text, "quoted as \(Escaping.shellQuote(text))")
        }
    }

    func testPrintableWordsAreReadBackByPOSIXsh() throws {
        for text in Self.hostile where text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            let r = try Run.program("/bin/sh", ["-c", "printf %s " + Escaping.shellQuote(text)])
            XCTAssertEqual(r.out, text, "quoted as \(Escaping.shellQuote(text))")
        }
    }

    func testCommentTextIsOnePrintableASCIILineThatCannotCloseABlockComment() {
        for text in Self.hostile {
            let c = Escaping.commentText(text)
            XCTAssertTrue(c.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, c)
            XCTAssertFalse(c.contains("*/"), c)
        }
        XCTAssertEqual(Escaping.commentText("a\nb"), "a\\u{A}b")
    }

    func testXMLCommentTextHasNoDoubleHyphenAndNoTrailingHyphen() {
        for text in Self.hostile + ["-", "a-", "---x"] {
            let c = Escaping.xmlCommentText(text)
            XCTAssertFalse(c.contains("--"), c)
            XCTAssertFalse(c.hasSuffix("-"), c)
        }
    }

    func testXMLTextIsReadBackByPropertyListSerialization() throws {
        for text in ["a & b", "<key>x</key>", "\"quoted\" 'single'", "ü and 👍", "tab\there", "]]>", "plain"] {
            let xml =
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><string>"
                + Escaping.xmlText(text) + "</string></plist>\n"
            let value = try PropertyListSerialization.propertyList(from: Data(xml.utf8), options: [], format: nil)
            XCTAssertEqual(value as? String, text)
        }
    }
}
