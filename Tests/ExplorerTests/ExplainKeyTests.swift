import ExplorerState
import TrustCore
import XCTest

/// `!` in the explorer: the explain report over the panes, for a typed code, a pasted console
/// line, or the verdict on screen. The names and values expected are Apple's headers': SecBase.h
/// (errSecHostNameMismatch = -67602), SecureTransport.h (errSSLNoRootCert = -9813) and
/// NSURLError.h (NSURLErrorServerCertificateUntrusted = -1202, NSURLErrorCancelled = -999).
final class ExplainKeyTests: XCTestCase {
    static let scenarios = ["good", "wrong-host"]

    func shown(_ s: Session) -> String { s.state.overlay?.paragraphs.joined(separator: "\n") ?? "" }

    func testAnEmptyLineExplainsTheVerdictOnScreen() {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        XCTAssertEqual(s.verdict?.osstatus, -67602, "the lesson's verdict (docs/lab.md, wrong-host)")
        // The lab's anchor is the app's own, so its delegate cancels the load (docs/steps.md).
        XCTAssertEqual(s.verdict?.urlError, -999)
        s.prompt("!", "")
        XCTAssertEqual(s.state.overlay?.title, "Explain this verdict")
        let text = shown(s)
        XCTAssertTrue(text.contains("-67602 errSecHostNameMismatch"), text)
        XCTAssertTrue(text.contains("-999 NSURLErrorCancelled"), text)
        XCTAssertTrue(text.contains("In the lab: wrong-host"), text)
        // Any key closes it, and the explorer goes on (q closes the popup, not the lab).
        s.press(.char("q"))
        XCTAssertNil(s.state.overlay)
        XCTAssertEqual(s.verdict?.osstatus, -67602)
    }

    func testAPastedConsoleLineIsExplainedCodeByCode() {
        let s = Session(scenarios: Self.scenarios)
        s.prompt("!", "Task <1> HTTP load failed, 0/0 bytes (error code: -1202 [3:-9813])")
        XCTAssertEqual(s.state.overlay?.title, "Explain")
        let text = shown(s)
        XCTAssertTrue(text.contains("-1202 NSURLErrorServerCertificateUntrusted"), text)
        XCTAssertTrue(text.contains("-9813 errSSLNoRootCert"), text)
    }

    func testATrustedVerdictHasNothingToExplainAndSaysSo() {
        let s = Session(scenarios: Self.scenarios)
        s.select("good")
        XCTAssertEqual(s.verdict?.trusted, true)
        s.prompt("!", "")
        XCTAssertNil(s.state.overlay)
        XCTAssertTrue(
            s.state.message?.hasPrefix("trusted: this verdict has no error code") == true, "\(s.state.message ?? "nil")"
        )
    }

    func testAnUnknownCodeGetsALineNotSilence() {
        let s = Session(scenarios: Self.scenarios)
        s.prompt("!", "-4242")
        XCTAssertTrue(shown(s).contains("-4242: not a code Apple's"), shown(s))
    }
}
