import XCTest

@testable import ATSModel
@testable import TrustCore

/// NSAppTransportSecurity decoding and the host policy, against the rules in docs/ats.md
/// (Apple's network-stack resolution: exception entries, ancestors, local hosts, global keys).
final class ATSPolicyTests: XCTestCase {
    func settings(_ c: ATSConfiguration, _ platform: ATSPlatform = .ios17) -> ATSSettings {
        ATSSettings(configuration: c, platform: platform)
    }

    func testDefaultsRequireTLS12AndForwardSecrecy() {
        let p = settings(ATSConfiguration()).policy(forHost: "www.example.com")
        XCTAssertTrue(p.enforced)
        XCTAssertEqual(p.minimumTLSVersion, .tls1_2)
        XCTAssertTrue(p.requiresForwardSecrecy)
        XCTAssertTrue(p.restrictsCipherSuites)
        XCTAssertFalse(p.allowsInsecureHTTP)
        XCTAssertNil(p.matchedException)
    }

    func testExceptionMatchesCaseInsensitivelyWithOneTrailingDot() {
        let c = ATSConfiguration(exceptionDomains: [.init(domain: "api.example.com", minimumTLSVersionText: "TLSv1.0")])
        let p = settings(c).policy(forHost: "API.Example.COM.")
        XCTAssertEqual(p.matchedException, "api.example.com")
        XCTAssertEqual(p.minimumTLSVersion, .tls1_0)
        XCTAssertNil(settings(c).policy(forHost: "api.example.com..").matchedException, "only one dot is removed")
    }

    func testMinimumTLSVersionTakesExactSpellingsOnly() {
        for (text, expected) in [
            ("TLSv1.0", TLSVersion.tls1_0), ("TLSv1.1", .tls1_1), ("TLSv1.3", .tls1_3), ("TLSV1.0", .tls1_2),
            ("1.0", .tls1_2), ("TLSv1_0", .tls1_2), ("tlsv1.1", .tls1_2), ("TLSv1.0 ", .tls1_2),
        ] {
            let c = ATSConfiguration(exceptionDomains: [.init(domain: "example.com", minimumTLSVersionText: text)])
            let p = settings(c).policy(forHost: "example.com")
            XCTAssertEqual(p.minimumTLSVersion, expected, text)
            XCTAssertEqual(p.notes.contains { $0.contains("is ignored") }, expected == .tls1_2, text)
        }
    }

    func testIncludesSubdomainsOneLevelAndTheAmbiguityBeyond() {
        let c = ATSConfiguration(exceptionDomains: [
            .init(domain: "example.com", includesSubdomains: true, requiresForwardSecrecy: false)
        ])
        let one = settings(c).policy(forHost: "www.example.com")
        XCTAssertEqual(one.matchedException, "example.com")
        XCTAssertFalse(one.requiresForwardSecrecy)
        XCTAssertEqual(one.reason, "matched by www.example.com's parent example.com with NSIncludesSubdomains")
        XCTAssertTrue(one.notes.isEmpty)
        let deep = settings(c).policy(forHost: "a.b.example.com")
        XCTAssertEqual(deep.matchedException, "example.com", "the implementation walks every ancestor")
        XCTAssertTrue(deep.reason.contains("Apple's documentation and implementation disagree"), deep.reason)
        XCTAssertTrue(deep.notes.contains { $0.contains("2 labels below example.com") })
        let without = ATSConfiguration(exceptionDomains: [.init(domain: "example.com", requiresForwardSecrecy: false)])
        XCTAssertNil(settings(without).policy(forHost: "www.example.com").matchedException)
        XCTAssertNil(settings(c).policy(forHost: "notexample.com").matchedException)
    }

    func testTheWalkSkipsAnAncestorWithoutIncludesSubdomains() {
        let c = ATSConfiguration(exceptionDomains: [
            .init(domain: "b.example.com", minimumTLSVersionText: "TLSv1.1"),
            .init(domain: "example.com", includesSubdomains: true, minimumTLSVersionText: "TLSv1.0"),
        ])
        XCTAssertEqual(settings(c).policy(forHost: "a.b.example.com").matchedException, "example.com")
        XCTAssertEqual(settings(c).policy(forHost: "b.example.com").matchedException, "b.example.com")
    }

