import ATSModel
import Foundation
import TrustCore
import XCTest

/// The NSAppTransportSecurity writer, read back by Foundation's property-list parser (an outside
/// implementation of the format).
final class ATSPlistWriterTests: XCTestCase {
    func parse(_ document: String) throws -> [String: Any] {
        let plist = try PropertyListSerialization.propertyList(from: Data(document.utf8), format: nil)
        let top = try XCTUnwrap(plist as? [String: Any])
        return try XCTUnwrap(top["NSAppTransportSecurity"] as? [String: Any])
    }

    func testTheDefaultsAreAnEmptyDictionary() throws {
        let c = ATSConfiguration()
        XCTAssertEqual(c.infoPlistFragment(), "<key>NSAppTransportSecurity</key>\n<dict/>\n")
        XCTAssertTrue(try parse(c.infoPlistDocument()).isEmpty)
    }

    func testEveryKeyThatIsSetIsReadBackAsWritten() throws {
        let pin = String(repeating: "A", count: 43) + "="
        let c = ATSConfiguration(
            allowsArbitraryLoads: false, allowsLocalNetworking: true,
            exceptionDomains: [
                ATSExceptionDomain(
                    domain: "a&b<c>.example", includesSubdomains: true, allowsInsecureHTTPLoads: true,
                    minimumTLSVersionText: "TLSv1.1", requiresForwardSecrecy: false)
            ],
            pinnedDomains: [
                PinnedDomain(
                    domain: "pinned.example", includesSubdomains: true, leafIdentities: [],
                    caIdentities: [PinnedIdentity(text: pin)])
            ])
        let ats = try parse(c.infoPlistDocument())
        XCTAssertEqual(ats["NSAllowsArbitraryLoads"] as? Bool, false)
        XCTAssertEqual(ats["NSAllowsLocalNetworking"] as? Bool, true)
        XCTAssertNil(ats["NSAllowsArbitraryLoadsForMedia"], "absent keys stay absent")
        let e = try XCTUnwrap((ats["NSExceptionDomains"] as? [String: [String: Any]])?["a&b<c>.example"])
        XCTAssertEqual(e["NSIncludesSubdomains"] as? Bool, true)
        XCTAssertEqual(e["NSExceptionAllowsInsecureHTTPLoads"] as? Bool, true)
        XCTAssertEqual(e["NSExceptionMinimumTLSVersion"] as? String, "TLSv1.1")
        XCTAssertEqual(e["NSExceptionRequiresForwardSecrecy"] as? Bool, false)
        XCTAssertNil(e["NSRequiresCertificateTransparency"])
        let p = try XCTUnwrap((ats["NSPinnedDomains"] as? [String: [String: Any]])?["pinned.example"])
        XCTAssertEqual(p["NSIncludesSubdomains"] as? Bool, true)
        XCTAssertEqual((p["NSPinnedLeafIdentities"] as? [Any])?.count, 0, "an empty array is written, not dropped")
        XCTAssertEqual(p["NSPinnedCAIdentities"] as? [[String: String]], [["SPKI-SHA256-BASE64": pin]])
        // The fragment is the document's inner part, one tab less deep.
        XCTAssertTrue(c.infoPlistFragment().hasPrefix("<key>NSAppTransportSecurity</key>\n<dict>\n\t<key>"))
    }
}
