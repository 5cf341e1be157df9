import TrustSupport
import XCTest

@testable import CTModel
@testable import TrustCore
@testable import TrustX509

/// `--ct-logs` files: Apple's JSON log list and SecTrustSetTrustedLogs' property-list array, read
/// within bounds; what trustd ignores is left out, what no list can mean is an error.
final class CTLogListReaderTests: XCTestCase {
    /// A P-256 SubjectPublicKeyInfo (any 91 bytes do for reading; the ID is their SHA-256).
    let key: [UInt8] = [0x30, 0x59] + Array(repeating: 7, count: 89)

    func read(_ text: String) throws -> CTLogList { try CTLogListReader.read(Array(text.utf8), source: "test") }

    func jsonLog(_ state: String, extra: String = "") -> String {
        """
        {"operators": [{"name": "Op", "logs": [{"description": "L", "key": "\(Base64.encode(key))", \
        "state": {\(state)}\(extra)}], "tiled_logs": []}]}
        """
    }

    func testAJSONLogsStateDatesAndIntervalAreRead() throws {
        let list = try read(
            jsonLog(
                #""readonly": {"timestamp": "2024-02-03T04:05:06Z"}"#,
                extra:
                    #", "temporal_interval": {"start_inclusive": "2025-01-01T00:00:00Z", "end_exclusive": "2026-01-01T00:00:00Z"}"#
            ))
        let log = try XCTUnwrap(list.logs.first)
        XCTAssertEqual(log.state, .readonly)
        XCTAssertEqual(log.readOnlyFrom, Timestamp(year: 2024, month: 2, day: 3, hour: 4, minute: 5, second: 6))
        XCTAssertNil(log.retiredFrom)
        XCTAssertEqual(log.intervalStart, Timestamp(year: 2025, month: 1, day: 1))
        XCTAssertEqual(log.logID, Digest.sha256(key))
        XCTAssertEqual(log.operatorName, "Op")
    }

    func testAJSONLogWithoutAKnownStateIsAnError() {
        XCTAssertThrowsError(try read(jsonLog(#""frozen": {"timestamp": "2024-01-01T00:00:00Z"}"#))) {
            XCTAssertTrue("\($0)".contains("\"state\" must hold one of"), "\($0)")
        }
    }

    func testAJSONLogWithoutAKeyIsLeftOut() throws {
        let text = #"{"operators": [{"name": "Op", "logs": [{"description": "no key"}], "tiled_logs": []}]}"#
        XCTAssertEqual(try read(text).logs.count, 0)
    }

    func testNestingPastTheBoundIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        XCTAssertThrowsError(try read("{\"operators\": \(deep)")) {
            XCTAssertTrue("\($0)".contains("nested deeper than 32 levels"), "\($0)")
        }
    }

    func testTruncatedJSONNamesTheByte() {
        XCTAssertThrowsError(try read("{\"operators\": [")) {
            XCTAssertTrue("\($0)".hasPrefix("JSON at byte"), "\($0)")
        }
    }

    func testAPropertyListArrayKeepsOnlyDictionariesWithAKey() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array>\
            <dict><key>key</key><data>\(Base64.encode(key))</data><key>operator</key><string>Op</string>\
            <key>expiry</key><date>2024-05-06T00:00:00Z</date></dict>\
            <dict><key>key</key><string>not data</string></dict><integer>3</integer></array></plist>
            """
        let list = try read(text)
        XCTAssertEqual(list.logs.count, 1)
        XCTAssertEqual(list.logs[0].retiredFrom, Timestamp(year: 2024, month: 5, day: 6))
        XCTAssertEqual(list.logs[0].state, .listed)
        XCTAssertTrue(list.logs[0].state.isTrusted)
    }

    func testAPropertyListThatIsNotAnArrayIsAnError() {
        let text = #"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#
        XCTAssertThrowsError(try read(text)) { XCTAssertTrue("\($0)".contains("not an array"), "\($0)") }
    }
}