    func testAnExceptionEntryReplacesTheGlobalKeys() {
        let c = ATSConfiguration(
            allowsArbitraryLoads: true, exceptionDomains: [.init(domain: "secure.example.com")])
        let excepted = settings(c).policy(forHost: "secure.example.com")
        XCTAssertTrue(excepted.enforced)
        XCTAssertFalse(excepted.allowsInsecureHTTP)
        XCTAssertTrue(excepted.notes.contains { $0.contains("replaces the global keys") })
        let other = settings(c).policy(forHost: "other.example.com")
        XCTAssertFalse(other.enforced)
        XCTAssertTrue(other.allowsInsecureHTTP)
    }

    func testArbitraryLoadsIsIgnoredWhenAnyOfTheThreeKeysIsPresent() {
        XCTAssertFalse(settings(ATSConfiguration(allowsArbitraryLoads: true)).policy(forHost: "example.com").enforced)
        for c in [
            ATSConfiguration(allowsArbitraryLoads: true, allowsArbitraryLoadsForMedia: false),
            ATSConfiguration(allowsArbitraryLoads: true, allowsArbitraryLoadsInWebContent: true),
            ATSConfiguration(allowsArbitraryLoads: true, allowsLocalNetworking: false),
        ] {
            let p = settings(c).policy(forHost: "example.com")
            XCTAssertTrue(p.enforced, "\(c)")
            XCTAssertTrue(p.notes.contains { $0.contains("NSAllowsArbitraryLoads is ignored") })
        }
    }

    func testLocalHostsAreExemptUnlessLocalNetworkingIsNo() {
        for host in [
            "localhost", "printer.local", "intranet", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "fe80::1",
            "169.254.10.1",
        ] {
            XCTAssertFalse(settings(ATSConfiguration()).policy(forHost: host).enforced, host)
            XCTAssertFalse(settings(ATSConfiguration(allowsLocalNetworking: true)).policy(forHost: host).enforced, host)
            XCTAssertTrue(settings(ATSConfiguration(allowsLocalNetworking: false)).policy(forHost: host).enforced, host)
        }
        for host in ["example.com", "local.example.com", "203.0.113.1", "10.0.0.1", "2001:db8::1"] {
            XCTAssertTrue(settings(ATSConfiguration()).policy(forHost: host).enforced, host)
        }
    }

    func testIOS17CoversIPAddressesAndTakesAddressAndCIDRExceptions() {
        let c = ATSConfiguration(exceptionDomains: [
            .init(domain: "203.0.113.0/24", minimumTLSVersionText: "TLSv1.1"),
            .init(domain: "203.0.113.128/25", minimumTLSVersionText: "TLSv1.0"),
            .init(domain: "198.51.100.7", requiresForwardSecrecy: false),
            .init(domain: "2001:db8::/32", minimumTLSVersionText: "TLSv1.3"),
        ])
        XCTAssertEqual(settings(c).policy(forHost: "198.51.100.7").matchedException, "198.51.100.7")
        XCTAssertEqual(settings(c).policy(forHost: "203.0.113.5").minimumTLSVersion, .tls1_1)
        XCTAssertEqual(settings(c).policy(forHost: "203.0.113.200").minimumTLSVersion, .tls1_0, "longest prefix")
        XCTAssertEqual(settings(c).policy(forHost: "2001:db8:1::5").minimumTLSVersion, .tls1_3)
        let unmatched = settings(c).policy(forHost: "192.0.2.1")
        XCTAssertTrue(unmatched.enforced)
        XCTAssertNil(unmatched.matchedException)
        XCTAssertTrue(unmatched.notes.contains { $0.contains("Since iOS 17 ATS covers IP addresses") })
        for host in ["192.0.2.1", "203.0.113.5", "2001:db8::1"] {
            XCTAssertFalse(settings(c, .ios16).policy(forHost: host).enforced, host)
        }
        XCTAssertTrue(settings(c, .ios16).policy(forHost: "example.com").enforced)
    }

    func testInsecureLoadsWithoutForwardSecrecyLeaveTheCiphersAlone() {
        let c = ATSConfiguration(exceptionDomains: [
            .init(domain: "a.example", allowsInsecureHTTPLoads: true, requiresForwardSecrecy: false),
            .init(domain: "b.example", allowsInsecureHTTPLoads: true),
            .init(domain: "c.example", requiresForwardSecrecy: false),
        ])
        let a = settings(c).policy(forHost: "a.example")
        XCTAssertTrue(a.allowsInsecureHTTP)
        XCTAssertFalse(a.restrictsCipherSuites)
        XCTAssertTrue(a.enforced, "the exception's TLS minimum still applies to https")
        XCTAssertTrue(settings(c).policy(forHost: "b.example").restrictsCipherSuites)
        XCTAssertTrue(settings(c).policy(forHost: "c.example").restrictsCipherSuites)
    }

