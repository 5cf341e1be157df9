import Foundation
import TrustCore
import TrustExport
import XCTest

final class PinnedDomainsExportTests: XCTestCase {
    func settings(_ chain: ExportChain, pins: [[UInt8]], includesSubdomains: Bool = false) -> ExportSettings {
        ExportSettings(
            host: "www.example.com", policy: .ssl(host: "www.example.com"), pins: pins, path: chain.path,
            includesSubdomains: includesSubdomains)
    }

    /// The parsed Info.plist's entry for `domain`.
    func entry(
        _ plist: String, _ domain: String = "www.example.com", file: StaticString = #filePath, line: UInt = #line
    )
        throws -> [String: Any]
    {
        let root = try PropertyListSerialization.propertyList(from: Data(plist.utf8), options: [], format: nil)
        let ats = try XCTUnwrap(
            (root as? [String: Any])?["NSAppTransportSecurity"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(Set(ats.keys), ["NSPinnedDomains"], file: file, line: line)
        let pinned = try XCTUnwrap(ats["NSPinnedDomains"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(Array(pinned.keys), [domain], file: file, line: line)
        return try XCTUnwrap(pinned[domain] as? [String: Any], file: file, line: line)
    }

    func identities(_ entry: [String: Any], _ key: String) -> [String]? {
        (entry[key] as? [[String: Any]])?.map { $0["SPKI-SHA256-BASE64"] as? String ?? "?" }
    }

    func testALeafPinAndACAPinGoToTheirCategoriesAndParseWithFoundation() throws {
        let chain = try ExportChain.make()
        let s = settings(chain, pins: [chain.leaf.spkiSHA256, chain.root.spkiSHA256])
        let e = try entry(PinnedDomainsExport.infoPlist(s))
        XCTAssertEqual(identities(e, "NSPinnedLeafIdentities"), [chain.leaf.spkiPin])
        XCTAssertEqual(identities(e, "NSPinnedCAIdentities"), [chain.root.spkiPin])
        XCTAssertEqual(e["NSIncludesSubdomains"] as? Bool, false)
    }

    func testTheFragmentMergesIntoATopLevelDictionary() throws {
        let chain = try ExportChain.make()
        let fragment = PinnedDomainsExport.fragment(
            settings(chain, pins: [chain.intermediate.spkiSHA256, chain.root.spkiSHA256]))
        let document =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
            + "<key>CFBundleName</key><string>App</string>\n" + fragment + "</dict>\n</plist>\n"
        let e = try entry(document)
        XCTAssertNil(e["NSPinnedLeafIdentities"])
        XCTAssertEqual(identities(e, "NSPinnedCAIdentities"), [chain.intermediate.spkiPin, chain.root.spkiPin])
    }

    func testAPinMatchingNoCertificateIsOnlyInAComment() throws {
        let chain = try ExportChain.make()
        let stranger = [UInt8](repeating: 7, count: 32)
        let plist = PinnedDomainsExport.infoPlist(
            settings(chain, pins: [chain.leaf.spkiSHA256, chain.intermediate.spkiSHA256, stranger]))
        let e = try entry(plist)
        XCTAssertEqual(identities(e, "NSPinnedLeafIdentities"), [chain.leaf.spkiPin])
        XCTAssertEqual(identities(e, "NSPinnedCAIdentities"), [chain.intermediate.spkiPin])
        let strangerText = Data(stranger).base64EncodedString()
        let line = try XCTUnwrap(plist.split(separator: "\n").first { $0.contains(strangerText) })
        XCTAssertTrue(line.trimmingCharacters(in: .whitespaces).hasPrefix("<!-- Left out: "), String(line))
    }

    func testOnePinGetsABackupReminderAndTwoDoNot() throws {
        let chain = try ExportChain.make()
        let one = PinnedDomainsExport.infoPlist(settings(chain, pins: [chain.intermediate.spkiSHA256]))
        XCTAssertTrue(one.contains("<!-- Only one pin: "), one)
        let two = PinnedDomainsExport.infoPlist(
            settings(chain, pins: [chain.intermediate.spkiSHA256, chain.root.spkiSHA256]))
        XCTAssertFalse(two.contains("Only one pin"), two)
        // A repeated pin is still one pin.
        let same = PinnedDomainsExport.infoPlist(
            settings(chain, pins: [chain.root.spkiSHA256, chain.root.spkiSHA256]))
        XCTAssertTrue(same.contains("<!-- Only one pin: "), same)
        XCTAssertEqual(identities(try entry(same), "NSPinnedCAIdentities"), [chain.root.spkiPin])
    }

    func testLeafOnlyPinsAreFlaggedAndBothCategoriesExplainTheAND() throws {
        let chain = try ExportChain.make()
        let leafOnly = PinnedDomainsExport.infoPlist(settings(chain, pins: [chain.leaf.spkiSHA256]))
        XCTAssertTrue(leafOnly.contains("<!-- Leaf pins only: "))
        let both = PinnedDomainsExport.infoPlist(settings(chain, pins: [chain.leaf.spkiSHA256, chain.root.spkiSHA256]))
        XCTAssertTrue(both.contains("a leaf pin AND a CA pin"))
    }

    func testNoMatchingPinListsThePathsKeysAndPinsNothing() throws {
        let chain = try ExportChain.make()
        let plist = PinnedDomainsExport.infoPlist(settings(chain, pins: []))
        let e = try entry(plist)
        XCTAssertNil(e["NSPinnedLeafIdentities"])
        XCTAssertNil(e["NSPinnedCAIdentities"])
        for c in chain.path { XCTAssertTrue(plist.contains(c.spkiPin), "no candidate \(c.spkiPin)") }
    }

    func testIncludesSubdomainsAsSetAndTheKeyIsTheHostInLowerCaseWithoutTrailingDot() throws {
        let chain = try ExportChain.make()
        var s = settings(chain, pins: [chain.root.spkiSHA256], includesSubdomains: true)
        s.policy = .ssl(host: "WWW.Example.COM.")
        let e = try entry(PinnedDomainsExport.infoPlist(s), "www.example.com")
        XCTAssertEqual(e["NSIncludesSubdomains"] as? Bool, true)
    }

    func testHostileCertificateNamesCannotAddKeysOrBreakTheDocument() throws {
        let evil = "x --> <key>NSAllowsArbitraryLoads</key><true/> <!-- \n & \u{202E}"
        let chain = try ExportChain.make(rootName: evil, leafName: evil)
        let plist = PinnedDomainsExport.infoPlist(
            settings(chain, pins: [chain.leaf.spkiSHA256, chain.root.spkiSHA256]))
        let e = try entry(plist)
        XCTAssertEqual(Set(e.keys), ["NSIncludesSubdomains", "NSPinnedLeafIdentities", "NSPinnedCAIdentities"])
        XCTAssertTrue(
            plist.unicodeScalars.allSatisfy { $0 == "\n" || $0 == "\t" || ($0.value >= 0x20 && $0.value < 0x7F) })
    }
}
