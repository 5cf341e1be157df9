import Explorer
import TrustCore
import TrustLab
import TrustSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A user session replayed synchronously: keys go through the real keymap and `reduce`, and
/// every effect is performed by the real executor (lab on loopback, real TLS, real evaluator)
/// before the next key, so a test reads like what a user does and sees.
final class Session {
    private(set) var state: AppState
    let executor = EffectExecutor()
    let keymap = Keymap.standard
    /// Effects requested but not yet performed (see `pressHolding`).
    private(set) var held: [Effect] = []
    /// Every effect requested so far, in order.
    private(set) var log: [Effect] = []

    /// A session on the lab serving `scenarios`, with no system store (deterministic verdicts).
    init(scenarios: [String], now: Timestamp = Session.now) {
        let (state, effects) = AppState.lab(
            now: now, systemStore: nil, options: LabOptions(scenarios: scenarios, now: now))
        self.state = state
        run(effects)
    }

    /// A session on explicit targets.
    init(targets: [ExplorerTarget], now: Timestamp = Session.now) {
        let (state, effects) = AppState.explore(targets, now: now, systemStore: nil)
        self.state = state
        run(effects)
    }

    deinit { executor.shutdown() }

    static var now: Timestamp { Timestamp(secondsSinceEpoch: Int64(time(nil))) }

    /// Texts the explorer put on the clipboard (the driver does this on the UI thread).
    private(set) var copied: [String] = []

    func run(_ effects: [Effect]) {
        for effect in effects {
            log.append(effect)
            if case .copyToClipboard(let text) = effect {
                copied.append(text)
                continue
            }
            send(executor.perform(effect))
        }
    }

    func send(_ action: Action) {
        let (next, effects) = reduce(state, action)
        state = next
        run(effects)
    }

    /// Presses keys, performing every effect before the next key.
    func press(_ keys: KeyStroke..., file: StaticString = #filePath, line: UInt = #line) {
        for key in keys {
            guard let action = keymap.action(for: key, in: state) else {
                XCTFail("\(key) does nothing here", file: file, line: line)
                return
            }
            send(action)
        }
    }

    /// Presses keys but keeps their effects for `release()`: the user is faster than the network.
    func pressHolding(_ keys: KeyStroke...) {
        for key in keys {
            guard let action = keymap.action(for: key, in: state) else { continue }
            let (next, effects) = reduce(state, action)
            state = next
            log += effects
            held += effects
        }
    }

    /// Performs the held effects in the order requested.
    func release() {
        let effects = held
        held = []
        for effect in effects { send(executor.perform(effect)) }
    }

    /// Presses keys and types text at the prompt they open, then Enter.
    func prompt(_ key: Character, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        press(.char(key), file: file, line: line)
        type(text)
        press(.enter, file: file, line: line)
    }

    /// Types text.
    func type(_ text: String) {
        for c in text { send(keymap.action(for: .char(c), in: state)!) }
    }

    /// Selects the target named `name` with j/k, as a user would.
    func select(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let index = state.targets.firstIndex(where: { $0.name == name }) else {
            XCTFail("no target \(name)", file: file, line: line)
            return
        }
        while state.selectedTarget < index { press(.char("j")) }
        while state.selectedTarget > index { press(.char("k")) }
    }

    var verdict: Verdict? { state.evaluation?.verdict }

    /// The status of step `id` on certificate `certificate` (nil: path-level).
    func status(_ id: StepID, _ certificate: Int? = nil) -> StepStatus? {
        state.evaluation?.steps.first { $0.id == id && $0.certificate == certificate }?.status
    }
}

extension Effect {
    var isConnect: Bool { if case .connect = self { true } else { false } }
    var isEvaluate: Bool { if case .evaluate = self { true } else { false } }
}
