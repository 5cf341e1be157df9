import ExplorerState
import TrustCore
import XCTest

/// User sessions through `reduce` with real evaluations of the lab's served chains.
final class ReduceSessionTests: XCTestCase {
    static let scenarios = ["good", "wrong-host", "tls12-only", "expired", "missing-intermediate-aia"]

    func testTheLabStartsAndTheFirstScenarioIsConnectedAndEvaluated() {
        let s = Session(scenarios: Self.scenarios)
        guard case .running = s.state.lab else { return XCTFail("lab: \(s.state.lab)") }
        XCTAssertEqual(s.state.targets.map(\.name), Self.scenarios)
        XCTAssertEqual(s.state.target?.name, "good")
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertNil(s.state.change, "selecting a scenario is not a toggle")
        XCTAssertFalse(s.state.isBusy)
    }

    func testWrongHostThenPolicyToBasicSkipsTheHostnameStepAndTrusts() {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        XCTAssertEqual(s.verdict?.trusted, false)
        XCTAssertEqual(s.verdict?.osstatus, -67602)
        XCTAssertEqual(s.verdict?.urlError, -999)
        XCTAssertEqual(s.status(.hostname, 0), .failed)
        XCTAssertNil(s.state.change)

        // The user presses p twice before the first answer arrives: one change, from SSL(host).
        s.pressHolding(.char("p"), .char("p"))
        XCTAssertEqual(s.state.toggles.policy, .basicX509)
        s.release()
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertEqual(s.status(.hostname, 0)?.identifier, "skipped")
        let change = try! XCTUnwrap(s.state.change)
        XCTAssertEqual(change.cause, "policy -> SSL(nil), policy -> Basic X.509")
        XCTAssertTrue(change.text.contains("hostname@0: failed -> skipped"), change.text)
        XCTAssertTrue(change.text.hasPrefix("verdict: -67602, URLError -999 -> trusted"), change.text)
        let hostname = s.state.evaluation!.steps.firstIndex { $0.id == .hostname }!
        XCTAssertTrue(change.changedSteps.contains(hostname))
    }

    func testOnePolicyPressAtATimeComparesWithThePreviousEvaluation() {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        s.press(.char("p"))
        XCTAssertEqual(
            s.state.change?.line,
            "policy -> SSL(nil): verdict: -67602, URLError -999 -> trusted; hostname@0: failed -> skipped")
        s.press(.char("p"))
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertFalse(s.state.change!.text.contains("verdict"), "still trusted: \(s.state.change!.line)")
    }

    func testTogglingSettingsReevaluatesWithoutReconnectingAndVerifiesNoSignatureAgain() {
        let s = Session(scenarios: Self.scenarios)
        XCTAssertEqual(s.verdict?.trusted, true)
        let connects = s.log.filter(\.isConnect).count
        let verified = s.executor.evaluator.cache.verificationCount
        s.prompt("t", "+30d")  // the 397-day leaf is still valid
        s.prompt("t", "-1y")  // before its notBefore
        XCTAssertEqual(s.state.toggles.time, s.state.now.adding(seconds: -365 * 86_400))
        XCTAssertEqual(s.status(.validity, 0), .failed)
        XCTAssertEqual(s.verdict?.osstatus, -67818)
        s.press(.char("o"), .char("p"), .char("A"), .char("2"), .char("P"))
        XCTAssertEqual(s.log.filter(\.isConnect).count, connects, "settings toggles must not reconnect")
        XCTAssertEqual(s.executor.evaluator.cache.verificationCount, verified, "signatures come from the cache")
    }

    func testTLSMinimumReconnectsAndAServerStuckAtTLS12GivesNoChain() {
        let s = Session(scenarios: Self.scenarios)
        s.select("tls12-only")
        XCTAssertEqual(s.verdict?.trusted, true)
        let connects = s.log.filter(\.isConnect).count
        s.press(.char("v"))
        XCTAssertEqual(s.log.filter(\.isConnect).count, connects + 1)
        XCTAssertNil(s.state.evaluation)
        XCTAssertEqual(s.state.connection?.failure?.urlError, -1200)
        XCTAssertEqual(
            s.state.change?.line, "TLS minimum -> TLS 1.3: verdict: trusted -> no connection, URLError -1200")
        s.press(.char("v"))
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertEqual(
            s.state.change?.line, "TLS minimum -> TLS 1.2: verdict: no connection, URLError -1200 -> trusted")
    }

