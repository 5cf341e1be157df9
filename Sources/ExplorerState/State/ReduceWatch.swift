import TLSProbe
import TrustCore
import TrustReport
import TrustSupport

// Watching targets (`l`): a timer per watched target starts rounds, each round's answer is
// folded into the target's history here, and the screen follows when the selected target's
// server sent another chain.
extension AppState {
    /// The shortest interval `--watch` takes, in seconds.
    public static let minimumWatchSeconds = 1
    /// The longest interval `--watch` takes, in seconds (a day).
    public static let maximumWatchSeconds = 86_400

    /// `l`: starts watching the selected server, or stops. A stopped watch keeps its strip and
    /// its changes on screen; `l` again goes on with the same history.
    mutating func toggleWatch(_ effects: inout [Effect]) {
        guard requireServer("l watches a server") else { return }
        let index = selectedTarget
        let name = TerminalSanitizer.sanitize(targets[index].name)
        if let timer = watches[index]?.timer {
            watches[index]?.timer = nil
            watches[index]?.inFlight = false
            effects.append(.stopWatchTimer(timer: timer))
            message = "stopped watching \(name); its history stays (l goes on)"
            return
        }
        let timer = nextRequest
        nextRequest += 1
        if watches[index] == nil {
            watches[index] = TargetWatch(timer: timer, target: targets[index].name)
        } else {
            watches[index]?.timer = timer
        }
        effects.append(.startWatchTimer(timer: timer, every: watchInterval))
        // A round at once: the first is the baseline the later rounds are compared with.
        startWatchRound(timer: timer, &effects)
        message = "watching \(name) every \(watchInterval.components.seconds) s (l stops)"
    }

    /// The index of the target the watch with this timer belongs to.
    func watchedTarget(timer: Int) -> Int? { watches.first { $0.value.timer == timer }?.key }

    /// A tick: a new round, unless the last one is still under way (a slow server is then
    /// asked again at the next tick, never twice at once).
    mutating func startWatchRound(timer: Int, _ effects: inout [Effect]) {
        guard let index = watchedTarget(timer: timer), var watch = watches[index], !watch.inFlight,
            let request = watchRequest(for: index, timer: timer)
        else { return }
        watch.inFlight = true
        watch.roundToggles = toggles
        watches[index] = watch
        effects.append(.watchRound(request))
    }

    /// The round for target `index` under the current settings: the connection a reconnect
    /// would make and the trust settings an evaluation would use, as if it were selected.
    func watchRequest(for index: Int, timer: Int) -> WatchRoundRequest? {
        var other = self
        other.selectedTarget = index
        other.chain = .idle
        other.fetchedRevocation = nil
        var fetch: [Effect] = []
        other.fetchChain(&fetch)
        guard case .connect(let connect)? = fetch.first else { return nil }
        return WatchRoundRequest(timer: timer, name: targets[index].name, connect: connect, settings: other.settings)
    }

    /// A round's answer: folded into the history; for the selected target, the screen takes the
    /// round's connection when it brought another chain than the screen shows.
    mutating func watched(timer: Int, _ round: [WatchRoundEntry], at time: Timestamp, _ effects: inout [Effect]) {
        guard let index = watchedTarget(timer: timer), var watch = watches[index] else { return }
        watch.inFlight = false
        let roundToggles = watch.roundToggles
        let found = watch.fold(round.map(\.observation), at: time, toggles: roundToggles)
        watch.roundToggles = nil
        watches[index] = watch
        if index == selectedTarget {
            followWatch(round, found, &effects)
        } else if let roundToggles, !round.isEmpty {
            // Another target's mark follows its rounds: the verdict under the settings they used,
            // the first address that was not trusted deciding it.
            let outcomes = round.map { entry -> Outcome in
                guard let s = entry.observation.outcome.summary else {
                    return .noConnection(urlError: entry.connection?.failure?.urlError)
                }
                return s.trusted ? .trusted : .rejected(osstatus: s.osstatus, urlError: s.urlError)
            }
            marks[index] = TargetMark(outcome: outcomes.first { $0 != .trusted } ?? .trusted, toggles: roundToggles)
        }
    }

    /// Puts the selected target's new chain on the screen, as a change caused by the watch.
    ///
    /// The "what changed" line then names the watch as its cause, so a server's change is never
    /// passed off as the effect of the last setting changed; rounds that bring the chain the
    /// screen already shows leave the screen and that line alone. A connection the user asked
    /// for and is waiting on wins: it brings a fresh chain itself.
    mutating func followWatch(_ round: [WatchRoundEntry], _ found: [WatchChange], _ effects: inout [Effect]) {
        guard pendingConnect == nil else { return }
        let peer = connection?.report.peerAddress
        guard
            let entry = round.first(where: { $0.connection?.report.peerAddress == peer && peer != nil }) ?? round.first,
            let result = entry.connection
        else { return }
        if let shown = connection, shown.chain == result.chain, (shown.failure == nil) == (result.failure == nil) {
            return
        }
        let mine = found.filter { $0.address == entry.observation.address && $0.kind != .firstEvaluation }
        let what = mine.isEmpty ? "the server sent another chain" : mine.map(\.summaryText).joined(separator: "; ")
        chain = .ready(result)
        // The change line below the verdict says what the watch saw; an older message would hide it.
        message = nil
        addCause("watch: " + what)
        if result.chain.isEmpty {
            // An evaluation still awaited is of the chain the server no longer sends.
            pendingEvaluation = nil
            record(outcome: .noConnection(urlError: result.failure?.urlError), evaluation: nil)
        } else {
            requestEvaluation(&effects)
        }
    }

    /// After `E` replaced target `index` by `count` targets: its watch stops (each address is a
    /// target of its own now, to be watched on its own) and the watches after it move with
    /// their targets.
    mutating func targetsReplaced(at index: Int, by count: Int, _ effects: inout [Effect]) {
        guard count != 1 else { return }
        var moved: [Int: TargetWatch] = [:]
        for (i, watch) in watches {
            if i < index {
                moved[i] = watch
            } else if i == index {
                if let timer = watch.timer { effects.append(.stopWatchTimer(timer: timer)) }
            } else {
                moved[i + count - 1] = watch
            }
        }
        watches = moved
    }
}
