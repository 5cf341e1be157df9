import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustOptions
import TrustSupport

/// Each setting as the explorer's copied command writes it (its declaration's writer), given to
/// `trustx check` itself: the report's settings are those of the value written (D380). The
/// expected JSON comes from the value through the engine's own names (TrustPolicy.identifier,
/// the enums' raw values), not from a run.
@Suite(.serialized, .onTestThreads) final class SettingsRoundTripCLITests {
    let pki: TestPKI
    static let at = Timestamp(rfc3339: "2027-01-01T00:00:00Z")!

    init() throws { pki = try TestPKI.get() }

    /// The settings a chain from files can take (the connection's are refused for files, and
    /// --revocation would fetch), one changed from the defaults at a time.
    static var variants: [(String, CheckSettings)] {
        var out: [(String, CheckSettings)] = [("defaults", CheckSettings())]
        func one(_ name: String, _ change: (inout CheckSettings) -> Void) {
            var s = CheckSettings()
            change(&s)
            out.append((name, s))
        }
        one("with-system-anchors") { $0.anchorsOnly = false }
        one("anchor-class") { $0.anchorClass = .device }
        one("ssl-no-host") { $0.policy = .sslWithoutHost }
        one("host") { $0.host = .typed("127.0.0.1") }
        one("basic") { $0.policy = .basicX509 }
        one("basic with a host") {
            $0.policy = .basicX509
            $0.host = .typed("127.0.0.1")
        }
        one("pins") { $0.pins = [[UInt8](repeating: 7, count: 32)] }
        one("at") { $0.time = at }
        one("profile") { $0.profile = .webpki }
        one("client") { $0.client = .safari }
        one("require-revocation") { $0.requireRevocation = true }
        one("store") { $0.store = .openssl }
        return out
    }

    @Test func testEverySettingTheCopiedCommandWritesIsTheOneCheckEvaluatesWith() throws {
        let context = SettingContext(isServer: false, targetHost: "")
        let runs = Self.variants.map { _, settings in
            ["check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--format", "json"]
                + (CheckSetting.anchors + CheckSetting.written).flatMap { $0.arguments(settings, context) }
        }
        for ((name, settings), outcome) in zip(Self.variants, CLI.runAll(runs)) {
            let r = try outcome.get()
            let doc = try r.json()
            let s = try #require(doc["settings"] as? [String: Any], "\(name): \(r.err)")
            let policy = settings.trustPolicy(targetHost: "")
            #expect(s["policy"] as? String == policy.identifier, "\(name)")
            #expect(s["host"] as? String == (policy.host ?? settings.hostIgnoredByPolicy(targetHost: "")), "\(name)")
            #expect(s["anchorClass"] as? String == settings.anchorClass.rawValue, "\(name)")
            #expect(s["anchorsOnly"] as? Bool == settings.anchorsOnly, "\(name)")
            #expect(
                s["pins"] as? [String] == settings.pins.map { "sha256//" + Base64.encode($0) }, "\(name)")
            let mode = (s["evaluationTime"] as? [String: Any])?["mode"] as? String
            #expect(mode == (settings.time == nil ? "now" : "fixed"), "\(name)")
            if let time = settings.time { #expect(s["at"] as? String == time.rfc3339, "\(name)") }
            #expect(s["profile"] as? String == settings.profile.rawValue, "\(name)")
            #expect(s["revocationRequired"] as? Bool == settings.requireRevocation, "\(name)")
            #expect(s["client"] as? String == settings.client.rawValue, "\(name)")
            // Apple's store names itself; this machine's is named by where it was found.
            #expect((s["store"] as? String == "apple") == (settings.store == .apple), "\(name)")
        }
    }
}
