import ATSModel
import ExplorerState
import ServedChain
import Synchronization
import TLSProbe
import TrustCore
import TrustLab
import TrustSupport
import TrustTimeline
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs effects off the UI thread and publishes their answers into a mutex-guarded inbox with
/// a generation counter, which the UI loop polls between keys.
///
/// A synchronous key loop on the main actor starves Swift tasks, so effects run on their own
/// POSIX threads (the lab's pattern) and never touch the state: they only append actions.
public final class EffectExecutor: Sendable {
    struct Inbox {
        var generation = 0
        var actions: [Action] = []
    }

    private let inbox = Mutex(Inbox())
    private let lab = Mutex<Lab?>(nil)
    private let stopped = Atomic<Bool>(false)
    /// The watch timers running, by id: a timer's thread ends once its id is gone.
    let watchTimers = Mutex<Set<Int>>([])
    /// The session's one evaluator: its signature cache makes re-evaluation after a toggle
    /// verify nothing again.
    public let evaluator: Evaluator

    /// The most one evaluation may take before it ends with the `budget` step.
    public static let evaluationTime: Duration = .seconds(5)

    /// When the session started, on a clock that only moves forward: an evaluation at "now" is
    /// at the session's start time plus the time elapsed since.
    let sessionStart: ContinuousClock.Instant

    /// Creates an executor with its own evaluator.
    /// - Parameters:
    ///   - evaluator: The evaluator every evaluation of this session uses.
    ///   - sessionStart: When the session's start time (`AppState.now`) was read.
    public init(evaluator: Evaluator = Evaluator(), sessionStart: ContinuousClock.Instant = .now) {
        self.evaluator = evaluator
        self.sessionStart = sessionStart
    }

    /// `settings` with a time of "now" moved to the moment of the evaluation: the reducer puts
    /// the session's start time there, and the time elapsed since is added (D300). A fixed
    /// time (`t`, `--at`) is kept.
    func atThisMoment(_ settings: TrustSettings) -> TrustSettings {
        guard settings.timeMode == .now else { return settings }
        var s = settings
        s.time = s.time.adding(seconds: max(0, sessionStart.duration(to: .now).components.seconds))
        return s
    }

    /// Starts `effect` on a background thread; its answer appears in the inbox.
    /// - Parameter effect: The work to do.
    public func run(_ effect: Effect) {
        if runsWatchTimer(effect) { return }
        let started = try? POSIXThread(detached: true) { [self] in
            let action = perform(effect)
            publish(action)
        }
        let ok = started != nil
        // No thread (resource exhaustion): do the work here rather than lose the answer.
        if !ok { publish(perform(effect)) }
    }

    /// Starts every effect.
    public func run(_ effects: [Effect]) {
        for effect in effects { run(effect) }
    }

