import ExplorerState
import TLSProbe
import TrustCore
import TrustReport
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The watch's side of the executor: timers on their own threads, and rounds that connect to
// each address of a target and evaluate what it sent.
extension EffectExecutor {
    /// How often a timer's thread looks whether it was stopped: a stopped timer's thread ends
    /// within this, and ticks never come after `stopWatchTimer`.
    static let watchTimerPoll: Duration = .milliseconds(50)

    /// Starts or stops a watch timer without a worker thread of `run`'s; false for other effects.
    func runsWatchTimer(_ effect: Effect) -> Bool {
        switch effect {
        case .startWatchTimer(let timer, let every):
            watchTimers.withLock { _ = $0.insert(timer) }
            let started = try? POSIXThread(detached: true) { [self] in
                while waitTick(timer: timer, every: every) { publish(.watchTick(timer: timer)) }
            }
            // No thread (resource exhaustion): the watch then has its first round only.
            if started == nil { watchTimers.withLock { _ = $0.remove(timer) } }
            return true
        case .stopWatchTimer(let timer):
            watchTimers.withLock { _ = $0.remove(timer) }
            return true
        default: return false
        }
    }

    /// Waits one interval; false when the timer was stopped meanwhile.
    private func waitTick(timer: Int, every: Duration) -> Bool {
        let due = ContinuousClock.now + every
        while true {
            guard watchTimers.withLock({ $0.contains(timer) }) else { return false }
            let left = due - ContinuousClock.now
            if left <= .zero { return true }
            let slice = min(left, Self.watchTimerPoll)
            let (seconds, attoseconds) = slice.components
            usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        }
    }

    /// `perform`'s answer to a timer's start: its first tick, after one interval (for replays on
    /// the calling thread).
    func firstTick(timer: Int, every: Duration) -> Action {
        watchTimers.withLock { _ = $0.insert(timer) }
        _ = waitTick(timer: timer, every: every)
        return .watchTick(timer: timer)
    }

    /// `perform`'s answer to a timer's stop: a tick of the stopped timer, which `reduce` ignores
    /// as it ignores any tick no watch owns.
    func stopWatchTimer(_ timer: Int) -> Action {
        watchTimers.withLock { _ = $0.remove(timer) }
        return .watchTick(timer: timer)
    }

    /// One round: every address of the target (the name resolved afresh each round, so an
    /// address that appears or goes is seen), all within the connection's usual timeout.
    func performWatchRound(_ r: WatchRoundRequest) -> Action {
        let deadline = EvaluationDeadline(after: r.connect.options.timeout)
        var entries: [WatchRoundEntry] = []
        for (address, target) in Self.watchEndpoints(r.connect.target, timeout: r.connect.options.timeout) {
            guard !deadline.hasPassed else {
                let why = "the round's \(r.connect.options.timeout) timeout passed before connecting"
                entries.append(
                    WatchRoundEntry(
                        observation: WatchObservation(
                            target: r.name, address: address, time: Self.wallClock(), outcome: .failed(why)),
                        connection: nil))
                continue
            }
            let result = ServerConnection.connect(
                target, options: r.connect.options, fetchAIA: r.connect.fetchAIA, anchors: r.connect.anchors,
                systemStore: r.connect.systemStore, atsPolicy: r.connect.atsPolicy, deadline: deadline)
            let time = Self.wallClock()
            let outcome = watchOutcome(result, settings: r.settings, fetchAIA: r.connect.fetchAIA)
            entries.append(
                WatchRoundEntry(
                    observation: WatchObservation(target: r.name, address: address, time: time, outcome: outcome),
                    connection: result))
        }
        return .watched(timer: r.timer, entries, at: Self.wallClock())
    }

    /// What one connection gave: its chain's evaluation under the round's settings with what
    /// the connection adds (as the screen's own evaluation adds it), or the failure.
    func watchOutcome(_ result: ConnectionResult, settings: TrustSettings, fetchAIA: Bool) -> WatchOutcome {
        guard !result.chain.isEmpty else {
            return .failed(result.failure?.message ?? "the server sent no certificate")
        }
        var s = atThisMoment(settings)
        s.negotiated = result.negotiated
        if s.policy.isSSL && fetchAIA { s.fetchedIssuers = result.fetchedIssuers }
        s.presentedSCTs = result.presentedSCTs
        s.stapledOCSPResponse = result.ocspResponse
        guard
            var e = evaluator.evaluate(
                chain: result.chain, settings: s, deadline: EvaluationDeadline(after: EffectExecutor.evaluationTime))
        else { return .failed("nothing to evaluate") }
        e.connection = result.report
        return .evaluated(WatchSummary(result.finalVerdict(e)))
    }

    /// The addresses a round connects to, each with its label (`127.0.0.2:8443`): the one
    /// `--connect-to` or an IP literal names, else every address the name resolves to. A name
    /// that does not resolve here is connected to as usual, unlabelled (a proxy may resolve it;
    /// otherwise the connection fails and the round records the target's failure).
    static func watchEndpoints(_ target: ProbeTarget, timeout: Duration) -> [(String?, ProbeTarget)] {
        if let c = target.connectTo { return [(c.description, target)] }
        if parseIPAddress(target.host) != nil {
            return [(Endpoint(host: target.host, port: target.port).description, target)]
        }
        guard let addresses = try? Probe.addresses(of: target.host, timeout: timeout), !addresses.isEmpty else {
            return [(nil, target)]
        }
        return addresses.map { address in
            let endpoint = Endpoint(host: address, port: target.port)
            var pinned = target
            pinned.connectTo = endpoint
            return (endpoint.description, pinned)
        }
    }

    /// The wall clock, to the second.
    static func wallClock() -> Timestamp { Timestamp(secondsSinceEpoch: Int64(time(nil))) }
}