    // MARK: decoding

    func testDecodesAWholeInfoPlistAndKeepsNotes() throws {
        let xml = """
            <plist version="1.0"><dict>
            <key>CFBundleName</key><string>App</string>
            <key>NSAppTransportSecurity</key><dict>
              <key>NSAllowsArbitraryLoad</key><true/>
              <key>NSAllowsLocalNetworking</key><integer>1</integer>
              <key>NSAllowsArbitraryLoadsInWebContent</key><string>YES</string>
              <key>NSExceptionDomains</key><dict>
                <key>example.com</key><dict>
                  <key>NSIncludesSubdomains</key><true/>
                  <key>NSExceptionMinimumTLSVersion</key><string>TLSV1.1</string>
                  <key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><true/>
                </dict>
              </dict>
              <key>NSPinnedDomains</key><dict>
                <key>pinned.example.com</key><dict>
                  <key>NSIncludesSubdomains</key><string>YES</string>
                  <key>NSPinnedLeafIdentities</key><array>
                    <dict><key>SPKI-SHA256-BASE64</key><string>r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=</string></dict>
                    <dict><key>SPKI-SHA256-BASE64</key><string>short</string></dict>
                    <string>not a dict</string>
                  </array>
                  <key>NSPinnedCAIdentities</key><array/>
                </dict>
              </dict>
            </dict></dict></plist>
            """
        let c = try ATSConfiguration.decode(try PropertyList.parse(Array(xml.utf8)))
        XCTAssertNil(c.allowsArbitraryLoads, "the misspelt key is not read")
        XCTAssertEqual(c.allowsLocalNetworking, true, "a number 1 reads as YES")
        XCTAssertNil(c.allowsArbitraryLoadsInWebContent, "a string is not a boolean")
        XCTAssertEqual(c.exceptionDomains.first?.minimumTLSVersionText, "TLSV1.1")
        XCTAssertNil(c.exceptionDomains.first?.minimumTLSVersion)
        let pinned = try XCTUnwrap(c.pinnedDomains.first)
        XCTAssertFalse(pinned.includesSubdomains)
        XCTAssertEqual(pinned.leafIdentities?.count, 3)
        XCTAssertEqual(pinned.leafIdentities?.compactMap(\.digest).count, 1)
        XCTAssertEqual(pinned.caIdentities, [])
        let notes = c.notes.map(\.description)
        XCTAssertTrue(
            notes.contains {
                $0.contains("NSAllowsArbitraryLoad: unknown key, ignored (did you mean NSAllowsArbitraryLoads?)")
            }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.contains("NSAllowsLocalNetworking: a number") })
        XCTAssertTrue(
            notes.contains { $0.contains("NSAllowsArbitraryLoadsInWebContent: must be a boolean, found a string") })
        XCTAssertTrue(notes.contains { $0.contains("'TLSV1.1' is not one of") })
        XCTAssertTrue(notes.contains { $0.contains("NSTemporaryExceptionAllowsInsecureHTTPLoads: obsolete key") })
        XCTAssertTrue(notes.contains { $0.contains("honours NSIncludesSubdomains only as <true/>") })
        XCTAssertTrue(notes.contains { $0.contains("'short' is not the base64 of 32 bytes") })
        XCTAssertTrue(notes.contains { $0.contains("[2]: a string, not a dictionary") })
    }

    func testDecodesABareATSDictionaryAndAnInfoPlistWithoutIt() throws {
        let bare = PropertyListValue.dictionary([.init(key: "NSAllowsArbitraryLoads", value: .bool(true))])
        XCTAssertEqual(try ATSConfiguration.decode(bare).allowsArbitraryLoads, true)
        let none = PropertyListValue.dictionary([.init(key: "CFBundleName", value: .string("App"))])
        let defaults = try ATSConfiguration.decode(none)
        XCTAssertEqual(defaults, ATSConfiguration())
        let wrong = PropertyListValue.dictionary([.init(key: "NSAppTransportSecurity", value: .array([]))])
        XCTAssertThrowsError(try ATSConfiguration.decode(wrong))
        XCTAssertThrowsError(try ATSConfiguration.decode(.array([])))
    }
}
