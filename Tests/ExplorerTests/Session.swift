import Explorer
import ExplorerState
import Synchronization
import TrustCore
import TrustLab
import TrustSupport
import TrustX509
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A user session replayed synchronously: keys go through the real keymap and `reduce`, and
/// every effect is performed by the real executor (real TLS to lab servers on loopback, real
/// evaluator) before the next key, so a test reads like what a user does and sees. Starting the
/// lab is answered from the lab the sessions share (`SharedLab`), the same servers a fresh start
/// would give.
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
        self.state.exportDirectory = Self.exportDirectory
        run(effects)
    }

    /// A session on explicit targets.
    init(
        targets: [ExplorerTarget], now: Timestamp = Session.now, systemStore: (any IssuerSource)? = nil,
        toggles: Toggles = Toggles()
    ) {
        let (state, effects) = AppState.explore(targets, now: now, systemStore: systemStore, toggles: toggles)
        self.state = state
        self.state.exportDirectory = Self.exportDirectory
        run(effects)
    }

    /// Where `X` writes in tests, as the explorer writes to its state directory: never the
    /// working directory, which is the checkout.
    static let exportDirectory = NSTemporaryDirectory() + "trustx-session-exports-\(getpid())"

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
            send(perform(effect))
        }
    }

    /// Performs one effect: a lab start from the shared lab when it can serve it, the rest by
    /// the executor.
    func perform(_ effect: Effect) -> Action {
        if case .startLab(let options) = effect, let answer = SharedLab.answer(options) { return answer }
        return executor.perform(effect)
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
        for effect in effects { send(perform(effect)) }
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

/// The lab the explorer's test sessions share. A lab start builds fresh PKI (RSA keys among it),
/// writes its files and binds a server per scenario; doing that once per test process rather than
/// once per session keeps every connection real and the suite fast (the sessions only read the
/// lab: none stops it or changes its files). The first session that asks starts every scenario;
/// each session then sees the scenarios it asked for, in catalogue order, exactly as the
/// executor would list them. The lab stops, and its files go, when the test process exits.
enum SharedLab {
    private static let running = Mutex<(lab: Lab, now: Timestamp)?>(nil)

    /// How far a session's reference time may be from the shared lab's: certificates last days
    /// or more, so a difference of minutes changes no verdict.
    static let timeTolerance: Int64 = 3600

    /// The executor's answer to `startLab(options)`, from the shared lab; nil when the options ask
    /// for something it does not serve (another address, ports, folder, time, or an unknown
    /// scenario, whose error the executor must report).
    static func answer(_ options: LabOptions) -> Action? {
        let defaults = LabOptions()
        guard options.listenAddress == defaults.listenAddress, options.advertisedAddress == nil,
            options.portBase == nil, options.outputDirectory == nil, options.workers == defaults.workers,
            options.connectionTimeout == defaults.connectionTimeout,
            options.scenarios.allSatisfy({ LabScenario.named($0) != nil })
        else { return nil }
        let wanted = options.now ?? Session.now
        let shared = running.withLock { current -> (lab: Lab, now: Timestamp)? in
            if current == nil, let lab = try? Lab.start(LabOptions(now: wanted)) {
                current = (lab, wanted)
                atexit { SharedLab.stop() }
            }
            return current
        }
        guard let (lab, now) = shared, abs(wanted.secondsSinceEpoch - now.secondsSinceEpoch) <= timeTolerance
        else { return nil }
        let names = Set(options.scenarios)
        let targets = lab.scenarios.filter { names.isEmpty || names.contains($0.name) }.flatMap {
            ExplorerTarget.labTargets($0, anchor: lab.anchor($0.scenario.anchor).certificate)
        }
        return .labStarted(targets: targets, directory: lab.directory)
    }

    /// Stops the shared lab (its servers and files).
    static func stop() {
        let shared = running.withLock { current in
            defer { current = nil }
            return current
        }
        shared?.lab.stop()
    }
}