    /// Does the work of `effect` on the calling thread and returns its answer. Blocking: the UI
    /// never calls it directly; tests do, to replay a session deterministically.
    /// - Parameter effect: The work to do.
    /// - Returns: The action that reports the result.
    public func perform(_ effect: Effect) -> Action {
        switch effect {
        case .startLab(let options):
            do {
                let started = try Lab.start(options)
                let previous = lab.withLock { current in
                    defer { current = started }
                    return current
                }
                previous?.stop()
                // Stopped while starting: do not leave servers behind.
                if stopped.load(ordering: .acquiring) { started.stop() }
                let served = started.scenarios.flatMap {
                    ExplorerTarget.labTargets($0, anchor: started.anchor($0.scenario.anchor).certificate)
                }
                // What the lab cannot serve is listed too, selectable, with its reason.
                let targets = ExplorerTarget.inCatalogueOrder(
                    served: served, unavailable: started.unavailable.map { ($0, $0.unavailable ?? "not served") })
                return .labStarted(targets: targets, directory: started.directory)
            } catch {
                return .labFailed(error.description)
            }
        case .connect(let r):
            let result = ServerConnection.connect(
                r.target, options: r.options, fetchAIA: r.fetchAIA, anchors: r.anchors, systemStore: r.systemStore,
                atsPolicy: r.atsPolicy)
            return .connected(request: r.id, result)
        case .evaluate(let r):
            // The same bound as a command's: an answer in seconds whatever the chain (Esc stops
            // waiting for it sooner).
            // One deadline for the evaluation and its store comparison, as a command's run (D326).
            let deadline = EvaluationDeadline(after: EffectExecutor.evaluationTime)
            var evaluation = evaluator.evaluate(chain: r.chain, settings: atThisMoment(r.settings), deadline: deadline)
            evaluation?.connection = r.connection
            evaluation?.presentedSource = r.fromFiles ? .file : .presented
            // The Detail pane's "Trusted by": the same chain under Apple's store and this
            // machine's, with signatures from the cache the first evaluation filled.
            if let e = evaluation, r.settings.systemStore != nil, !e.steps.contains(where: { $0.id == .budget }) {
                evaluation?.storeComparison = StoreComparison.compare(
                    e, stores: [AppleRootStore.shared, AppState.machineStore], evaluator: evaluator, deadline: deadline)
            }
            return .evaluated(request: r.id, evaluation)
        case .listDirectory(let id, let path):
            return .completions(request: id, FileSystem.completions(of: path))
        case .loadAnchors(var path, let password, let fallback):
            if let fallback, path.first != "/", access(path, F_OK) != 0, access(fallback + "/" + path, F_OK) == 0 {
                path = fallback + "/" + path
            }
            do {
                return .anchorsLoaded(path: path, .success(try CertificateLoader.load(path: path, password: password)))
            } catch {
                return .anchorsLoaded(path: path, .failure(EffectFailure(error.description)))
            }
        case .loadATSPlist(let path):
            let bytes: [UInt8]
            do {
                bytes = try CertificateLoader.readFile(path)
            } catch {
                return .atsLoaded(path: path, .failure(EffectFailure(error.description)))
            }
            do {
                return .atsLoaded(path: path, .success(try ATSConfiguration.decode(infoPlist: bytes)))
            } catch {
                return .atsLoaded(path: path, .failure(EffectFailure("\(path): \(error.description)")))
            }
        case .writeFiles(let files, let message):
            for file in files {
                if let why = FileSystem.write(file) { return .filesWritten(.failure(EffectFailure(why))) }
            }
            return .filesWritten(.success(message))
        case .writeServedChain(let path, let evaluation):
            // The same chain and the same check as `check --write-chain` (D442).
            switch ChainToServe.make(for: evaluation) {
            case .failure(let refusal):
                return .filesWritten(.failure(EffectFailure("the chain to serve: nothing written: \(refusal.message)")))
            case .success(let chain):
                if let why = FileSystem.write(FileToWrite(path: path, contents: chain.pem, replace: false)) {
                    return .filesWritten(.failure(EffectFailure(why)))
                }
                return .filesWritten(.success("wrote the chain to serve to \(path): \(chain.summary)"))
            }
        case .copyToClipboard:
            // The driver copies on the UI thread; an executor alone has no terminal.
            return .filesWritten(.success("no terminal to copy to"))
        case .fetchRevocation(let id, let path, let timeout):
            let fetched = RevocationFetcher().fetch(path: path, timeout: timeout)
            return .revocationFetched(request: id, leaf: path[0], fetched)
        case .watchRound(let r): return performWatchRound(r)
        case .timeline(let id, let e):
            // The session's evaluator: the signatures are in its cache, so each evaluation of
            // the timeline costs microseconds; the bound is an evaluation's own.
            let deadline = EvaluationDeadline(after: EffectExecutor.evaluationTime)
            return .timelineMade(request: id, Timeline.make(e, evaluator: evaluator, deadline: deadline))
        case .startWatchTimer(let timer, let every): return firstTick(timer: timer, every: every)
        case .stopWatchTimer(let timer): return stopWatchTimer(timer)
        case .resolve(let index, let host, let timeout):
            do {
                return .resolved(target: index, .success(try Probe.addresses(of: host, timeout: timeout)))
            } catch {
                return .resolved(target: index, .failure(EffectFailure(error.message)))
            }
        }
    }

    /// Appends an answer and bumps the generation.
    func publish(_ action: Action) {
        inbox.withLock { box in
            box.actions.append(action)
            box.generation += 1
        }
    }

    /// The number of answers published so far: the loop compares it to decide whether to drain.
    public var generation: Int { inbox.withLock { $0.generation } }

    /// Takes every answer published so far, oldest first.
    public func drain() -> [Action] {
        inbox.withLock { box in
            defer { box.actions.removeAll() }
            return box.actions
        }
    }

    /// Stops the lab, if one was started. Idempotent.
    public func shutdown() {
        stopped.store(true, ordering: .releasing)
        watchTimers.withLock { $0.removeAll() }
        let running = lab.withLock { current in
            defer { current = nil }
            return current
        }
        running?.stop()
    }

    deinit { shutdown() }
}
