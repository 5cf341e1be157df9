import XCTest

@testable import ATSModel

/// The 26 releases (docs/ats.md, "Platforms"). Expected values from Security-61901:
/// protocol/SecProtocol.c, `sec_protocol_options_get_default_min_tls_protocol_version`, returns TLS
/// 1.2 for a program built with the fall-2025 (26) SDKs and TLS 1.0 otherwise;
/// protocol/SecProtocolConfiguration.m leaves the minimum unset where ATS does not apply and sets
/// an NSExceptionMinimumTLSVersion explicitly; protocol/SecProtocolPriv.h declares the fall-2025
/// set as macOS, iOS, tvOS, watchOS and visionOS 26.0.
final class ATSPlatformTests: XCTestCase {
    static let releases26: [ATSPlatform] = [.ios26, .macos26, .tvos26, .watchos26, .visionos26]

    func testThe26ReleasesAreTheOnesSecProtocolPrivDeclares() {
        XCTAssertEqual(Set(ATSPlatform.allCases.filter(\.is26)), Set(Self.releases26))
        XCTAssertEqual(ATSPlatform.current, .ios26)
        XCTAssertEqual(ATSSettings().platform, .ios26, "new settings get the 26 SDK")
    }

    func testTheDefaultMinimumIsTLS12From26SDKsAndTLS10Before() {
        for p in Self.releases26 { XCTAssertEqual(p.defaultMinimumTLSVersion, .tls1_2, p.rawValue) }
        XCTAssertEqual(ATSPlatform.ios17.defaultMinimumTLSVersion, .tls1_0)
        XCTAssertEqual(ATSPlatform.ios16.defaultMinimumTLSVersion, .tls1_0)
    }

    func testThe26ReleasesCoverIPAddressesAsIOS17Does() {
        let c = ATSConfiguration()
        for p in Self.releases26 + [.ios17] {
            XCTAssertTrue(ATSSettings(configuration: c, platform: p).policy(forHost: "93.184.215.14").enforced, "\(p)")
        }
        XCTAssertFalse(ATSSettings(configuration: c, platform: .ios16).policy(forHost: "93.184.215.14").enforced)
    }

    func testArbitraryLoadsOnA26SDKStillNameTheTLS12Floor() {
        let c = ATSConfiguration(allowsArbitraryLoads: true)
        let p = ATSSettings(configuration: c, platform: .ios26).policy(forHost: "legacy.example.com")
        XCTAssertFalse(p.enforced)
        XCTAssertEqual(p.minimumTLSVersion, .tls1_2)
        XCTAssertTrue(p.notes.contains(ATSSettings.floorNote), "\(p.notes)")
        XCTAssertTrue(ATSSettings.floorNote.contains("sec_protocol_options_get_default_min_tls_protocol_version"))
        // Older SDKs keep their policy as it was, notes included.
        let old = ATSSettings(configuration: c, platform: .ios17).policy(forHost: "legacy.example.com")
        XCTAssertEqual(old.notes, [])
    }

    func testALocalHostOnA26SDKNamesTheFloorButPlainHTTPDoesNot() {
        let https = ATSSettings(platform: .macos26).policy(forHost: "localhost")
        XCTAssertFalse(https.enforced)
        XCTAssertTrue(https.notes.contains(ATSSettings.floorNote))
        let http = ATSSettings(platform: .macos26, scheme: .http).policy(forHost: "localhost")
        XCTAssertFalse(http.notes.contains(ATSSettings.floorNote), "no TLS, no TLS floor")
    }

    func testAnExplicitExceptionBelowTLS12StaysOnA26SDKWithItsDoubt() {
        for text in ["TLSv1.0", "TLSv1.1"] {
            let c = ATSConfiguration(exceptionDomains: [
                .init(domain: "legacy.example.com", minimumTLSVersionText: text)
            ])
            let p = ATSSettings(configuration: c, platform: .ios26).policy(forHost: "legacy.example.com")
            XCTAssertTrue(p.enforced)
            XCTAssertEqual(p.minimumTLSVersion, TLSVersion(text), text)
            XCTAssertEqual(p.notes.filter { $0.contains("is not known") }.count, 1, "\(p.notes)")
            let old = ATSSettings(configuration: c, platform: .ios17).policy(forHost: "legacy.example.com")
            XCTAssertEqual(old.notes, [], text)
        }
        let c = ATSConfiguration(exceptionDomains: [.init(domain: "a.example.com", minimumTLSVersionText: "TLSv1.3")])
        XCTAssertEqual(ATSSettings(configuration: c, platform: .ios26).policy(forHost: "a.example.com").notes, [])
    }
}
