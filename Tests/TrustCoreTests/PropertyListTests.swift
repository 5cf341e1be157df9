import Foundation
import TrustSupport
import XCTest

@testable import ATSModel
@testable import TrustCore

/// The property-list reader against hand-written XML, and against binary lists written by
/// outside implementations (Foundation's PropertyListSerialization, plutil and Python's plistlib),
/// whose own reading of the same file gives the expected values.
final class PropertyListTests: XCTestCase {
    static let sampleXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <!-- an app's Info.plist -->
        <dict>
            <key>CFBundleName</key>
            <string>Caf\u{E9} &amp; &lt;Bar&gt; &quot;x&quot; &apos;y&apos; &#65;&#x42;</string>
            <key>Count</key><integer>-42</integer>
            <key>Hex</key><integer>0x1F</integer>
            <key>Ratio</key><real>2.5</real>
            <key>When</key><date>2024-02-29T12:34:56Z</date>
            <key>Blob</key><data>
                AAEC
                /w==
            </data>
            <key>Yes</key><true/>
            <key>No</key><false/>
            <key>Empty</key><string/>
            <key>CD</key><string><![CDATA[a<b>&c]]></string>
            <key>List</key>
            <array>
                <string>one</string>
                <dict/>
                <array/>
            </array>
        </dict>
        </plist>
        """

    func testReadsHandWrittenXMLWithEntitiesCommentsAndDoctype() throws {
        let v = try PropertyList.parse(Array(Self.sampleXML.utf8))
        XCTAssertEqual(v["CFBundleName"], .string("Caf\u{E9} & <Bar> \"x\" 'y' AB"))
        XCTAssertEqual(v["Count"], .integer(-42))
        XCTAssertEqual(v["Hex"], .integer(31))
        XCTAssertEqual(v["Ratio"], .real(2.5))
        // 2024-02-29T12:34:56Z: 19782 days after the epoch, plus 45296 s.
        XCTAssertEqual(v["When"], .date(19782 * 86_400 + 45_296))
        XCTAssertEqual(v["Blob"], .data([0, 1, 2, 0xFF]))
        XCTAssertEqual(v["Yes"], .bool(true))
        XCTAssertEqual(v["No"], .bool(false))
        XCTAssertEqual(v["Empty"], .string(""))
        XCTAssertEqual(v["CD"], .string("a<b>&c"))
        XCTAssertEqual(v["List"], .array([.string("one"), .dictionary([]), .array([])]))
        guard case .dictionary(let entries) = v else { return XCTFail("not a dictionary") }
        XCTAssertEqual(entries.map(\.key).first, "CFBundleName", "keys stay in the order written")
    }

    func testKeepsRepeatedKeysInOrder() throws {
        let v = try PropertyList.parse(
            Array("<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>".utf8))
        XCTAssertEqual(
            v, .dictionary([.init(key: "a", value: .bool(true)), .init(key: "a", value: .bool(false))]))
    }

    func testBinaryFromFoundationMatchesFoundationsOwnReading() throws {
        let object: [String: Any] = [
            "NSAppTransportSecurity": [
                "NSAllowsArbitraryLoads": false,
                "NSExceptionDomains": [
                    "example.com": ["NSIncludesSubdomains": true, "NSExceptionMinimumTLSVersion": "TLSv1.0"]
                ],
            ],
            "Unicode": "na\u{EF}ve \u{1F512} \u{65E5}\u{672C}",
            "Big": Int64.max, "Small": Int64.min, "Byte": 200, "Short": 60_000, "Word": 3_000_000_000,
            "Pi": 3.25, "Data": Data([1, 2, 3, 250]),
            "When": Date(timeIntervalSince1970: 1_700_000_000),
            "Nested": [[1, 2], [], ["deep": [true]]],
            "LongASCII": String(repeating: "x", count: 300),
        ]
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        XCTAssertTrue(binary.starts(with: Array("bplist00".utf8)))
        let ours = try PropertyList.parse(Array(binary))
        let theirs = try PropertyListSerialization.propertyList(from: binary, format: nil)
        XCTAssertEqual(Self.normalized(ours), Self.normalized(try Self.value(theirs)))
        XCTAssertEqual(ours["Big"], .integer(Int64.max))
        XCTAssertEqual(ours["Small"], .integer(Int64.min))
        XCTAssertEqual(ours["Word"], .integer(3_000_000_000))
        XCTAssertEqual(ours["Unicode"], .string("na\u{EF}ve \u{1F512} \u{65E5}\u{672C}"))
        XCTAssertEqual(ours["When"], .date(1_700_000_000))
    }

    func testBinaryFromPlutilMatchesTheXMLItWasConvertedFrom() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let xml = dir.appendingPathComponent("Info.plist")
        try Self.sampleXML.write(to: xml, atomically: true, encoding: .utf8)
        let plutil = "/opt/swift/usr/bin/plutil"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: plutil), "plutil not installed")
        let bin = dir.appendingPathComponent("Info.bin")
        _ = try Shell.output("\(plutil) -convert binary1 -o '\(bin.path)' '\(xml.path)'")
        let data = try Data(contentsOf: bin)
        XCTAssertTrue(data.starts(with: Array("bplist00".utf8)))
        let fromBinary = try PropertyList.parse(Array(data))
        let fromXML = try PropertyList.parse(Array(Self.sampleXML.utf8))
        XCTAssertEqual(Self.normalized(fromBinary), Self.normalized(fromXML))
        XCTAssertEqual(
            Self.normalized(fromBinary),
            Self.normalized(try Self.value(try PropertyListSerialization.propertyList(from: data, format: nil))))
    }

    func testBinaryFromPythonPlistlib() throws {
        let script = """
            import plistlib, sys, datetime
            d = {"s": "\\u00e9t\\u00e9", "i": -7, "u": 2**63 - 1, "f": 0.5, "b": True, "n": False,
                 "d": b"\\x00\\xff", "t": datetime.datetime(2030, 1, 2, 3, 4, 5),
                 "a": [1, "two", [3]], "o": {"k": "v"}}
            sys.stdout.buffer.write(plistlib.dumps(d, fmt=plistlib.FMT_BINARY, sort_keys=True))
            """
        let r = try Shell.run("python3 -c '\(script)'")
        try XCTSkipUnless(r.status == 0, "python3 plistlib unavailable: \(r.stderr)")
        let v = try PropertyList.parse(r.stdout)
        XCTAssertEqual(v["s"], .string("\u{E9}t\u{E9}"))
        XCTAssertEqual(v["i"], .integer(-7))
        XCTAssertEqual(v["u"], .integer(Int64.max))
        XCTAssertEqual(v["f"], .real(0.5))
        XCTAssertEqual(v["b"], .bool(true))
        XCTAssertEqual(v["n"], .bool(false))
        XCTAssertEqual(v["d"], .data([0, 0xFF]))
        XCTAssertEqual(v["t"], .date(Double(Timestamp(rfc3339: "2030-01-02T03:04:05Z")!.secondsSinceEpoch)))
        XCTAssertEqual(v["a"], .array([.integer(1), .string("two"), .array([.integer(3)])]))
        XCTAssertEqual(v["o"], .dictionary([.init(key: "k", value: .string("v"))]))
    }

    // MARK: refusals

    func testRefusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "<array>", count: 65) + String(repeating: "</array>", count: 65)
        XCTAssertThrowsError(try PropertyList.parse(Array("<plist>\(deep)</plist>".utf8))) { error in
            XCTAssertEqual((error as? PropertyListError)?.reason, .tooDeep(limit: 64))
        }
        let ok = String(repeating: "<array>", count: 64) + String(repeating: "</array>", count: 64)
        XCTAssertNoThrow(try PropertyList.parse(Array("<plist>\(ok)</plist>".utf8)))
    }

    func testRefusesInputLargerThanTheLimit() {
        let limits = PropertyListLimits(maximumBytes: 100, maximumDepth: 64, maximumObjects: 1000)
        let big = "<plist><string>\(String(repeating: "a", count: 200))</string></plist>"
        XCTAssertThrowsError(try PropertyList.parse(Array(big.utf8), limits: limits)) { error in
            XCTAssertEqual((error as? PropertyListError)?.reason, .tooLarge(bytes: big.utf8.count, limit: 100))
        }
    }

    func testRefusesMoreObjectsThanTheLimit() {
        let limits = PropertyListLimits(maximumBytes: 1 << 20, maximumDepth: 64, maximumObjects: 10)
        let many = "<plist><array>" + String(repeating: "<true/>", count: 10) + "</array></plist>"
        XCTAssertThrowsError(try PropertyList.parse(Array(many.utf8), limits: limits)) { error in
            XCTAssertEqual((error as? PropertyListError)?.reason, .tooManyObjects(limit: 10))
        }
    }

    func testRefusesEntitiesTheDoctypeDeclares() {
        let xml = """
            <!DOCTYPE plist [ <!ENTITY lol "lol"> ]>
            <plist><string>&lol;</string></plist>
            """
        XCTAssertThrowsError(try PropertyList.parse(Array(xml.utf8))) { error in
            guard case .malformed(let why)? = (error as? PropertyListError)?.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("unknown entity &lol;"), why)
        }
    }

    func testReportsTheOffsetOfAnUnterminatedString() {
        let xml = "<plist><dict><key>a</key><string>never closed</dict></plist>"
        XCTAssertThrowsError(try PropertyList.parse(Array(xml.utf8))) { error in
            let e = error as? PropertyListError
            // The <dict> end tag inside the string is found at byte 45.
            XCTAssertEqual(e?.offset, 45)
            XCTAssertEqual(e?.description, "at byte 45: <dict> inside <string>")
        }
    }

    func testRefusesMalformedXMLValues() {
        for bad in [
            "<plist><integer>12x</integer></plist>", "<plist><integer>9223372036854775808</integer></plist>",
            "<plist><real>0x1p3</real></plist>", "<plist><date>2024-01-01</date></plist>",
            "<plist><data>!!</data></plist>", "<plist><dict><string>a</string></dict></plist>",
            "<plist><true>yes</true></plist>", "<plist><foo/></plist>", "<plist><string>&#0;</string></plist>",
            "<plist><string>&#xD800;</string></plist>", "<plist><true/><true/></plist>", "{ a = b; }", "",
        ] {
            XCTAssertThrowsError(try PropertyList.parse(Array(bad.utf8)), bad)
        }
    }

    func testRefusesABinaryReferenceCycle() {
        // Object 0 is an array holding object 0.
        let file = Self.binary(objects: [[0xA1, 0x00]], top: 0)
        XCTAssertThrowsError(try PropertyList.parse(file)) { error in
            XCTAssertEqual((error as? PropertyListError)?.reason, .referenceCycle(object: 0))
        }
    }

    func testSharedBinaryObjectsCannotBuyExponentialWork() {
        // Object k is an array holding object k+1 twice: 40 levels describe 2^40 leaves in a
        // few hundred bytes. The visit budget ends the read.
        var objects: [[UInt8]] = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x09])
        let file = Self.binary(objects: objects, top: 0)
        XCTAssertThrowsError(try PropertyList.parse(file)) { error in
            XCTAssertEqual((error as? PropertyListError)?.reason, .tooManyObjects(limit: 250_000))
        }
        // Sharing itself is legal: three levels are eight leaves.
        var small: [[UInt8]] = (0..<3).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        small.append([0x09])
        let leaf = PropertyListValue.bool(true)
        let two = PropertyListValue.array([leaf, leaf])
        let four = PropertyListValue.array([two, two])
        XCTAssertEqual(try PropertyList.parse(Self.binary(objects: small, top: 0)), .array([four, four]))
    }

    func testRefusesSharedDataThatWouldExpandPastTheOutputBudget() {
        // One 60 KB data object referenced 100 times by one array: 6 MB of output from a 60 KB file.
        let limits = PropertyListLimits(maximumBytes: 1 << 20, maximumDepth: 64, maximumObjects: 1000)
        let data: [UInt8] = [0x4F, 0x11, 0xEA, 0x60] + [UInt8](repeating: 7, count: 60_000)
        let array: [UInt8] = [0xAF, 0x10, 100] + [UInt8](repeating: 1, count: 100)
        XCTAssertThrowsError(try PropertyList.parse(Self.binary(objects: [array, data], top: 0), limits: limits)) {
            XCTAssertEqual(($0 as? PropertyListError)?.reason, .expandsTooFar(limit: 4 << 20))
        }
    }

    func testRefusesBrokenBinaryStructure() {
        let good = Self.binary(objects: [[0xA1, 0x01], [0x51, 0x61]], top: 0)
        XCTAssertEqual(try PropertyList.parse(good), .array([.string("a")]))
        // A reference past the object count.
        XCTAssertThrowsError(try PropertyList.parse(Self.binary(objects: [[0xA1, 0x05], [0x09]], top: 0)))
        // A string longer than the object area.
        XCTAssertThrowsError(try PropertyList.parse(Self.binary(objects: [[0x5F, 0x10, 0xFF, 0x61]], top: 0)))
        // A non-ASCII byte in an ASCII string.
        XCTAssertThrowsError(try PropertyList.parse(Self.binary(objects: [[0x51, 0xE9]], top: 0)))
        // An unpaired surrogate in a UTF-16 string.
        XCTAssertThrowsError(try PropertyList.parse(Self.binary(objects: [[0x61, 0xD8, 0x00]], top: 0)))
        // A dictionary key that is not a string.
        XCTAssertThrowsError(try PropertyList.parse(Self.binary(objects: [[0xD1, 0x01, 0x01], [0x09]], top: 0)))
        // UIDs and sets are not Info.plist material.
        XCTAssertThrowsError(try PropertyList.parse(Self.binary(objects: [[0x80, 0x01]], top: 0)))
        // Every truncation of a good file fails cleanly.
        for n in 0..<good.count {
            XCTAssertThrowsError(try PropertyList.parse(Array(good.prefix(n))), "prefix \(n)")
        }
        // A trailer whose offset table lies past the end.
        var shifted = good
        shifted[shifted.count - 1] = 0xF0
        XCTAssertThrowsError(try PropertyList.parse(shifted))
    }

    // MARK: helpers

    /// A bplist00 file of `objects` (encoded already, references one byte) with 1-byte offsets.
    static func binary(objects: [[UInt8]], top: Int) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects {
            offsets.append(out.count)
            out += o
        }
        let table = out.count
        let offsetSize = table < 256 ? 1 : 4
        for o in offsets {
            for k in (0..<offsetSize).reversed() { out.append(UInt8(truncatingIfNeeded: o >> (8 * k))) }
        }
        func be64(_ v: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1]
        out += be64(objects.count) + be64(top) + be64(table)
        return out
    }

    /// Foundation's reading as our value type.
    static func value(_ any: Any) throws -> PropertyListValue {
        switch any {
        case let s as String: return .string(s)
        case let d as Data: return .data(Array(d))
        case let d as Date: return .date(d.timeIntervalSince1970)
        case let a as [Any]: return .array(try a.map(value))
        case let d as [String: Any]:
            return .dictionary(try d.map { PropertyListEntry(key: $0.key, value: try value($0.value)) })
        // Linux's Foundation reads booleans as Bool; Darwin's as NSNumber of type "c".
        case let b as Bool where type(of: any) == Bool.self: return .bool(b)
        case let n as NSNumber:
            let type = String(cString: n.objCType)
            if type == "c" { return .bool(n.boolValue) }
            if type == "d" || type == "f" { return .real(n.doubleValue) }
            return .integer(n.int64Value)
        default: throw PropertyListError(.malformed("unexpected Foundation value \(type(of: any))"))
        }
    }

    /// Dictionaries with their keys sorted, for comparing readers that order keys differently.
    static func normalized(_ v: PropertyListValue) -> PropertyListValue {
        switch v {
        case .dictionary(let e):
            .dictionary(e.map { .init(key: $0.key, value: normalized($0.value)) }.sorted { $0.key < $1.key })
        case .array(let a): .array(a.map(normalized))
        default: v
        }
    }
}
