import Explorer
import ExplorerState
import TLSProbe
import TermUI
import TrustBuilder
import TrustCore
import TrustReport
import TrustSupport
import TrustX509
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `l` and what a watch draws, replayed through `reduce` with canned rounds: observations of
/// in-memory chains, no timer and no network.
final class WatchReduceTests: XCTestCase {
    static let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))

    /// Self-signed leaves, each with its own key, and their summaries as an evaluation that
    /// trusts them gives them.
    static func leaf(_ name: String) throws -> (certificate: Certificate, summary: WatchSummary) {
        let key = try KeyPair.generate(.ecP256)
        let certificate = try CertificateBuilder(
            subject: NameBuilder([.commonName(name)]), publicKey: key, notBefore: now.adding(seconds: -86_400),
            notAfter: now.adding(seconds: 86_400 * 30)
        ).selfSign(key: key)
        let settings = TrustSettings(anchors: [certificate], policy: .basicX509, time: now)
        let evaluation = try XCTUnwrap(Evaluator().evaluate(chain: [certificate], settings: settings))
        XCTAssertTrue(evaluation.verdict.trusted)
        return (certificate, WatchSummary(evaluation))
    }

    static func server(_ name: String, port: UInt16 = 4433) throws -> ExplorerTarget {
        let probe = try ProbeTarget.parse("127.0.0.1:\(port)", defaultPort: 443)
        var options = ProbeOptions()
        options.proxy = .none
        return ExplorerTarget(name: name, location: name, host: "127.0.0.1", source: .server(probe, options))
    }

    /// A state exploring `targets` with the first one's connection left unanswered.
    static func state(_ targets: [ExplorerTarget]) -> AppState {
        AppState.explore(targets, now: now, systemStore: nil).0
    }

    static func press(_ state: inout AppState, _ command: Command) -> [Effect] {
        let (next, effects) = reduce(state, .command(command))
        state = next
        return effects
    }

    /// The timer `l` started for the selected target.
    static func timer(_ effects: [Effect]) -> Int? {
        for case .startWatchTimer(let timer, _) in effects { return timer }
        return nil
    }

    /// A round answered for `timer`: one observation, at `seconds` after `now`.
    static func answer(
        _ state: inout AppState, timer: Int, _ outcome: WatchOutcome, address: String = "127.0.0.1:4433",
        at seconds: Int64
    ) {
        let time = now.adding(seconds: seconds)
        let o = WatchObservation(target: "server", address: address, time: time, outcome: outcome)
        state = reduce(state, .watched(timer: timer, [WatchRoundEntry(observation: o, connection: nil)], at: time)).0
    }

    func testLStartsATimerAndAFirstRoundAndLAgainCancelsTheTimer() throws {
        var s = Self.state([try Self.server("server")])
        s.watchInterval = .seconds(7)
        let started = Self.press(&s, .toggleWatch)
        let timer = try XCTUnwrap(Self.timer(started), "l starts a timer")
        for case .startWatchTimer(_, let every) in started { XCTAssertEqual(every, .seconds(7)) }
        let rounds = started.compactMap { effect -> WatchRoundRequest? in
            if case .watchRound(let r) = effect { return r }
            return nil
        }
        XCTAssertEqual(rounds.map(\.timer), [timer], "the first round starts at once")
        XCTAssertEqual(rounds.first?.connect.target.host, "127.0.0.1")
        XCTAssertNotNil(s.watches[0])

        // A tick while the first round is under way starts no second one.
        XCTAssertTrue(reduce(s, .watchTick(timer: timer)).1.isEmpty)

        Self.answer(&s, timer: timer, .failed("refused"), at: 0)
        let stopped = Self.press(&s, .toggleWatch)
        XCTAssertEqual(s.watches[0]?.isActive, false, "a stopped watch keeps its history")
        let cancelled = stopped.compactMap { effect -> Int? in
            if case .stopWatchTimer(let t) = effect { return t }
            return nil
        }
        XCTAssertEqual(cancelled, [timer])
        // A tick or an answer that was on its way when the watch stopped changes nothing.
        XCTAssertTrue(reduce(s, .watchTick(timer: timer)).1.isEmpty)
        Self.answer(&s, timer: timer, .failed("refused"), at: 1)
        XCTAssertEqual(s.watches[0]?.history.rounds, 1)

        // l again goes on with the same history, under a new timer.
        let resumed = try XCTUnwrap(Self.timer(Self.press(&s, .toggleWatch)))
        XCTAssertNotEqual(resumed, timer)
        Self.answer(&s, timer: resumed, .failed("refused"), at: 2)
        XCTAssertEqual(s.watches[0]?.history.rounds, 2)
    }

    func testATickAfterARoundStartsTheNextRoundWithTheCurrentSettings() throws {
        var s = Self.state([try Self.server("server")])
        let timer = try XCTUnwrap(Self.timer(Self.press(&s, .toggleWatch)))
        Self.answer(&s, timer: timer, .failed("refused"), at: 0)
        _ = Self.press(&s, .cycleTLSMinimum)
        let effects = reduce(s, .watchTick(timer: timer)).1
        let rounds = effects.compactMap { effect -> WatchRoundRequest? in
            if case .watchRound(let r) = effect { return r }
            return nil
        }
        XCTAssertEqual(rounds.count, 1)
        XCTAssertEqual(rounds.first?.connect.options.minimumVersion, .tls1_3)
    }

    func testLOnAFilesTargetSaysThereIsNothingToConnectTo() throws {
        let leaf = try Self.leaf("file leaf").certificate
        var s = Self.state([
            ExplorerTarget(
                name: "leaf.pem", location: "leaf.pem", host: "", source: .files([leaf], paths: ["leaf.pem"]))
        ])
        let effects = Self.press(&s, .toggleWatch)
        XCTAssertTrue(effects.isEmpty)
        XCTAssertTrue(s.watches.isEmpty)
        XCTAssertEqual(s.message, "l watches a server; this target is files, so there is nothing to connect to")
    }

    /// The Targets row of the watched target, as drawn.
    static func targetRow(_ s: AppState, width: Int, symbols: Symbols = .unicode) -> String {
        let lines = ExplorerView.lines(s, width: width, height: 30, options: ViewOptions(symbols: symbols))
        return lines.first { $0.contains("server") && $0.contains(symbols == .unicode ? "↻" : "@") } ?? ""
    }

    func testTheStripShowsUnchangedChangedAndFailedRoundsNewestOnTheRight() throws {
        var s = Self.state([try Self.server("server"), try Self.server("other", port: 4434)])
        let timer = try XCTUnwrap(Self.timer(Self.press(&s, .toggleWatch)))
        let a = try Self.leaf("a")
        let b = try Self.leaf("b")
        Self.answer(&s, timer: timer, .evaluated(a.summary), at: 0)  // the baseline
        Self.answer(&s, timer: timer, .evaluated(a.summary), at: 20)  // the same leaf
        Self.answer(&s, timer: timer, .evaluated(b.summary), at: 40)  // a new leaf
        Self.answer(&s, timer: timer, .failed("connection refused"), at: 60)
        XCTAssertEqual(s.watches[0]?.cells, [.unchanged, .unchanged, .changed, .failed])
        XCTAssertTrue(Self.targetRow(s, width: 160).contains("server ↻ ··●✗"), Self.targetRow(s, width: 160))
        XCTAssertTrue(
            Self.targetRow(s, width: 160, symbols: .ascii).contains("server @ ..*x"),
            Self.targetRow(s, width: 160, symbols: .ascii))
    }

    func testTheStripKeepsTheNewestRoundsThatFitThePane() throws {
        var s = Self.state([try Self.server("server"), try Self.server("other", port: 4434)])
        let timer = try XCTUnwrap(Self.timer(Self.press(&s, .toggleWatch)))
        let a = try Self.leaf("a")
        for i in 0..<299 { Self.answer(&s, timer: timer, .evaluated(a.summary), at: Int64(i) * 20) }
        Self.answer(&s, timer: timer, .failed("connection refused"), at: 6000)
        XCTAssertEqual(s.watches[0]?.cells.count, 300)
        for width in [80, 120, 200] {
            let lines = ExplorerView.lines(s, width: width, height: 30)
            let row = Self.targetRow(s, width: width)
            XCTAssertEqual(lines.first?.count, width)
            // The Targets pane's right border follows the strip on the same row: it was not
            // drawn over, and the newest round (the failure) is the last cell before it.
            let border = try XCTUnwrap(row.dropFirst().firstIndex(of: "│"), row)
            let strip = row[..<border].trimmingCharacters(in: .whitespaces)
            XCTAssertTrue(strip.hasSuffix("·✗"), row)
            XCTAssertLessThan(strip.filter { $0 == "·" }.count, 299, "width \(width): \(row)")
        }
    }

    func testTheDetailListsTheChangesNewestFirstWithTimesAndDigests() throws {
        var s = Self.state([try Self.server("server")])
        let timer = try XCTUnwrap(Self.timer(Self.press(&s, .toggleWatch)))
        let a = try Self.leaf("a")
        let b = try Self.leaf("b")
        Self.answer(&s, timer: timer, .evaluated(a.summary), at: 0)
        Self.answer(&s, timer: timer, .evaluated(b.summary), at: 20)
        Self.answer(&s, timer: timer, .failed("connection refused"), at: 40)
        let lines = DetailContent.lines(s).map(\.text)
        // The change lines (the Detail's Address row names the same address alone).
        let changes = lines.filter { $0.contains("127.0.0.1:4433  ") }
        XCTAssertEqual(changes.count, 3, lines.joined(separator: "\n"))
        func short(_ c: Certificate) -> String { String(hexString(c.sha256).prefix(6)) + "…" }
        XCTAssertEqual(
            changes,
            [
                Self.now.adding(seconds: 40).rfc3339 + "  127.0.0.1:4433  failure: connection refused",
                Self.now.adding(seconds: 20).rfc3339
                    + "  127.0.0.1:4433  new leaf (new key) \(short(a.certificate)) -> \(short(b.certificate)); now trusted",
                Self.now.rfc3339 + "  127.0.0.1:4433  first evaluation: trusted, leaf \(short(a.certificate))",
            ])
        XCTAssertTrue(lines.contains { $0.hasPrefix("Watch: every 20 s, 3 rounds") }, lines.joined(separator: "\n"))
    }

    func testAServersTextInTheDetailIsEscaped() throws {
        var s = Self.state([try Self.server("server")])
        let timer = try XCTUnwrap(Self.timer(Self.press(&s, .toggleWatch)))
        Self.answer(&s, timer: timer, .failed("bad \u{1B}[2J alert"), at: 0)
        let text = ExplorerView.lines(s, width: 160, height: 40).joined(separator: "\n")
        XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B })
        XCTAssertTrue(text.contains("failure: bad \\u{1B}[2J"), text)
    }

    /// A connection's result that presented `chain`.
    static func connection(_ chain: [Certificate]) -> ConnectionResult {
        var report = ConnectionReport(target: .init(host: "127.0.0.1", port: 4433, sni: nil))
        report.peerAddress = "127.0.0.1:4433"
        return ConnectionResult(chain: chain, report: report)
    }

    /// Applies `action` and performs its effects with a real executor (evaluations only: a
    /// connection or a timer here would be a defect of the test).
    static func send(_ state: inout AppState, _ action: Action, _ executor: EffectExecutor) {
        let (next, effects) = reduce(state, action)
        state = next
        for effect in effects {
            switch effect {
            case .evaluate: send(&state, executor.perform(effect), executor)
            case .startWatchTimer, .watchRound, .stopWatchTimer: break
            default: XCTFail("unexpected effect \(effect)")
            }
        }
    }

    func testTheSelectedWatchedTargetShowsTheNewChainWithTheWatchAsTheCauseOfTheChange() throws {
        let executor = EffectExecutor()
        defer { executor.shutdown() }
        let a = try Self.leaf("a")
        let b = try Self.leaf("b")
        var (s, first) = AppState.explore([try Self.server("server")], now: Self.now, systemStore: nil)
        var connect: Int?
        for case .connect(let r) in first { connect = r.id }
        Self.send(&s, .connected(request: try XCTUnwrap(connect), Self.connection([a.certificate])), executor)
        XCTAssertEqual(s.evaluation?.presented.first, a.certificate)
        Self.send(&s, .command(.cyclePolicy), executor)
        XCTAssertEqual(s.change?.cause, "policy -> SSL(nil)")

        Self.send(&s, .command(.toggleWatch), executor)
        let timer = try XCTUnwrap(s.watches[0]?.timer)
        // The first round sees the leaf the screen shows: the screen and its change line stay.
        func round(_ leaf: (certificate: Certificate, summary: WatchSummary), at seconds: Int64) {
            let time = Self.now.adding(seconds: seconds)
            let o = WatchObservation(
                target: "server", address: "127.0.0.1:4433", time: time, outcome: .evaluated(leaf.summary))
            Self.send(
                &s,
                .watched(
                    timer: timer, [WatchRoundEntry(observation: o, connection: Self.connection([leaf.certificate]))],
                    at: time),
                executor)
        }
        round(a, at: 0)
        XCTAssertEqual(s.change?.cause, "policy -> SSL(nil)")
        XCTAssertEqual(s.evaluation?.presented.first, a.certificate)

        // The server's new leaf reaches the screen, and the change line says the watch saw it.
        round(b, at: 20)
        XCTAssertEqual(s.evaluation?.presented.first, b.certificate)
        let cause = try XCTUnwrap(s.change?.cause)
        XCTAssertTrue(cause.hasPrefix("watch: new leaf (new key)"), cause)
        // Undo still undoes the policy: the watch changed no setting.
        Self.send(&s, .command(.undo), executor)
        XCTAssertEqual(s.change?.cause, "undo policy -> SSL(nil)")
        XCTAssertEqual(s.evaluation?.presented.first, b.certificate)
    }

    func testAVerdictFlipAfterASettingsChangeIsMarkedAsSuch() throws {
        var s = Self.state([try Self.server("server")])
        let timer = try XCTUnwrap(Self.timer(Self.press(&s, .toggleWatch)))
        let a = try Self.leaf("a")
        Self.answer(&s, timer: timer, .evaluated(a.summary), at: 0)
        // The same leaf refused: what a stricter setting gives.
        var refused = a.summary
        refused.trusted = false
        refused.osstatus = -67843
        refused.urlError = -1202
        XCTAssertFalse(reduce(s, .watchTick(timer: timer)).1.isEmpty)
        s = reduce(s, .watchTick(timer: timer)).0
        Self.answer(&s, timer: timer, .evaluated(refused), at: 20)
        _ = Self.press(&s, .cyclePolicy)
        s = reduce(s, .watchTick(timer: timer)).0
        Self.answer(&s, timer: timer, .evaluated(a.summary), at: 40)
        let changes = DetailContent.lines(s).map(\.text).filter { $0.contains("verdict ") }
        XCTAssertEqual(changes.count, 2, changes.joined(separator: "\n"))
        // Newest first: the flip back came with the policy change, the first flip did not.
        XCTAssertTrue(
            changes[0].hasSuffix("verdict not trusted (-67843 / -1202) -> trusted (after a settings change)"),
            changes[0])
        XCTAssertTrue(changes[1].hasSuffix("verdict trusted -> not trusted (-67843 / -1202)"), changes[1])
    }

    func testExpandingATargetStopsItsWatchAndMovesTheWatchesAfterIt() throws {
        var s = Self.state([
            try Self.server("first"), try Self.server("pool.example", port: 4434), try Self.server("last", port: 4435),
        ])
        var stopped: [Int] = []
        for i in [1, 2] {
            s = reduce(s, .click(PointerTarget(pane: .targets, row: i))).0
            _ = Self.press(&s, .toggleWatch)
        }
        let timers = try [1, 2].map { try XCTUnwrap(s.watches[$0]?.timer) }
        let (next, effects) = reduce(s, .resolved(target: 1, .success(["127.0.0.2", "127.0.0.3"])))
        for case .stopWatchTimer(let t) in effects { stopped.append(t) }
        XCTAssertEqual(next.targets.count, 4)
        XCTAssertEqual(stopped, [timers[0]])
        XCTAssertNil(next.watches[1])
        XCTAssertNil(next.watches[2])
        XCTAssertEqual(next.watches[3]?.timer, timers[1], "the last target's watch moved with it")
    }

    func testAWatchedTargetThatIsNotSelectedKeepsItsVerdictMarkCurrent() throws {
        var s = Self.state([try Self.server("server"), try Self.server("other", port: 4434)])
        let timer = try XCTUnwrap(Self.timer(Self.press(&s, .toggleWatch)))
        s = reduce(s, .click(PointerTarget(pane: .targets, row: 1))).0
        let a = try Self.leaf("a")
        Self.answer(&s, timer: timer, .evaluated(a.summary), at: 0)
        XCTAssertEqual(s.marks[0]?.outcome, .trusted)
        XCTAssertTrue(Self.targetRow(s, width: 160).contains("✓ server ↻ ·"), Self.targetRow(s, width: 160))
        s = reduce(s, .watchTick(timer: timer)).0
        Self.answer(&s, timer: timer, .failed("connection refused"), at: 20)
        XCTAssertEqual(s.marks[0]?.outcome, .noConnection(urlError: nil))
        XCTAssertTrue(Self.targetRow(s, width: 160).contains("✗ server ↻ ·✗"), Self.targetRow(s, width: 160))
        // A round evaluated under settings the user has since changed says nothing of the new ones.
        s = reduce(s, .watchTick(timer: timer)).0
        _ = Self.press(&s, .cyclePolicy)
        Self.answer(&s, timer: timer, .evaluated(a.summary), at: 40)
        XCTAssertTrue(Self.targetRow(s, width: 160).contains("• server ↻ ·✗●"), Self.targetRow(s, width: 160))
    }
}
