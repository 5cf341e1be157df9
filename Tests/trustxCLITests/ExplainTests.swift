import AppleTrustData
import Foundation
import Testing

@testable import TrustCLI
@testable import TrustCore
@testable import TrustExplain

/// `trustx explain`: codes and pasted console blocks, against Apple's header values (written here
/// by hand), docs/steps.md's findings tables and the engine's own code tables.
@Suite struct ExplainTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func codes(_ result: RunResult) throws -> [[String: Any]] {
        try #require(try result.json()["codes"] as? [[String: Any]])
    }

    // MARK: The engine's codes

    @Test func everyOSStatusTheEngineNamesHasTheHeadersNameAndACause() throws {
        let produced = OSStatusNames.table.filter { $0.key != 0 }.map { (Int($0.key), $0.value) }
        for (code, name) in produced {
            let records = AppleErrorCatalogue.records(code: code)
            #expect(records.map(\.name) == [name], "\(code)")
            for record in records {
                #expect(!ExplainReport.causes(record).isEmpty, "\(code) \(name) has no cause")
            }
        }
    }

    @Test func everyURLErrorTheEngineGivesHasTheHeadersNameAndACause() throws {
        for (code, name) in URLErrorNames.table {
            #expect(AppleErrorCatalogue.records(code: code).map(\.name) == [name], "\(code)")
        }
        // What the evaluator gives (docs/steps.md#urlerror) and what each connection failure gives.
        let produced = Set([-999, -1202, -1200, -1022] + ConnectionReport.Failure.Kind.allCases.compactMap(\.urlError))
        for code in produced {
            let record = try #require(AppleErrorCatalogue.records(code: code).first, "\(code)")
            #expect(!ExplainReport.causes(record).isEmpty, "\(code) has no cause")
        }
    }

    // MARK: docs/steps.md, both ways

    /// (step, Apple check or nil for the ATS steps, OSStatus) of every failed row of the page's
    /// findings tables that gives a code.
    func documentedCauses() throws -> Set<String> {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/steps.md"), encoding: .utf8)
        var section = ""
        var columns: [String] = []
        var out = Set<String>()
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("## ") {
                section = line.hasPrefix("## `") ? String(line.dropFirst(4).dropLast()) : ""
                continue
            }
            guard line.hasPrefix("|"), !section.isEmpty else {
                columns = []
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.first == "finding" {
                columns = cells
                continue
            }
            guard !columns.isEmpty, !line.hasPrefix("|---") else { continue }
            func cell(_ title: String) -> String? {
                columns.firstIndex(of: title).flatMap { $0 < cells.count ? cells[$0] : nil }
            }
            guard cell("status")?.contains("failed") == true else { continue }
            if let check = cell("Apple check"), let status = cell("OSStatus"),
                let code = Int(status.prefix { $0 == "-" || $0.isNumber })
            {
                let name = check.prefix { $0.isLetter || $0.isNumber }
                out.insert("\(section) \(name) \(code)")
            } else if let ats = cell("ATS code"), let open = ats.firstIndex(of: "("),
                let code = Int(ats[ats.index(after: open)...].prefix { $0 == "-" || $0.isNumber })
            {
                out.insert("\(section) - \(code)")
            }
        }
        return out
    }

    @Test func theCausesAreDocsStepsFindingsBothWays() throws {
        let documented = try documentedCauses()
        #expect(documented.count > 30)
        var explained = Set<String>()
        for (code, causes) in ExplainCauses.osstatus {
            for cause in causes { explained.insert("\(cause.step) \(cause.check ?? "-") \(code)") }
        }
        #expect(documented.subtracting(explained).sorted() == [], "findings explain does not name")
        #expect(explained.subtracting(documented).sorted() == [], "causes docs/steps.md does not list")
    }

    // MARK: Pasted text

    static let handshakeBlock = """
        2026-03-01 10:12:44.512301+0100 App[4242:99120] Task <5A1B7C2E-22D3-4F6A-9B1C-0D2E3F4A5B6C>.<1> HTTP load failed, 0/0 bytes (error code: -1200 [3:-9836])
        2026-03-01 10:12:44.513000+0100 App[4242:99120] Task <5A1B7C2E-22D3-4F6A-9B1C-0D2E3F4A5B6C>.<1> finished with error [-1200] Error Domain=NSURLErrorDomain Code=-1200 "An SSL error has occurred and a secure connection to the server cannot be made." UserInfo={NSErrorFailingURLStringKey=https://api.example.com:8443/v1/items, _kCFStreamErrorCodeKey=-9836, NSErrorFailingURLKey=https://api.example.com:8443/v1/items, _kCFStreamErrorDomainKey=3}
        """

    static let trustBlock = """
        2026-03-01 10:14:02.100000+0100 App[4242:99300] [boringssl] boringssl_context_handle_fatal_alert(2072) [C3.1.1:2][0x7fb8] write alert, level: fatal, description: bad certificate
        2026-03-01 10:14:02.101000+0100 App[4242:99300] ATS failed system trust
        2026-03-01 10:14:02.102000+0100 App[4242:99300] Task <9C0D>.<2> HTTP load failed, 0/0 bytes (error code: -1202 [3:-9813])
        Error Domain=NSURLErrorDomain Code=-1202 "The certificate for this server is invalid." UserInfo={NSErrorFailingURLKey=https://self-signed.badssl.com/, _kCFStreamErrorDomainKey=3, _kCFStreamErrorCodeKey=-9813}
        """

    @Test func aHandshakeFailureBlockGivesTheURLErrorThenTheStreamError() throws {
        let result = try CLI.run(["explain", "--format", "json", Self.handshakeBlock])
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["host"] as? String == "api.example.com:8443")
        let found = try codes(result)
        // NSURLError.h: NSURLErrorSecureConnectionFailed = -1200; SecBase.h: errSSLPeerProtocolVersion = -9836.
        #expect(found.map { $0["code"] as? Int } == [-1200, -9836])
        #expect(
            found.map { $0["name"] as? String } == ["NSURLErrorSecureConnectionFailed", "errSSLPeerProtocolVersion"])
        #expect(found.map { $0["domain"] as? String } == ["urlLoading", "secureTransport"])
        #expect(found[0]["input"] as? String == "-1200")
        #expect(found[1]["input"] as? String == "[3:-9836]")
        let steps = (found[1]["causes"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
        #expect(steps.contains { $0.contains("no-common-version") })
        let next = found[0]["next"] as? [String]
        #expect(next?.first == "trustx check api.example.com:8443 --ats")
    }

    @Test func aTrustFailureBlockGivesItsCodesNotesAndHost() throws {
        let result = try CLI.run(["explain", Self.trustBlock])
        #expect(result.status == 0)
        let out = result.out
        #expect(out.contains("-1202 NSURLErrorServerCertificateUntrusted"))
        #expect(out.contains("[3:-9813] -> -9813 errSSLNoRootCert"))
        #expect(out.contains("Host in the text: self-signed.badssl.com\n"))
        #expect(out.contains("this client sent a fatal TLS alert (bad certificate)"))
        #expect(out.contains("\"ATS failed system trust\""))
        #expect(out.contains("Next: trustx check self-signed.badssl.com\n"))
        // -9813 (no root) stands for a missing intermediate or an untrusted root, before the
        // budget's rarer -25318.
        let causes = out.split(separator: "\n").filter { $0.hasPrefix("    ") }.map(String.init)
        let anchor = try #require(causes.firstIndex { $0.contains("anchor, AnchorTrusted") })
        let budget = try #require(causes.firstIndex { $0.contains("budget,") })
        #expect(anchor < budget)
        #expect(out.contains("chain, MissingIntermediate (-25318 errSecCreateChainFailed)"))
        #expect(out.contains("anchor, AnchorTrusted (-67843 errSecNotTrusted)"))
    }

    @Test func aHostMismatchNamesTheWrongHostLesson() throws {
        let found = try codes(try CLI.run(["explain", "--format", "json", "-67602"]))
        #expect(found.count == 1)
        #expect(found[0]["name"] as? String == "errSecHostNameMismatch")
        let causes = try #require(found[0]["causes"] as? [[String: Any]])
        #expect(causes.first?["step"] as? String == "hostname")
        #expect(causes.first?["check"] as? String == "SSLHostname")
        let scenarios = (found[0]["scenarios"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(scenarios?.first == "wrong-host")
        // wrong-host's own expectation is -67602, not one of its variations'.
        #expect((found[0]["scenarios"] as? [[String: Any]])?.first?["variation"] is NSNull)
        #expect(found[0]["next"] as? [String] == ["trustx lab --scenario wrong-host"])
    }

    /// A device-only failure of iOS 26's larger hello: the code docs/lab.md states for each
    /// ios26-hello lesson's device ("URLError -1005 on a device") is explained by the middlebox,
    /// names the lesson, and points at `trustx check HOST`, whose apple hello line shows it.
    @Test func aCodeOnlyIOS26sHelloMeetsNamesTheMiddleboxAndItsLesson() throws {
        let labDoc = try String(contentsOf: Self.root.appendingPathComponent("docs/lab.md"), encoding: .utf8)
        let devices: [(scenario: String, code: Int)] = labDoc.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| "),
                let name = ["large-hello-reset", "split-hello-dropped"].first(where: {
                    line.hasPrefix("| \($0) (")
                })
            else { return nil }
            guard let range = line.range(of: #"\(-1\d{3}\)|-1\d{3} on a device"#, options: .regularExpression),
                let code = Int(line[range].filter { $0 == "-" || $0.isNumber })
            else { return nil }
            return (name, code)
        }
        #expect(devices.map(\.scenario) == ["large-hello-reset", "split-hello-dropped"], "docs/lab.md's rows")
        for (scenario, code) in devices {
            let paste =
                "Task <1A2B>.<1> finished with error [\(code)] Error Domain=NSURLErrorDomain Code=\(code) UserInfo={NSErrorFailingURLKey=https://api.example.com/v1}"
            let found = try codes(try CLI.run(["explain", "--format", "json", paste]))
            let entry = try #require(found.first { $0["code"] as? Int == code }, "\(code)")
            let causes = try #require(entry["causes"] as? [[String: Any]])
            let hello = causes.first { $0["step"] as? String == "apple-hello" }
            #expect((hello?["text"] as? String)?.contains("26 releases only") == true, "\(code): \(causes)")
            let scenarios = (entry["scenarios"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            #expect(scenarios.contains(scenario), "\(code): \(scenarios)")
            #expect((entry["next"] as? [String])?.first == "trustx check api.example.com", "\(entry)")
        }
    }

    @Test func trustdsFailedChecksAreExplainedAsTheirCodes() throws {
        let paste = """
            App[4242:99300] [com.apple.network:boringssl] Trust evaluate failure: [leaf TemporalValidity] [root AnchorTrusted]
            App[4242:99300] [C3.1.1:2] [ca1 TemporalValidity]
            """
        let found = try codes(try CLI.run(["explain", "--format", "json", paste]))
        // trustd's TemporalValidity gives errSecCertificateExpired (-67818), AnchorTrusted errSecNotTrusted (-67843).
        #expect(found.map { $0["input"] as? String } == ["TemporalValidity", "AnchorTrusted"])
        #expect(found.map { $0["code"] as? Int } == [-67818, -67843])
        #expect(found.map { $0["name"] as? String } == ["errSecCertificateExpired", "errSecNotTrusted"])
    }

    @Test func namesAreExplainedAsTheirCodes() throws {
        let found = try codes(try CLI.run(["explain", "--format", "json", "errSecNotTrusted kCFURLErrorTimedOut"]))
        // SecBase.h: errSecNotTrusted = -67843; NSURLError.h: NSURLErrorTimedOut = -1001.
        #expect(found.map { $0["code"] as? Int } == [-67843, -1001])
        #expect(found.map { $0["name"] as? String } == ["errSecNotTrusted", "NSURLErrorTimedOut"])
    }

    @Test func aDeprecatedNameIsExplainedAsItsTarget() throws {
        // SecBase.h: errSecDskFull is declared `= errSecDiskFull`, which is -34, "The disk is full."
        let found = try codes(try CLI.run(["explain", "--format", "json", "errSecDskFull"]))
        #expect(found.first?["code"] as? Int == -34)
        #expect(found.first?["aliasOf"] as? String == "errSecDiskFull")
        #expect(found.first?["meaning"] as? String == "The disk is full.")
    }

    @Test func anUnknownCodeGetsALineAndExitStatusOne() throws {
        let result = try CLI.run(["explain", "-12345"])
        #expect(result.status == 1)
        #expect(
            result.out.contains("-12345: not a code Apple's Security, SecureTransport or URL loading headers define"))
        let mixed = try CLI.run(["explain", "-1202", "errSecNoSuchThing"])
        #expect(mixed.status == 1)
        #expect(mixed.out.contains("errSecNoSuchThing: not a name"))
        let none = try CLI.run(["explain", "nothing to see"])
        #expect(none.status == 1)
        #expect(none.out.contains("No error code found"))
    }

    @Test func hostileTextIsEscaped() throws {
        let paste =
            "boringssl_context_handle_fatal_alert write alert, description: \u{1B}]0;owned\u{07}\u{202E}x\n-9802"
        let text = try CLI.run(["explain", paste])
        #expect(text.status == 0)
        #expect(!text.out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
        #expect(text.out.contains("errSSLFatalAlert"))
        let json = try CLI.run(["explain", "--format", "json", paste])
        #expect(!json.out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
        let notes = try #require(try json.json()["notes"] as? [String])
        #expect(notes.contains { $0.contains("\u{1B}]0;owned") })
    }

    @Test func standardInputIsRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("explain-\(UUID().uuidString).txt")
        try Self.trustBlock.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let found = try codes(try CLI.run(["explain", "--format", "json", "-"], standardInput: file.path))
        #expect(found.map { $0["code"] as? Int } == [-1202, -9813])
    }

    @Test func theJSONShape() throws {
        let json = try CLI.run(["explain", "--format", "json", "-1202", "-54321"]).json()
        #expect(Set(json.keys) == ["host", "notes", "codes", "leftOut"])
        let found = try #require(json["codes"] as? [[String: Any]])
        #expect(
            Set(found[0].keys) == [
                "input", "known", "code", "domain", "name", "aliasOf", "meaning", "causes", "scenarios", "next",
            ])
        #expect(found[0]["known"] as? Bool == true)
        let cause = try #require((found[0]["causes"] as? [[String: Any]])?.first)
        #expect(Set(cause.keys) == ["rank", "step", "check", "osstatus", "text"])
        #expect(cause["rank"] as? Int == 1)
        let scenario = try #require((found[0]["scenarios"] as? [[String: Any]])?.first)
        #expect(Set(scenario.keys) == ["name", "lesson", "variation", "command"])
        #expect(Set(found[1].keys) == ["input", "known", "code", "message"])
        #expect(found[1]["known"] as? Bool == false)
    }

    @Test func theNumberOfCodesIsBounded() throws {
        let many = (0..<40).map { "-\(67602 + $0)" }.joined(separator: " ")
        let json = try CLI.run(["explain", "--format", "json", many]).json()
        #expect((json["codes"] as? [Any])?.count == ExplainScanner.maximumCodes)
        #expect(json["leftOut"] as? Int == 40 - ExplainScanner.maximumCodes)
    }

    @Test func alertLinesAreReadAFewTimesOnly() {
        let lines = (0..<100).map { "boringssl_context_handle_fatal_alert read alert, description: alert \($0)" }
        let input = ExplainScanner.scan(Array(lines.joined(separator: "\n").utf8))
        #expect(input.notes.count == ExplainScanner.maximumAlertLines)
        #expect(input.notes.last?.contains("(alert \(ExplainScanner.maximumAlertLines - 1))") == true)
    }

    @Test func aStreamErrorOfAnotherDomainIsNotATLSCode() throws {
        let paste = """
            Error Domain=NSURLErrorDomain Code=-1001 "The request timed out." UserInfo={_kCFStreamErrorCodeKey=-2102, NSErrorFailingURLKey=https://slow.example.com/, _kCFStreamErrorDomainKey=4}
            """
        let result = try CLI.run(["explain", "--format", "json", paste])
        #expect(result.status == 0)
        // NSURLError.h: NSURLErrorTimedOut = -1001; -2102 is CFStream domain 4's (HTTP), not SSL's.
        #expect(try codes(result).map { $0["code"] as? Int } == [-1001])
        let notes = try #require(try result.json()["notes"] as? [String])
        #expect(notes.contains { $0.contains("-2102 is in CFStream error domain 4") })
    }

    @Test func datesAndOffsetsAreNotCodes() {
        let input = ExplainScanner.scan(Array("2026-03-01 10:12:44.512301+0100 -0700 x-1234 v1.-500 -1.5".utf8))
        #expect(input.mentions.isEmpty)
    }

    @Test func usageErrors() throws {
        #expect(try CLI.run(["explain"]).status == 64)
        #expect(try CLI.run(["explain", "--format", "markdown", "-1202"]).status == 64)
        #expect(try CLI.run(["explain", "--nonsense", "-1202"]).status == 64)
    }
}
