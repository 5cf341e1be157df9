import ATSModel
import Foundation
import TrustCore
import TrustExport
import XCTest

final class LintRulesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every rule is a case of `LintRule`, `ATSLint.rules` lists them all, and docs/lint.md has a
    /// row for each and none for a rule that does not exist, so a new rule cannot ship undocumented.
    func testEveryRuleIsListedAndDocumented() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/lint.md"), encoding: .utf8)
        XCTAssertEqual(ATSLint.rules, LintRule.allCases.map(\.rawValue))
        for rule in LintRule.allCases {
            XCTAssertTrue(doc.contains("`\(rule.rawValue)`"), "docs/lint.md has no \(rule)")
        }
        // The rule column of the table: the backquoted names before the severity column.
        var documented: Set<String> = []
        for line in doc.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            for name in cell.split(separator: ",") {
                documented.insert(name.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]))
            }
        }
        XCTAssertEqual(documented, Set(ATSLint.rules), "docs/lint.md's rule table and LintRule differ")
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
