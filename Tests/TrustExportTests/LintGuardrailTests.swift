import ATSModel
import Foundation
import TrustBuilder
import TrustExport
import XCTest

/// The lint's guardrails, each on an Info.plist that breaks only it, judged in process on the
/// XML as written and on its binary1 form (made by Foundation's property-list writer, the code
/// behind plutil). `trustx lint`'s own parsing, exit statuses and text are LintCLITests'; the
/// rules and their reasons are in docs/lint.md.
final class LintGuardrailTests: XCTestCase {
    /// Two distinct SHA-256 digests in base64 (their value does not matter to the lint).
    static let pinA = Data(repeating: 0xA1, count: 32).base64EncodedString()
    static let pinB = Data(repeating: 0xB2, count: 32).base64EncodedString()

    /// Lints `xml` as written and, unless `binary` is false, its binary1 form; returns each
    /// form's findings as `trustx lint --format json` writes them.
    func lint(_ xml: String, binary: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws
        -> [(form: String, findings: [[String: Any]])]
    {
        var forms = [("xml", Array(xml.utf8))]
        if binary {
            let value = try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil)
            let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
            XCTAssertTrue(data.starts(with: Data("bplist00".utf8)), file: file, line: line)
            forms.append(("binary", Array(data)))
        }
        return try forms.map { form, bytes in
            let json = LintReport.json(ATSLint.lint(try PropertyList.parse(bytes)), file: "Info.plist")
            let doc = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], file: file, line: line)
            let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]], file: file, line: line)
            return (form, findings)
        }
    }

    /// Asserts that linting `xml` (both forms) finds `rule` at `path` with its message, why and fix.
    @discardableResult
    func assertFlags(
        _ xml: String, rule: String, path: String, severity: String = "error", binary: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String: Any]? {
        var found: [String: Any]?
        for run in try lint(xml, binary: binary, file: file, line: line) {
            let match = run.findings.first { $0["rule"] as? String == rule && $0["path"] as? String == path }
            XCTAssertNotNil(
                match, "\(run.form): no \(rule) at \(path) in \(run.findings.map { "\($0["rule"]!) \($0["path"]!)" })",
                file: file, line: line)
            XCTAssertEqual(match?["severity"] as? String, severity, file: file, line: line)
            for key in ["message", "why", "fix"] {
                XCTAssertFalse((match?[key] as? String ?? "").isEmpty, "\(key) is empty", file: file, line: line)
            }
            found = match
        }
        return found
    }

    func testAnInfoPlistWithoutATSPasses() throws {
        for run in try lint(InfoPlistText.document("<key>CFBundleVersion</key><string>1</string>")) {
            XCTAssertTrue(run.findings.isEmpty, "\(run.findings)")
        }
    }

    // MARK: - Guardrails

    func testArbitraryLoadsIgnoredBesideLocalNetworkingIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats("<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><true/>"),
            rule: "arbitrary-loads-ignored", path: "NSAppTransportSecurity.NSAllowsArbitraryLoads", severity: "warning")
    }

    func testArbitraryLoadsInWebContentIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats("<key>NSAllowsArbitraryLoadsInWebContent</key><true/>"), rule: "arbitrary-loads-web",
            path: "NSAppTransportSecurity.NSAllowsArbitraryLoadsInWebContent", severity: "warning")
    }

    func testAPinnedDomainWithOnePinIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(InfoPlistText.pinned(InfoPlistText.pins([Self.pinA]))), rule: "pins-fewer-than-two",
            path: "NSAppTransportSecurity.NSPinnedDomains.api.example.com")
    }

    func testTheSamePinTwiceIsStillOnePin() throws {
        let xml = InfoPlistText.ats(InfoPlistText.pinned(InfoPlistText.pins([Self.pinA, Self.pinA])))
        try assertFlags(
            xml, rule: "pins-fewer-than-two", path: "NSAppTransportSecurity.NSPinnedDomains.api.example.com")
        try assertFlags(
            xml, rule: "duplicate-pin",
            path: "NSAppTransportSecurity.NSPinnedDomains.api.example.com.NSPinnedCAIdentities[1].SPKI-SHA256-BASE64",
            severity: "warning")
    }

    func testAPinThatIsNotThirtyTwoBytesOfBase64IsFlagged() throws {
        let short = Data(repeating: 1, count: 20).base64EncodedString()  // a SHA-1's length
        for bad in [short, "not base64!", "sha256//" + Self.pinB] {
            let finding = try assertFlags(
                InfoPlistText.ats(InfoPlistText.pinned(InfoPlistText.pins([Self.pinA, bad]))), rule: "pin-not-sha256",
                path:
                    "NSAppTransportSecurity.NSPinnedDomains.api.example.com.NSPinnedCAIdentities[1].SPKI-SHA256-BASE64")
            if bad.hasPrefix("sha256//") {
                XCTAssertEqual(finding?["fix"] as? String, "Drop the sha256// prefix: ATS wants the bare base64.")
            }
        }
    }

    func testAnEmptyIdentitiesArrayIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(
                InfoPlistText.pinned(
                    InfoPlistText.pins([Self.pinA, Self.pinB]) + InfoPlistText.pins([], key: "NSPinnedLeafIdentities"))),
            rule: "pins-empty-array",
            path: "NSAppTransportSecurity.NSPinnedDomains.api.example.com.NSPinnedLeafIdentities")
    }

    func testLeafOnlyPinsAreFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(
                InfoPlistText.pinned(InfoPlistText.pins([Self.pinA, Self.pinB], key: "NSPinnedLeafIdentities"))),
            rule: "leaf-pins-only",
            path: "NSAppTransportSecurity.NSPinnedDomains.api.example.com.NSPinnedLeafIdentities", severity: "warning")
    }

    func testAPinnedDomainWithoutIdentitiesIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(InfoPlistText.pinned("<key>NSIncludesSubdomains</key><true/>")),
            rule: "pinned-domain-without-identities",
            path: "NSAppTransportSecurity.NSPinnedDomains.api.example.com")
    }

    func testAMisspeltKeyIsFlaggedWithTheKeyItMeant() throws {
        let finding = try assertFlags(
            InfoPlistText.ats(InfoPlistText.exception("<key>NSIncludesSubDomains</key><true/>")), rule: "misspelt-key",
            path: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSIncludesSubDomains")
        XCTAssertEqual(finding?["fix"] as? String, "Write NSIncludesSubdomains.")
        try assertFlags(
            InfoPlistText.document("<key>NSAppTransportSecurty</key><dict/>"), rule: "misspelt-key",
            path: "NSAppTransportSecurty")
        try assertFlags(
            InfoPlistText.ats("<key>NSAllowArbitraryLoads</key><true/>"), rule: "misspelt-key",
            path: "NSAppTransportSecurity.NSAllowArbitraryLoads")
    }

    func testAnUnknownKeyIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats("<key>NSAllowsEverything</key><true/>"), rule: "unknown-key",
            path: "NSAppTransportSecurity.NSAllowsEverything", severity: "warning")
    }

    func testAMisspeltTLSVersionIsFlaggedWithTheExactSpelling() throws {
        for (written, fix) in [("TLSV1.2", "Write TLSv1.2."), ("1.3", "Write TLSv1.3."), ("TLSv1_2", nil)] {
            let finding = try assertFlags(
                InfoPlistText.ats(
                    InfoPlistText.exception("<key>NSExceptionMinimumTLSVersion</key><string>\(written)</string>")),
                rule: "tls-version-spelling",
                path: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSExceptionMinimumTLSVersion")
            if let fix { XCTAssertEqual(finding?["fix"] as? String, fix) }
        }
    }

    func testAMinimumBelowTLS12IsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(
                InfoPlistText.exception("<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string>")),
            rule: "tls-version-below-1.2",
            path: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSExceptionMinimumTLSVersion",
            severity: "warning")
    }

    func testAStringWhereABooleanIsNeededIsFlagged() throws {
        let finding = try assertFlags(
            InfoPlistText.ats("<key>NSAllowsLocalNetworking</key><string>YES</string>"), rule: "wrong-type",
            path: "NSAppTransportSecurity.NSAllowsLocalNetworking")
        XCTAssertEqual(finding?["fix"] as? String, "Write <true/> instead of the string 'YES'.")
    }

    func testAStringBooleanDoesNotCountAsPresentForTheArbitraryLoadsRule() throws {
        // ATS skips a value of the wrong type as if absent, so NSAllowsArbitraryLoads is not ignored.
        for run in try lint(
            InfoPlistText.ats(
                "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><string>YES</string>"))
        {
            XCTAssertFalse(run.findings.contains { $0["rule"] as? String == "arbitrary-loads-ignored" }, run.form)
        }
    }

    func testANumberWhereABooleanIsNeededIsAWarningSaysWhatItMeans() throws {
        let finding = try assertFlags(
            InfoPlistText.ats("<key>NSAllowsLocalNetworking</key><integer>2</integer>"), rule: "wrong-type",
            path: "NSAppTransportSecurity.NSAllowsLocalNetworking", severity: "warning")
        XCTAssertEqual(finding?["fix"] as? String, "Write <false/>.")
        // NSPinnedDomains' NSIncludesSubdomains counts only as a boolean true.
        try assertFlags(
            InfoPlistText.ats(
                InfoPlistText.pinned(
                    "<key>NSIncludesSubdomains</key><integer>1</integer>" + InfoPlistText.pins([Self.pinA, Self.pinB]))),
            rule: "wrong-type", path: "NSAppTransportSecurity.NSPinnedDomains.api.example.com.NSIncludesSubdomains")
    }

    func testAnObsoleteExceptionKeyIsFlaggedWithItsReplacement() throws {
        let finding = try assertFlags(
            InfoPlistText.ats(
                InfoPlistText.exception("<key>NSTemporaryExceptionMinimumTLSVersion</key><string>TLSv1.2</string>")),
            rule: "obsolete-key",
            path: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSTemporaryExceptionMinimumTLSVersion",
            severity: "warning")
        XCTAssertEqual(
            finding?["fix"] as? String,
            "Use NSExceptionMinimumTLSVersion if the exception is still needed, else remove the key.")
    }

    func testAnATSKeyAtTheTopOfAnInfoPlistIsFlagged() throws {
        try assertFlags(
            InfoPlistText.document("<key>NSAllowsArbitraryLoads</key><true/>"), rule: "misplaced-key",
            path: "NSAllowsArbitraryLoads")
    }

    func testAFileOfOnlyATSKeysIsTheATSDictionary() throws {
        let fragment = InfoPlistText.document("").replacingOccurrences(
            of: "<key>CFBundleName</key><string>App</string>", with: "<key>NSAllowsArbitraryLoads</key><true/>")
        try assertFlags(fragment, rule: "arbitrary-loads", path: "NSAllowsArbitraryLoads")
    }

    func testAnExceptionDomainInUpperCaseIsFlagged() throws {
        let finding = try assertFlags(
            InfoPlistText.ats(InfoPlistText.exception("", domain: "Legacy.Example.com")), rule: "domain-upper-case",
            path: "NSAppTransportSecurity.NSExceptionDomains.Legacy.Example.com")
        XCTAssertEqual(finding?["fix"] as? String, "Write legacy.example.com.")
    }

    func testAnExceptionDomainWithAPortIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(InfoPlistText.exception("", domain: "legacy.example.com:8443")), rule: "domain-port",
            path: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com:8443")
    }

    func testAnExceptionDomainWithAWildcardIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(InfoPlistText.exception("", domain: "*.example.com")), rule: "domain-wildcard",
            path: "NSAppTransportSecurity.NSExceptionDomains.*.example.com")
    }

    func testAnExceptionDomainWithASchemeIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(InfoPlistText.exception("", domain: "https://legacy.example.com")), rule: "domain-scheme",
            path: "NSAppTransportSecurity.NSExceptionDomains.https://legacy.example.com")
    }

    func testIPAddressesAndCIDRRangesAreValidExceptionDomains() throws {
        for domain in ["192.0.2.10", "2001:db8::1", "10.0.0.0/8"] {
            let xml = InfoPlistText.ats(
                InfoPlistText.exception("<key>NSIncludesSubdomains</key><false/>", domain: domain))
            for run in try lint(xml) { XCTAssertTrue(run.findings.isEmpty, "\(domain) \(run.form): \(run.findings)") }
        }
    }

    func testInsecureHTTPLoadsIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(InfoPlistText.exception("<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>")),
            rule: "insecure-http",
            path: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSExceptionAllowsInsecureHTTPLoads",
            severity: "warning")
    }

    func testForwardSecrecyOffIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(InfoPlistText.exception("<key>NSExceptionRequiresForwardSecrecy</key><false/>")),
            rule: "forward-secrecy-off",
            path: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSExceptionRequiresForwardSecrecy",
            severity: "warning")
    }

    func testObsoleteCertificateTransparencyIsFlagged() throws {
        try assertFlags(
            InfoPlistText.ats(InfoPlistText.exception("<key>NSRequiresCertificateTransparency</key><true/>")),
            rule: "certificate-transparency-obsolete",
            path: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSRequiresCertificateTransparency",
            severity: "note")
    }

    func testARepeatedKeyIsFlagged() throws {
        // Only XML can hold a repeated key: a binary conversion keeps one.
        try assertFlags(
            InfoPlistText.ats("<key>NSAllowsLocalNetworking</key><true/><key>NSAllowsLocalNetworking</key><false/>"),
            rule: "duplicate-key", path: "NSAppTransportSecurity.NSAllowsLocalNetworking", binary: false)
    }
}
