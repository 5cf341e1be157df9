import Foundation
import SuiteFixtures
import XCTest

@testable import ExplorerState

/// The Detail pane's DER tree against `openssl asn1parse` on the same certificate: every element
/// openssl lists has the same offset, depth, header length, content length and tag name.
final class DERTreeTests: XCTestCase {
    /// One line of `openssl asn1parse -i`: `  4:d=1  hl=4 l= 447 cons:  SEQUENCE`.
    struct Row: Equatable, CustomStringConvertible {
        var offset: Int
        var depth: Int
        var headerLength: Int
        var length: Int
        var constructed: Bool
        var name: String
        var description: String { "\(offset):d=\(depth) hl=\(headerLength) l=\(length) \(constructed) \(name)" }
    }

    static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    var directory: URL!

    override func setUpWithError() throws {
        try XCTSkipIf(Self.openssl == nil, "openssl is not installed")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-der-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    @discardableResult
    func openssl(_ args: [String]) throws -> String {
        let r = try ProcessRunner.run(Self.openssl!, args, in: directory)
        XCTAssertEqual(r.status, 0, "openssl \(args.joined(separator: " ")): \(r.err)")
        return r.out
    }

    /// A certificate with the usual extensions (SAN, key usage, EKU, key identifiers), as DER.
    func makeCertificate(key: [String]) throws -> [UInt8] {
        try openssl(
            ["req", "-x509", "-newkey"] + key + [
                "-nodes", "-keyout", "key.pem", "-days", "30", "-subj", "/CN=DER Tree Test/O=trustx tests",
                "-addext", "subjectAltName=DNS:der.example,IP:127.0.0.1", "-addext",
                "keyUsage=critical,digitalSignature", "-addext", "extendedKeyUsage=serverAuth", "-outform", "DER",
                "-out", "cert.der",
            ])
        return Array(try Data(contentsOf: directory.appendingPathComponent("cert.der")))
    }

    static func parse(_ text: String) -> [Row] {
        text.split(separator: "\n").compactMap { line in
            // offset:d=D  hl=H l=  L cons: NAME [:value]
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let offset = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
            let rest = String(parts[1])
            let scanner = Scanner(string: rest)
            scanner.charactersToBeSkipped = .whitespaces
            guard scanner.scanString("d=") != nil, let depth = scanner.scanInt(), scanner.scanString("hl=") != nil,
                let hl = scanner.scanInt(), scanner.scanString("l=") != nil, let length = scanner.scanInt(),
                let kind = scanner.scanUpToString(":"), scanner.scanString(":") != nil
            else { return nil }
            var name = scanner.scanUpToString(":") ?? ""
            // openssl marks a primitive it shows as bytes: `OCTET STRING      [HEX DUMP]:...`.
            name = name.replacingOccurrences(of: "[HEX DUMP]", with: "").trimmingCharacters(in: .whitespaces)
            return Row(
                offset: offset, depth: depth, headerLength: hl, length: length, constructed: kind == "cons",
                name: name)
        }
    }

    func rows(_ tree: DERTree, encapsulated: Bool = false) -> [Row] {
        tree.nodes.filter { encapsulated || !$0.encapsulated }.map {
            Row(
                offset: $0.offset, depth: $0.depth, headerLength: $0.headerLength, length: $0.length,
                constructed: $0.isConstructed, name: $0.name)
        }
    }

    func testTreeOfAnECCertificateMatchesOpenSSLAsn1parse() throws {
        let der = try makeCertificate(key: ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"])
        let expected = Self.parse(try openssl(["asn1parse", "-inform", "DER", "-i", "-in", "cert.der"]))
        XCTAssertGreaterThan(expected.count, 30)
        let tree = DERTree.parse(der)
        XCTAssertNil(tree.problem)
        assertSame(rows(tree), expected)
    }

    /// The first row that differs, with its neighbours, rather than two long lists.
    func assertSame(_ got: [Row], _ expected: [Row], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(got.count, expected.count, "rows", file: file, line: line)
        if let i = (0..<min(got.count, expected.count)).first(where: { got[$0] != expected[$0] }) {
            XCTFail(
                "row \(i): \(got[max(0, i - 1)...min(i + 1, got.count - 1)]) vs openssl \(expected[max(0, i - 1)...min(i + 1, expected.count - 1)])",
                file: file, line: line)
        }
    }

    func testTreeOfAnRSACertificateMatchesOpenSSLAsn1parse() throws {
        // 1,024 bits: the same shape as 2,048 (a modulus INTEGER and an exponent inside the
        // key's BIT STRING, the certificate's length in two octets) for a tenth of openssl's
        // key generation.
        let der = try makeCertificate(key: ["rsa:1024"])
        XCTAssertEqual(Array(der.prefix(2)), [0x30, 0x82])
        let expected = Self.parse(try openssl(["asn1parse", "-inform", "DER", "-i", "-in", "cert.der"]))
        let tree = DERTree.parse(der)
        XCTAssertNil(tree.problem)
        assertSame(rows(tree), expected)
    }

    /// An extension's value is DER inside an OCTET STRING: the tree opens it where openssl needs
    /// `-strparse OFFSET`, with offsets from the certificate's start and depths below the string.
    func testEncapsulatedExtensionValueMatchesOpenSSLStrparse() throws {
        let der = try makeCertificate(key: ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"])
        let tree = DERTree.parse(der)
        let san = try XCTUnwrap(tree.nodes.firstIndex { $0.value?.hasSuffix("subjectAltName") == true })
        let octets = try XCTUnwrap(tree.nodes[(san + 1)...].first { $0.tag == 0x04 })
        let inside = Self.parse(
            try openssl(["asn1parse", "-inform", "DER", "-i", "-in", "cert.der", "-strparse", "\(octets.offset)"]))
        XCTAssertGreaterThanOrEqual(inside.count, 3)
        let start = octets.offset + octets.headerLength
        let opened = tree.nodes.filter {
            $0.encapsulated && $0.offset >= start && $0.offset < start + octets.length
        }.map {
            Row(
                offset: $0.offset - start, depth: $0.depth - octets.depth - 1, headerLength: $0.headerLength,
                length: $0.length, constructed: $0.isConstructed, name: $0.name)
        }
        XCTAssertEqual(opened, inside)
        XCTAssertTrue(
            tree.nodes.contains { $0.encapsulated && $0.value == "\"der.example\"" }, "the dNSName reads as text")
    }

    func testPrimitiveValuesAreDecodedOrHexAtByteBoundaries() throws {
        let der = try makeCertificate(key: ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"])
        let tree = DERTree.parse(der)
        XCTAssertTrue(tree.nodes.contains { $0.value?.hasPrefix("2.5.4.3 ") == true }, "the CN's OID, named")
        XCTAssertTrue(tree.nodes.contains { $0.value == "\"DER Tree Test\"" })
        XCTAssertTrue(tree.nodes.contains { $0.name == "BOOLEAN" && $0.value == "TRUE" })
        // The serial number is 20 random bytes in openssl's certificates: hex, two digits a byte.
        let serial = try XCTUnwrap(tree.nodes.first { $0.name == "INTEGER" && $0.length > 8 })
        let hex = try XCTUnwrap(serial.value)
        XCTAssertEqual(hex.split(separator: " ").count, serial.length)
        XCTAssertTrue(hex.split(separator: " ").allSatisfy { $0.count == 2 })
    }

    /// A string in a certificate is attacker-controlled: control characters in it reach the
    /// tree escaped, like every other text from a certificate.
    func testStringValuesAreEscapedForTheTerminal() {
        // SEQUENCE { UTF8String "\e[2Jx" , cont [2] "a\u{7}" }
        let der: [UInt8] = [0x30, 0x0B, 0x0C, 0x05, 0x1B, 0x5B, 0x32, 0x4A, 0x78, 0x82, 0x02, 0x61, 0x07]
        let tree = DERTree.parse(der)
        XCTAssertNil(tree.problem)
        XCTAssertEqual(tree.nodes.count, 3)
        for node in tree.nodes {
            XCTAssertFalse(node.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, node.text)
        }
        XCTAssertTrue(tree.nodes[1].value?.contains("[2Jx") == true, tree.nodes[1].text)
        XCTAssertEqual(tree.nodes[2].value, "61 07", "a non-printable implicit string is shown as hex")
    }

    /// A hostile encoding nested deeper than any certificate stops at the depth bound with the
    /// reason, and the elements before it are kept.
    func testDeepNestingStopsAtTheDepthBoundWithAReason() {
        var nested: [UInt8] = [0x05, 0x00]
        for _ in 0..<60 { nested = [0x30, UInt8(nested.count)] + nested }
        let tree = DERTree.parse(nested)
        XCTAssertEqual(tree.nodes.count, DERTree.maximumDepth + 1)
        XCTAssertTrue(tree.problem?.contains("depth \(DERTree.maximumDepth)") == true, tree.problem ?? "no problem")
    }

    /// Many elements side by side stop at the element bound, with the reason.
    func testElementFloodStopsAtTheElementBound() {
        let der = [UInt8](repeating: 0, count: 2 * (DERTree.maximumElements + 50)).enumerated().map {
            $0.offset % 2 == 0 ? UInt8(0x05) : 0x00
        }
        let tree = DERTree.parse(der)
        XCTAssertEqual(tree.nodes.count, DERTree.maximumElements)
        XCTAssertTrue(tree.problem?.contains("\(DERTree.maximumElements) elements") == true, tree.problem ?? "none")
    }
}
