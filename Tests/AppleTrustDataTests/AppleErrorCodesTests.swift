import AppleTrustData
import Foundation
import TrustSupport
import TrustX509
import XCTest

/// The generated error-code table against the header lines it was generated from
/// (scripts/apple-trust-data/error-codes/SecBase.h.excerpt, read here with a parser of its own)
/// and the URL loading list written from Apple's NSURLError.h and documentation.
final class AppleErrorCodesTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/apple-trust-data/error-codes")

    /// `name = value` (or `= otherName`) of every constant line of the excerpt, its comment aside.
    func headerConstants() throws -> [(name: String, value: String)] {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("SecBase.h.excerpt"), encoding: .utf8)
        var out: [(String, String)] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("errSec") || trimmed.hasPrefix("errSSL"), let equals = trimmed.firstIndex(of: "=")
            else { continue }
            let name = trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            let value = trimmed[trimmed.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
                .prefix { $0 != "," && $0 != " " && $0 != "\t" }
            out.append((String(name), String(value)))
        }
        return out
    }

    func testEverySecurityConstantIsInTheTableWithItsHeaderName() throws {
        let constants = try headerConstants()
        XCTAssertGreaterThan(constants.count, 400)
        XCTAssertEqual(constants.count, AppleErrorCodes.osstatus.count)
        let values = Dictionary(
            constants.compactMap { c in Int(c.value).map { (c.name, $0) } }, uniquingKeysWith: { a, _ in a })
        for (index, constant) in constants.enumerated() where index < AppleErrorCodes.osstatus.count {
            let record = AppleErrorCodes.osstatus[index]
            XCTAssertEqual(record.name, constant.name)
            if let value = Int(constant.value) {
                XCTAssertEqual(record.code, value, constant.name)
                XCTAssertNil(record.aliasOf, constant.name)
            } else {
                XCTAssertEqual(record.aliasOf, constant.value, constant.name)
                XCTAssertEqual(record.code, values[constant.value], constant.name)
            }
            XCTAssertEqual(
                record.domain, constant.name.hasPrefix("errSSL") ? .secureTransport : .security, constant.name)
        }
    }

    func testCodesTheEngineAndXcodeUseHaveTheHeadersValues() {
        // Written from Apple's SecBase.h and NSURLError.h by hand, not from the table.
        let expected: [(String, Int)] = [
            ("errSecHostNameMismatch", -67602), ("errSecCreateChainFailed", -25318), ("errSecNotTrusted", -67843),
            ("errSecCertificateExpired", -67818), ("errSSLNoRootCert", -9813), ("errSSLFatalAlert", -9802),
            ("errSSLPeerProtocolVersion", -9836), ("errSSLATSViolation", -9880),
            ("NSURLErrorServerCertificateUntrusted", -1202), ("NSURLErrorSecureConnectionFailed", -1200),
            ("NSURLErrorCancelled", -999), ("NSURLErrorAppTransportSecurityRequiresSecureConnection", -1022),
        ]
        let all = AppleErrorCodes.osstatus + AppleErrorCodes.urlErrors
        for (name, code) in expected {
            XCTAssertEqual(all.first { $0.name == name }?.code, code, name)
        }
    }

    func testEveryURLErrorOfTheListIsInTheTable() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("url-errors.txt"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
        XCTAssertEqual(rows.count, AppleErrorCodes.urlErrors.count)
        for (row, record) in zip(rows, AppleErrorCodes.urlErrors) {
            XCTAssertEqual(record.code, Int(row[0]))
            XCTAssertEqual(record.name, String(row[1]))
            XCTAssertEqual(record.meaning, String(row[2]))
            XCTAssertEqual(record.domain, .urlLoading)
        }
    }

    func testNoValueIsDefinedByTwoFamilies() {
        // A bare number in a paste is looked up in every family; none may be ambiguous.
        let security = Set(AppleErrorCodes.osstatus.map(\.code))
        let url = Set(AppleErrorCodes.urlErrors.map(\.code))
        XCTAssertEqual(security.intersection(url), [])
    }

    func testTheDigestMatchesTheCompiledValues() {
        let lines = (AppleErrorCodes.osstatus + AppleErrorCodes.urlErrors).map(\.canonicalLine).joined(separator: "\n")
        XCTAssertEqual(hexString(Digest.sha256(Array(lines.utf8))), AppleErrorCodes.dataSHA256)
    }
}
