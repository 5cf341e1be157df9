import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustReport
import TrustSupport
import TrustX509

/// Attacker-controlled text must never reach a terminal (or a Markdown or JSON consumer) raw.
@Suite(.serialized, .onTestThreads) final class TerminalSanitizerTests {
    @Test func testPrintableASCIIIsUnchanged() {
        let text = "CN=example.com, O=Example\\, Inc."
        #expect(TerminalSanitizer.sanitize(text) == text)
    }

    @Test func testEscapeIsShownAsAnEscape() {
        #expect(TerminalSanitizer.sanitize("a\u{1B}[31mb") == "a\\u{1B}[31mb")
        #expect(TerminalSanitizer.sanitize("\u{1B}]0;title\u{07}") == "\\u{1B}]0;title\\u{07}")
    }

    @Test func testC0ControlsDELAndNewlinesAreEscaped() {
        #expect(TerminalSanitizer.sanitize("a\u{0}b\tc\nd\re\u{7F}") == "a\\u{00}b\\u{09}c\\u{0A}d\\u{0D}e\\u{7F}")
    }

    @Test func testC1ControlsAreEscaped() {
        #expect(TerminalSanitizer.sanitize("x\u{9B}2Jy\u{85}z\u{80}") == "x\\u{9B}2Jy\\u{85}z\\u{80}")
    }

    @Test func testBidiOverridesAndIsolatesAreEscaped() {
        #expect(TerminalSanitizer.sanitize("good\u{202E}moc.live") == "good\\u{202E}moc.live")
        for v: UInt32 in [
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C,
        ] {
            let s = String(Unicode.Scalar(v)!)
            #expect(TerminalSanitizer.sanitize(s) == ("\\u{\(String(v, radix: 16, uppercase: true))}"))
        }
    }

    @Test func testZeroWidthAndInvisibleCharactersAreEscaped() {
        #expect(TerminalSanitizer.sanitize("pay\u{200B}pal") == "pay\\u{200B}pal")
        #expect(
            TerminalSanitizer.sanitize("\u{FEFF}a\u{200D}b\u{2060}c\u{AD}") == "\\u{FEFF}a\\u{200D}b\\u{2060}c\\u{AD}"
        )
        #expect(TerminalSanitizer.sanitize("line\u{2028}sep") == "line\\u{2028}sep")
        #expect(TerminalSanitizer.sanitize("tag\u{E0041}") == "tag\\u{E0041}")
    }

    @Test func testOrdinaryNonASCIIIsKeptAsUTF8() {
        #expect((TerminalSanitizer.sanitize("Zürich Straße 東京 🔒")) == "Zürich Straße 東京 🔒")
    }

    @Test func testASCIIOnlyEscapesEveryNonASCIIScalar() {
        #expect((TerminalSanitizer.sanitize("Zü東", asciiOnly: true)) == "Z\\u{FC}\\u{6771}")
    }

    @Test func testInvalidUTF8BytesAreShownInHex() {
        // A lone continuation byte, an overlong "/", a surrogate and a truncated sequence.
        let bytes: [UInt8] = [0x61, 0x80, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0x62, 0xE2, 0x82]
        #expect((TerminalSanitizer.sanitize(bytes: bytes)) == "a\\x80\\xC0\\xAF\\xED\\xA0\\x80b\\xE2\\x82")
    }

    @Test func testValidUTF8BytesDecodeAndUnsafeScalarsAreEscaped() {
        let bytes = Array("é\u{1B}\u{202E}€𝄞".utf8)
        #expect((TerminalSanitizer.sanitize(bytes: bytes)) == "é\\u{1B}\\u{202E}€𝄞")
    }

    @Test func testSanitisedTextNeverContainsAControlOrFormatScalar() {
        var all = ""
        for v in UInt32(0)...0x3000 {
            if let s = Unicode.Scalar(v) { all.unicodeScalars.append(s) }
        }
        for s in TerminalSanitizer.sanitize(all).unicodeScalars {
            #expect(!(s.properties.generalCategory == .control), "U+\(String(s.value, radix: 16))")
            #expect(!(s.properties.generalCategory == .format), "U+\(String(s.value, radix: 16))")
        }
    }
}

@Suite(.serialized, .onTestThreads) final class JSONWriterTests {
    @Test func testStringsEscapeQuotesBackslashesAndEveryControl() throws {
        let text = "q\"b\\n\n\u{1}\u{1B}\u{7F}\u{9B}\u{202E}é\u{E0041}"
        let json = JSONWriter.quoted(text)
        #expect(json == "\"q\\\"b\\\\n\\n\\u0001\\u001b\\u007f\\u009b\\u202eé\\udb40\\udc41\"")
        // It round-trips through a real parser.
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8), options: []) as? [String]
        #expect(parsed == [text])
    }

    @Test func testObjectsKeepKeyOrderAndNullsAreWritten() {
        let value = JSONValue.object([
            ("b", .int(-1)), ("a", .array([.bool(true), .null])), ("c", .object([])), ("d", .array([])),
            ("e", .string(nil)),
        ])
        #expect(
            JSONWriter.serialize(value)
                == ("""
                {
                  "b": -1,
                  "a": [
                    true,
                    null
                  ],
                  "c": {},
                  "d": [],
                  "e": null
                }

                """))
    }
}

@Suite(.serialized, .onTestThreads) final class MarkdownEscapeTests {
    @Test func testTableAndInlineSyntaxIsEscaped() {
        #expect(
            (MarkdownReport.escape("a|b `c` *d* _e_ [f](g) <script> & ~h~ #i $j$"))
                == "a\\|b \\`c\\` \\*d\\* \\_e\\_ \\[f\\](g) &lt;script&gt; &amp; \\~h\\~ \\#i \\$j\\$")
    }

    @Test func testControlsAreSanitisedBeforeEscaping() {
        #expect(MarkdownReport.escape("x\u{1B}[1m\ny") == "x\\\\u{1B}\\[1m\\\\u{0A}y")
    }
}

