import Explorer
import ExplorerState
import TermUI
import TrustCore
import TrustSupport
import TrustX509
import XCTest

@testable import TrustBuilder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every frame must hold whatever the state: no raw control text, ASCII when asked, the
/// help generated from the keymap, and a cheap frame.
final class ViewPropertiesTests: XCTestCase {
    /// A self-signed leaf whose subject carries an ESC sequence and a bidi override.
    static func hostileChain() throws -> [Certificate] {
        let key = try KeyPair.generate(.ecP256)
        let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))
        var b = CertificateBuilder(
            subject: NameBuilder([.commonName("evil\u{1B}[2J\u{202E}moc.kab")]), publicKey: key,
            notBefore: now.adding(seconds: -86_400), notAfter: now.adding(seconds: 86_400 * 30))
        b.subjectAltNames = .dns("evil\u{1B}]0;title\u{07}.example")
        return [try b.selfSign(key: key)]
    }

    func testTextFromCertificatesReachesTheScreenEscaped() throws {
        let target = ExplorerTarget(
            name: "hostile", location: "hostile.pem", host: "",
            source: .files(try Self.hostileChain(), paths: ["hostile.pem"]))
        let s = Session(targets: [target])
        XCTAssertNotNil(s.state.evaluation)
        for focus in 0..<3 {
            let lines = ExplorerView.lines(s.state, width: 120, height: 40)
            let text = lines.joined(separator: "\n")
            XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x07 })
            if focus == 1 { XCTAssertTrue(text.contains("evil\\u{1B}[2J\\u{202E}moc.kab"), text) }
            s.press(.tab)
        }
    }

    func testASCIISymbolsDrawNothingButASCII() {
        let s = Session(scenarios: ["wrong-host"])
        s.press(.char("p"))
        let lines = ExplorerView.lines(s.state, width: 120, height: 40, options: ViewOptions(symbols: .ascii))
        for line in lines { XCTAssertTrue(line.unicodeScalars.allSatisfy { $0.value < 0x80 }, line) }
        XCTAssertTrue(lines[36].hasPrefix("+ Trusted | errSecSuccess (0)"), lines[36])
        XCTAssertTrue(lines[38].hasPrefix("* policy -> SSL(nil): verdict: -67602, URLError -999 -> trusted"), lines[38])
    }

    func testTheHelpBarAndSettingsLineComeFromTheLiveKeymap() {
        var bindings = Keymap.standard.bindings
        let i = bindings.firstIndex { $0.command == .cyclePolicy }!
        bindings[i].keys = [.char("Y")]
        let options = ViewOptions(keymap: Keymap(bindings))
        let s = Session(scenarios: ["good"])
        let lines = ExplorerView.lines(s.state, width: 120, height: 40, options: options)
        XCTAssertTrue(lines[37].hasPrefix("Y SSL(127.0.0.1)"), lines[37])
        XCTAssertTrue(lines[39].contains("Y policy"), lines[39])
        XCTAssertFalse(lines[39].contains("p policy"), lines[39])
    }

    func testEveryCommandHasAKeyAndNoKeyIsBoundTwice() {
        let map = Keymap.standard
        XCTAssertEqual(Set((map.bindings + map.walkBindings).map(\.command)), Set(Command.allCases))
        let keys = map.bindings.flatMap(\.keys)
        XCTAssertEqual(keys.count, Set(keys).count)
        let walkKeys = map.walkBindings.flatMap(\.keys)
        XCTAssertEqual(walkKeys.count, Set(walkKeys).count)
    }

    func testAThemeFileOverridesRolesAndReportsItsMistakes() throws {
        let theme = try Theme.parse(
            """
            # failures stand out
            step.failed = bright-red, default, bold, underline
            selection = -, 236   # a dark grey bar
            """)
        XCTAssertEqual(theme[.stepFailed], Style(foreground: .brightRed, modifiers: [.bold, .underline]))
        XCTAssertEqual(theme[.selection], Style(background: .indexed(236)))
        XCTAssertEqual(theme[.stepPassed], Theme.standard[.stepPassed], "roles not named keep the default")
        XCTAssertThrowsError(try Theme.parse("step.failde = red")) {
            XCTAssertTrue("\($0)".hasPrefix("line 1: unknown role 'step.failde'"), "\($0)")
        }
        XCTAssertThrowsError(try Theme.parse("\nborder = red, blinking")) {
            XCTAssertEqual("\($0)", "line 2: 'blinking' is neither a colour nor an attribute")
        }
        XCTAssertTrue(Theme.monochrome.styles.values.allSatisfy { $0.foreground == nil && $0.background == nil })
    }
}
