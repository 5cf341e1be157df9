import TrustSupport
import XCTest

@testable import ExplorerState

/// At most one popup is open, and it alone takes the keys (D381): a prompt takes every key, the
/// help scrolls with the movement keys and closes on any other, a text closes on any key.
final class PopupTests: XCTestCase {
    static let now = Timestamp(secondsSinceEpoch: 1_800_000_000)

    func state() -> AppState { AppState.explore([], now: Self.now, systemStore: nil).0 }

    func command(_ action: Action?) -> Command? {
        if case .command(let c)? = action { return c }
        return nil
    }

    func testOpeningAPopupReplacesTheOpenOne() {
        var s = state()
        s.showHelp = true
        s.overlay = AppState.TextOverlay(title: "t", paragraphs: ["p"])
        XCTAssertFalse(s.showHelp, "the text replaced the help")
        s.prompt = Prompt(.host, text: "")
        XCTAssertNil(s.overlay, "the prompt replaced the text")
        s.showHelp = false
        XCTAssertNotNil(s.prompt, "closing a popup that is not open leaves the open one")
        s.prompt = nil
        XCTAssertNil(s.popup)
    }

    func testEachPopupTakesTheKeysItsOwnWay() {
        let keymap = Keymap.standard
        var s = state()
        s.prompt = Prompt(.host, text: "")
        guard case .promptEdit? = keymap.action(for: .char("q"), in: s) else { return XCTFail("a prompt takes q") }
        s.showHelp = true
        XCTAssertEqual(command(keymap.action(for: .escape, in: s)), .toggleHelp)
        s = reduce(s, .command(.moveDown)).0
        XCTAssertTrue(s.showHelp, "the movement keys scroll the help")
        s = reduce(s, .command(.quit)).0
        XCTAssertNil(s.popup, "q closes the help")
        XCTAssertFalse(s.shouldQuit, "and quits nothing under it")
        s.overlay = AppState.TextOverlay(title: "t", paragraphs: ["p"])
        XCTAssertEqual(command(keymap.action(for: .escape, in: s)), .toggleHelp)
        s = reduce(s, .command(.moveDown)).0
        XCTAssertNil(s.popup, "any key closes a text")
    }

    func testTheModeOrdersPopupWalkThroughAndCompareView() {
        var s = state()
        XCTAssertEqual(s.mode, .panes)
        s.comparison.showing = true
        XCTAssertEqual(s.mode, .comparison)
        s.walk = 1
        XCTAssertEqual(s.mode, .walk, "the walk-through's keys come before the compare view's Esc")
        s.showHelp = true
        XCTAssertEqual(s.mode, .popup(.help), "a popup comes before both")
        XCTAssertEqual(command(Keymap.standard.action(for: .escape, in: s)), .toggleHelp)
        s.showHelp = false
        XCTAssertEqual(command(Keymap.standard.action(for: .escape, in: s)), .walkEnd)
        s.walk = nil
        XCTAssertEqual(command(Keymap.standard.action(for: .escape, in: s)), .clearSearch)
        s = reduce(s, .command(.clearSearch)).0
        XCTAssertFalse(s.comparison.showing, "Esc leaves the compare view")
    }
}