    func testAIAOffLeavesTheIntermediateMissing() {
        let s = Session(scenarios: Self.scenarios)
        s.select("missing-intermediate-aia")
        XCTAssertEqual(s.verdict?.trusted, true)
        // How it was served follows the source (D440): only AIA supplied the intermediate.
        XCTAssertEqual(s.state.chainRows.map(\.source).contains("fetched (AIA) · aia-filled"), true)
        s.press(.char("f"))
        XCTAssertEqual(s.verdict?.osstatus, -25318)
        XCTAssertTrue(s.state.change!.line.hasPrefix("AIA -> off: "), s.state.change!.line)
        XCTAssertTrue(s.state.change!.pathChanged)
    }

    func testBasicPolicyUsesNoFetchedIntermediateWithoutReconnecting() {
        let s = Session(scenarios: Self.scenarios)
        s.select("missing-intermediate-aia")
        let connects = s.log.filter(\.isConnect).count
        s.press(.char("p"), .char("p"))
        XCTAssertEqual(s.state.toggles.policy, .basicX509)
        XCTAssertEqual(s.verdict?.osstatus, -25318, "Basic X.509 fetches no intermediate")
        XCTAssertEqual(s.log.filter(\.isConnect).count, connects)
    }

    func testAnswersToSupersededRequestsAreIgnored() {
        let s = Session(scenarios: Self.scenarios)
        s.pressHolding(.char("j"), .char("j"))  // wrong-host, then tls12-only: two connections
        XCTAssertEqual(s.state.target?.name, "tls12-only")
        XCTAssertTrue(s.state.isBusy)
        s.release()
        XCTAssertEqual(s.state.connection?.report.target.port, Int(portOf(s, "tls12-only")))
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertFalse(s.state.isBusy)
    }

    func testFocusSelectionAndDetail() {
        let s = Session(scenarios: Self.scenarios)
        XCTAssertEqual(s.state.focus, .targets)
        s.press(.tab)
        XCTAssertEqual(s.state.focus, .chain)
        XCTAssertEqual(DetailContent.title(s.state), "Certificate [0] 127.0.0.1")
        s.press(.char("G"))
        XCTAssertEqual(
            DetailContent.title(s.state), "Certificate #0 as sent 127.0.0.1", "the server sends its leaf only")
        s.press(.char("j"), .char("j"), .char("j"))
        XCTAssertEqual(s.state.selectedCertificate, s.state.chainRows.count - 1, "clamped at the last row")
        s.press(.tab)
        XCTAssertEqual(s.state.focus, .steps)
        XCTAssertEqual(s.state.detailSubject, .steps)
        s.press(.char("G"))
        XCTAssertEqual(s.state.selectedStepValue?.id, s.state.evaluation!.steps[s.state.stepOrder.last!].id)
        s.press(.enter)
        XCTAssertEqual(s.state.focus, .detail)
        XCTAssertEqual(s.state.detailSubject, .steps, "the detail pane keeps showing the step")
        s.press(.backTab, .backTab, .backTab)
        XCTAssertEqual(s.state.focus, .targets)
        s.press(.char("3"))
        XCTAssertEqual(s.state.focus, .steps)
        s.press(.char("4"))
        XCTAssertEqual(s.state.focus, .detail)
        s.press(.char("1"))
        XCTAssertEqual(s.state.focus, .targets)
        s.press(.char("?"))
        XCTAssertTrue(s.state.showHelp)
        s.press(.char("j"), .char("G"))
        XCTAssertTrue(s.state.showHelp, "the movement keys scroll the help")
        XCTAssertGreaterThan(s.state.helpScroll, 0)
        XCTAssertEqual(s.state.target?.name, "good", "and move nothing else")
        s.press(.char("p"))
        XCTAssertFalse(s.state.showHelp, "any other key closes the help")
        XCTAssertEqual(s.state.toggles.policy, .sslWithHost, "and does nothing else")
        s.press(.char("q"))
        XCTAssertTrue(s.state.shouldQuit)
    }

    private func portOf(_ s: Session, _ name: String) -> UInt16 {
        guard case .server(let t, _)? = s.state.targets.first(where: { $0.name == name })?.source else { return 0 }
        return t.port
    }
}
