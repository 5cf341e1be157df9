import ATSModel
import Foundation
import TrustCore
import TrustExport
import XCTest

final class LintRulesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every rule name written in the lint's source is in `ATSLint.rules`, and docs/lint.md has a
    /// row for each, so a new rule cannot ship undocumented.
    func testEveryRuleIsListedAndDocumented() throws {
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/TrustExport/ATSLint.swift"), encoding: .utf8)
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/lint.md"), encoding: .utf8)
        var written: Set<String> = []
        for marker in ["rule: \"", "? \"", ": \""] {
            var rest = Substring(source)
            while let r = rest.firstRange(of: marker) {
                let name = rest[r.upperBound...].prefix { $0 != "\"" }
                if !name.isEmpty, name.allSatisfy({ $0.isLowercase || $0 == "-" || $0 == "." || $0.isNumber }),
                    name.contains("-")
                {
                    written.insert(String(name))
                }
                rest = rest[r.upperBound...]
            }
        }
        XCTAssertTrue(written.isSubset(of: Set(ATSLint.rules)), "unlisted: \(written.subtracting(ATSLint.rules))")
        for rule in ATSLint.rules { XCTAssertTrue(doc.contains("`\(rule)`"), "docs/lint.md has no \(rule)") }
    }

    /// A key of thousands of characters next to known ones is judged quickly and is not taken
    /// for a misspelling (a hang guard for the edit distance over attacker-written keys).
    func testHugeKeysAreBoundedAndUnknown() throws {
        let huge = String(repeating: "NSAllowsArbitraryLoads", count: 5000)
        let root = PropertyListValue.dictionary([
            PropertyListEntry(
                key: "NSAppTransportSecurity",
                value: .dictionary((0..<200).map { PropertyListEntry(key: huge + "\($0)", value: .bool(true)) }))
        ])
        let findings = ATSLint.lint(root)
        XCTAssertEqual(findings.count, 200)
        XCTAssertTrue(findings.allSatisfy { $0.rule == "unknown-key" })
    }

    /// A finding about a key of 110,000 characters quotes it in a few hundred bytes: the key path,
    /// the message, the reason and the fix each stay bounded however large the Info.plist's keys.
    func testFindingsQuoteHugeKeysAndValuesShortly() throws {
        let huge = String(repeating: "NSAllowsArbitraryLoads", count: 5000)
        let root = PropertyListValue.dictionary([
            PropertyListEntry(
                key: "NSAppTransportSecurity",
                value: .dictionary([
                    PropertyListEntry(key: huge, value: .bool(true)),
                    PropertyListEntry(
                        key: "NSExceptionDomains",
                        value: .dictionary([
                            PropertyListEntry(
                                key: "*." + huge + ".example.com",
                                value: .dictionary([
                                    PropertyListEntry(key: "NSIncludesSubdomains", value: .string(huge))
                                ]))
                        ])),
                ]))
        ])
        let findings = ATSLint.lint(root)
        XCTAssertGreaterThanOrEqual(findings.count, 3)
        for finding in findings {
            XCTAssertLessThan(finding.keyPath.utf8.count, 1_000, finding.rule)
            for text in [finding.message, finding.why, finding.fix] {
                XCTAssertLessThanOrEqual(text.utf8.count, 600 + "… (000000 bytes)".utf8.count, finding.rule)
            }
        }
        XCTAssertTrue(
            findings.contains {
                $0.message.contains("(\(huge.utf8.count + 15) bytes)") || $0.keyPath.contains("bytes)")
            })
    }
}
