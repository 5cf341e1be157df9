import Explorer
import ExplorerState
import TermUI
import TrustCore
import TrustLab
import TrustSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The explorer as it runs: the lab starts in the background on loopback, effects run on their
/// own threads, and the test presses keys and waits on the published answers with a deadline,
/// reading the screen from a TestBackend as the user would.
final class EndToEndTests: XCTestCase {
    func testBrowsingTheLabTogglingThePolicyAndReadingTheScreen() throws {
        let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))
        let driver = ExplorerDriver(
            AppState.lab(now: now, systemStore: nil, options: LabOptions(scenarios: ["good", "wrong-host"], now: now)))
        defer { driver.executor.shutdown() }
        let terminal = Terminal(backend: TestBackend(width: 120, height: 40))
        func screen() -> [String] {
            terminal.draw { ExplorerView.render(driver.state, into: &$0, area: $0.area, options: ViewOptions()) }
            return terminal.backend.lines()
        }

        driver.start()
        // The UI never blocks: the first frame is drawn while the lab is still starting.
        XCTAssertTrue(screen()[0].contains("Scenarios (starting"), screen()[0])
        XCTAssertTrue(driver.wait(seconds: 20) { $0.evaluation != nil }, "the lab and the first scenario")
        XCTAssertTrue(screen()[36].hasPrefix("✓ Trusted · errSecSuccess (0)"), screen()[36])

        driver.press(.char("j"))
        XCTAssertTrue(screen().contains { $0.contains("2 Chain") })
        XCTAssertTrue(driver.wait(seconds: 10) { $0.evaluation != nil && !$0.isBusy })
        XCTAssertTrue(
            screen()[36].hasPrefix(
                "✗ -67602 errSecHostNameMismatch · URLError -999 NSURLErrorCancelled · localhost matches no"),
            screen()[36])

        driver.press(.char("p"))
        driver.press(.char("p"))
        XCTAssertTrue(driver.wait(seconds: 10) { !$0.isBusy })
        let lines = screen()
        XCTAssertTrue(lines[36].hasPrefix("✓ Trusted"), lines[36])
        XCTAssertTrue(lines[37].hasPrefix("p Basic X.509"), lines[37])
        // Both presses came before the first answer: one change, from SSL(localhost) to Basic.
        XCTAssertTrue(lines[38].hasPrefix("Δ policy -> SSL(nil), policy -> Basic X.509: "), lines[38])
        XCTAssertTrue(lines[38].contains("verdict: -67602, URLError -999 -> trusted"), lines[38])
        XCTAssertEqual(driver.state.change?.text.contains("hostname@0: failed -> skipped"), true)
        XCTAssertTrue(lines.contains { $0.contains("• hostname") && $0.contains("Δ") }, lines.joined(separator: "\n"))

        driver.press(.char("q"))
        XCTAssertTrue(driver.state.shouldQuit)
    }
}