/// A certificate whose subject holds "\u{1B}[31m", a bidi override and a C1 CSI must not put a
/// raw ESC (or any other control) on standard output in any format.
@Suite(.serialized, .onTestThreads) final class HostileCertificateTests {
    func assertNoRawControls(_ r: RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.stdout.contains(0x1B), "raw ESC on stdout", sourceLocation: sourceLocation)
        let text = r.out
        #expect(
            !(text.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E }), "\(text)",
            sourceLocation: sourceLocation)
        #expect(!r.stderr.contains(0x1B), "raw ESC on stderr", sourceLocation: sourceLocation)
    }

    @Test func testTextReportEscapesTheSubject() throws {
        let pki = try TestPKI.get()
        let r = try CLI.run(["check", "--chain", pki.path("hostile.pem")])
        #expect(r.status == 1)
        assertNoRawControls(r)
        #expect(r.out.contains("CN=evil\\u{1B}[31mred\\u{202E}moc.elgoog\\u{9B}2J"), "\(r.out)")
    }

    @Test func testHostNameFromTheCommandLineIsEscaped() throws {
        let pki = try TestPKI.get()
        let r = try CLI.run(["check", "--chain", pki.path("hostile.pem"), "--host", "evil\u{1B}[2J"])
        #expect(r.status == 1)
        assertNoRawControls(r)
        #expect(r.out.contains("evil\\u{1B}[2J"), "\(r.out)")
    }

    @Test func testColouredTextReportEmitsOnlyItsOwnColourCodes() throws {
        let pki = try TestPKI.get()
        let chain = try CertificateLoader.load(path: pki.path("hostile.pem"))
        let settings = TrustSettings(policy: .ssl(host: nil), time: Timestamp(secondsSinceEpoch: 1_900_000_000))
        let evaluation = try #require(Evaluator().evaluate(chain: chain, settings: settings))
        // The command line's colours are SGR sequences like these; the report only places them.
        let marks = TextReport.Tone.allCases.enumerated().map { i, tone in
            (tone, TextReport.Styling.Mark(before: "\u{1B}[1;3\(i)m", after: "\u{1B}[0m"))
        }
        let styling = TextReport.Styling(marks: Dictionary(uniqueKeysWithValues: marks))
        let text = TextReport.render(evaluation, options: TextReport.Options(styling: styling, unicode: true))
        // Every ESC must start one of the report's own SGR sequences: ESC [ digits/; m.
        let bytes = Array(text.utf8)
        var escapes = 0
        for (i, b) in bytes.enumerated() where b == 0x1B {
            escapes += 1
            var k = i + 1
            #expect(bytes[k] == (UInt8(ascii: "[")))
            k += 1
            while k < bytes.count, (bytes[k] >= 0x30 && bytes[k] <= 0x39) || bytes[k] == UInt8(ascii: ";") { k += 1 }
            #expect(bytes[k] == (UInt8(ascii: "m")), "not an SGR sequence at byte \(i)")
        }
        #expect(escapes > 0)
        #expect(text.contains("CN=evil\\u{1B}[31mred"), "\(text)")
    }

    @Test func testUnstyledTextReportWritesNoEscapeAtAll() throws {
        let pki = try TestPKI.get()
        let chain = try CertificateLoader.load(path: pki.path("hostile.pem"))
        let settings = TrustSettings(policy: .ssl(host: nil), time: Timestamp(secondsSinceEpoch: 1_900_000_000))
        let evaluation = try #require(Evaluator().evaluate(chain: chain, settings: settings))
        let text = TextReport.render(evaluation, options: TextReport.Options(unicode: true))
        #expect(!text.utf8.contains(0x1B), "\(text)")
        #expect(!text.unicodeScalars.contains("\u{9B}"), "\(text)")
        #expect(text.contains("CN=evil\\u{1B}[31mred"), "\(text)")
    }

    @Test func testMarkdownAndJSONEscapeTheSubject() throws {
        let pki = try TestPKI.get()
        for format in ["markdown", "json"] {
            let r = try CLI.run(["check", "--chain", pki.path("hostile.pem"), "--format", format])
            #expect(r.status == 1)
            assertNoRawControls(r)
        }
        let json = try CLI.run(["check", "--chain", pki.path("hostile.pem"), "--format", "json"]).json()
        let presented = try #require(json["presented"] as? [[String: Any]])
        // The JSON keeps the exact value, escaped, so programs see what the certificate says.
        #expect((presented[0]["subject"] as? String) == "CN=evil\u{1B}[31mred\u{202E}moc.elgoog\u{9B}2J")
    }

    @Test func testPinEscapesTheSubject() throws {
        let pki = try TestPKI.get()
        let r = try CLI.run(["pin", pki.path("hostile.pem")])
        #expect(r.status == 0)
        assertNoRawControls(r)
        #expect(r.out.hasPrefix("\(pki.path("hostile.pem")) #0: CN=evil\\u{1B}[31m"), "\(r.out)")
    }

    @Test func testErrorMessagesEscapeFileNames() throws {
        let r = try CLI.run(["check", "--chain", "/nonexistent/\u{1B}[31m.pem"])
        #expect(r.status == 66)
        #expect(!r.stderr.contains(0x1B))
        #expect(r.err.contains("\\u{1B}[31m.pem"), "\(r.err)")
    }
}
