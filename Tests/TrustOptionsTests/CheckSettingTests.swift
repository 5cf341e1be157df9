import ATSModel
import Foundation
import Testing
import TrustCore
import TrustOptions
import TrustSupport
import TrustX509

/// A command line as `trustx check`'s parser reads it, from the declared arities alone.
struct ParsedWords: SettingArguments {
    var values: [String: [String]] = [:]

    init(_ words: [String]) throws {
        let options = Dictionary(
            uniqueKeysWithValues: CheckSetting.all.flatMap(\.options).map { ($0.flag, $0) })
        var i = 0
        while i < words.count {
            let option = try #require(options[words[i]], "\(words[i]) is declared by no setting")
            if option.arity == .flag {
                values[option.name, default: []].append("")
                i += 1
            } else {
                try #require(i + 1 < words.count, "\(words[i]) has no value")
                if !option.allowedValues.isEmpty {
                    #expect(option.allowedValues.contains(words[i + 1]), "\(words[i]) \(words[i + 1])")
                }
                values[option.name, default: []].append(words[i + 1])
                i += 2
            }
        }
    }

    func has(_ name: String) -> Bool { values[name] != nil }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// Each setting written as a copied command writes it and read back as `trustx check` reads it
/// gives the same settings (D380).
@Suite struct CheckSettingRoundTripTests {
    static let at = Timestamp(rfc3339: "2027-01-01T00:00:00Z")!
    static let now = Timestamp(rfc3339: "2026-12-06T00:00:00Z")!

    /// One value changed from the defaults for each setting, and some together.
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
        one("typed host") { $0.host = .typed("other.example") }
        one("basic") { $0.policy = .basicX509 }
        one("basic with a typed host") {
            $0.policy = .basicX509
            $0.host = .typed("other.example")
        }
        one("pins") { $0.pins = [[UInt8](repeating: 7, count: 32), [UInt8](repeating: 9, count: 32)] }
        one("ats") { $0.ats.enabled = true }
        one("ats-plist ios16") {
            $0.ats.enabled = true
            $0.ats.source = "Info.plist"
            $0.ats.platform = .ios16
        }
        one("crl") { $0.crls = CRLFiles(paths: ["a.crl", "b.crl"]) }
        one("revocation") { $0.fetchRevocation = true }
        one("at") { $0.time = at }
        one("profile") { $0.profile = .webpki }
        one("client") { $0.client = .safari }
        one("tls-min") { $0.tlsMinimum = .tls1_3 }
        one("tls-max") { $0.tlsMaximum = .tls1_2 }
        one("no-aia") { $0.fetchAIA = false }
        one("require-revocation") { $0.requireRevocation = true }
        one("store openssl") { $0.store = .openssl }
        one("store path") { $0.store = .path("/") }
        var all = CheckSettings()
        for (_, s) in out.dropFirst() {
            all.anchorsOnly = all.anchorsOnly && s.anchorsOnly
            if s.anchorClass != .app { all.anchorClass = s.anchorClass }
            if s.pins != [] { all.pins = s.pins }
            if s.crls.paths != [] { all.crls = s.crls }
            all.fetchRevocation = all.fetchRevocation || s.fetchRevocation
            all.requireRevocation = all.requireRevocation || s.requireRevocation
            all.fetchAIA = all.fetchAIA && s.fetchAIA
        }
        all.policy = .basicX509
        all.host = .typed("other.example")
        all.ats.enabled = true
        all.time = at
        all.profile = .webpki
        all.client = .safari
        all.store = .openssl
        out.append(("together", all))
        return out
    }

    func roundTrip(_ settings: CheckSettings, server: Bool) throws -> (words: [String], back: CheckSettings) {
        let host = server ? "example.com" : ""
        let context = SettingContext(isServer: server, targetHost: host, now: Self.now)
        let words = (CheckSetting.connection + CheckSetting.anchors + CheckSetting.written).flatMap {
            $0.arguments(settings, context)
        }
        var back = CheckSettings()
        let target = SettingTarget(host: server ? host : nil, text: server ? "https://\(host)" : nil)
        for setting in CheckSetting.all {
            try setting.read(into: &back, from: try ParsedWords(words), target: target)
        }
        return (words, back)
    }

    @Test(arguments: [true, false])
    func everySettingReadsBackAsWritten(server: Bool) throws {
        let host = server ? "example.com" : ""
        for (name, settings) in Self.variants {
            let (words, back) = try roundTrip(settings, server: server)
            // The policy and its host are compared as the engine receives them: on files an SSL
            // policy with no host to hold is SecPolicyCreateSSL(true, nil) however it was chosen.
            #expect(back.trustPolicy(targetHost: host) == settings.trustPolicy(targetHost: host), "\(name): \(words)")
            #expect(
                back.hostIgnoredByPolicy(targetHost: host) == settings.hostIgnoredByPolicy(targetHost: host),
                "\(name): \(words)")
            var same = back
            same.policy = settings.policy
            same.host = settings.host
            #expect(same == settings, "\(name): \(words)")
        }
    }

    @Test func theDefaultsWriteNothing() throws {
        #expect(try roundTrip(CheckSettings(), server: true).words == [])
        #expect(try roundTrip(CheckSettings(), server: false).words == [])
    }

    @Test func everySettingIsWrittenSomewhere() {
        let written = (CheckSetting.connection + CheckSetting.anchors + CheckSetting.written).flatMap(\.options)
        #expect(written.map(\.name).sorted() == CheckSetting.all.flatMap(\.options).map(\.name).sorted())
    }

    @Test func refusedValuesAreUsageErrors() throws {
        var s = CheckSettings()
        #expect(throws: SettingError.self) {
            try CheckSetting.pins.read(into: &s, from: try ParsedWords(["--pin", "nope"]), target: SettingTarget())
        }
        #expect(throws: SettingError.self) {
            try CheckSetting.policy.read(into: &s, from: try ParsedWords(["--policy", "ssl"]), target: SettingTarget())
        }
        #expect(throws: SettingError.self) {
            try CheckSetting.time.read(into: &s, from: try ParsedWords(["--at", "tomorrow"]), target: SettingTarget())
        }
    }
}

/// Adding a setting touches its declaration, the check that reads it, its finding and the
/// explorer's key, and besides them the engine's own field (TrustCore cannot take the settings
/// value: it sits below it, at its line cap) and the exports' table of what each cannot express;
/// the JSON report's key is declared with the setting (D362). `--require-revocation` stands for any setting (D380); it was named in 14 files.
@Suite struct SettingFilesTests {
    @Test func requireRevocationIsNamedOnlyWhereASettingMustBe() throws {
        // Tests/TrustOptionsTests/CheckSettingTests.swift -> the package root's Sources/.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var naming: [String] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.contains("equireRevocation") || text.contains("require-revocation") {
                naming.append(url.lastPathComponent)
            }
        }
        // By file name, so that a file moving to another module still counts as itself.
        let expected = [
            "CheckSettings.swift",  // the declaration: value, options, reader, writer, the engine's settings
            "ReduceCommand.swift",  // the explorer's key (V)
            "RevocationCheck.swift",  // the check that reads it
            "RevocationFinding.swift",  // its finding
            "TrustSettings.swift",  // the engine's own field
            "ExportSettings.swift",  // what an export cannot express
        ]
        #expect(naming.sorted() == expected.sorted())
        #expect(naming.count <= 6)
    }
}
