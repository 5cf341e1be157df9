import ATSModel
import TLSProbe
import TrustCore
import TrustLab
import TrustSupport
import TrustX509

/// The explorer's one state transition: pure, so a user session is a sequence of calls a test
/// can replay. Work that takes time or touches the system (the lab, connections, evaluations,
/// files) comes back as effects.
/// - Parameters:
///   - state: The current state.
///   - action: What happened.
/// - Returns: The next state and the effects to run.
public func reduce(_ state: AppState, _ action: Action) -> (AppState, [Effect]) {
    var s = state
    var effects: [Effect] = []
    switch action {
    case .command(let command): s.apply(command, &effects)
    case .click(let target):
        s.message = nil
        guard s.popup == nil else { break }
        if target.pane != s.focus { s.focus(target.pane) }
        if let row = target.row {
            switch target.pane {
            case .targets: if row != s.selectedTarget { s.select(target: row, &effects) }
            case .chain:
                if row != s.selectedCertificate { s.detailScroll = 0 }
                s.selectedCertificate = row
            case .steps:
                if row != s.selectedStep { s.detailScroll = 0 }
                s.selectedStep = row
            case .detail: break
            }
        }
    case .wheel(let target, let rows):
        switch s.popup {
        case .help?:
            s.helpScroll = max(0, min(s.helpScroll + rows, s.helpScrollLimit))
        case .prompt?, .overlay?: break
        case nil:
            // The wheel scrolls the pane under the pointer, which takes focus (as in most TUIs).
            if target.pane != s.focus { s.focus(target.pane) }
            s.move(by: rows, &effects)
        }
    case .frameLaid(let m):
        s.detailViewport = m.detail
        if let v = m.detail { s.detailScroll = min(s.detailScroll, max(0, v.lines - v.height)) }
        if s.detailFollowsEvidence, let scrolled = m.detailScroll { s.detailScroll = scrolled }
        s.listOffsets.merge(m.listOffsets) { _, new in new }
        s.helpViewport = m.help
        s.helpScroll = min(s.helpScroll, s.helpScrollLimit)
    case .clipboardRefused:
        s.message = "the terminal did not take the copy; the command is shown above"
    case .unknownKey(let label):
        s.message = "\(label): no key here; ? lists the keys"
    case .promptEdit(let edit): s.apply(edit, &effects)
    case .labStarted(let targets, let directory):
        s.lab = .running(directory: directory)
        s.targets = targets
        if !targets.isEmpty { s.select(target: 0, &effects) }
    case .labFailed(let why):
        s.lab = .failed(why)
    case .connected(let id, let result):
        if s.answerComparison(connected: id, result, &effects) { break }
        guard id == s.pendingConnect else { break }  // an answer to a superseded request
        s.pendingConnect = nil
        s.chain = .ready(result)
        if result.chain.isEmpty {
            let outcome = Outcome.noConnection(urlError: result.failure?.urlError)
            s.record(outcome: outcome, evaluation: nil)
        } else {
            s.requestEvaluation(&effects)
        }
    case .evaluated(let id, let evaluation):
        if s.answerComparison(evaluated: id, evaluation) { break }
        if id == s.pendingPreview {
            s.pendingPreview = nil
            if let e = evaluation, s.prompt != nil {
                let outcome = Outcome(s.connection.map { $0.finalVerdict(e) }?.verdict ?? e.verdict)
                s.prompt?.preview = outcome
            }
            break
        }
        guard id == s.pendingEvaluation else { break }
        s.pendingEvaluation = nil
        guard var e = evaluation else {
            s.record(outcome: .noConnection(urlError: nil), evaluation: nil)
            break
        }
        if let connection = s.connection { e = connection.finalVerdict(e) }
        s.record(outcome: Outcome(e.verdict), evaluation: e)
        s.fetchRevocationIfAsked(for: e, &effects)
    case .timelineMade(let id, let timeline):
        guard id == s.pendingTimeline, s.prompt?.kind == .time else { break }
        s.pendingTimeline = nil
        s.timeline = timeline
    case .revocationFetched(let id, let leaf, let result):
        guard id == s.pendingRevocation else { break }
        s.pendingRevocation = nil
        s.fetchedRevocation = (leaf, result)
        if s.toggles.fetchRevocation { s.requestEvaluation(&effects) }
    case .completions(let id, let names):
        guard id == s.pendingCompletion, var prompt = s.prompt else { break }
        s.pendingCompletion = nil
        s.prompt = AppState.complete(&prompt, with: names)
    case .anchorsLoaded(let path, let result):
        switch result {
        case .failure(let f): s.message = f.message
        case .success(let certs):
            let added = certs.filter { c in !s.effectiveAnchors.contains { $0.certificate == c } }
            s.change(
                "anchors + \(certs.count) from \(path)", &effects,
                message: added.isEmpty ? "every certificate of \(path) is already an anchor" : nil
            ) { t in
                for c in certs {
                    t.removedAnchors.remove(c)
                    if !t.addedAnchors.contains(where: { $0.certificate == c }) {
                        t.addedAnchors.append(AnchorEntry(c, file: path))
                    }
                }
            }
        }
    case .atsLoaded(let path, let result):
        switch result {
        case .failure(let f): s.message = f.message
        case .success(let configuration):
            s.message = nil
            s.change("ATS -> \(path) (\(s.toggles.ats.platform.rawValue))", &effects) { t in
                t.ats.enabled = true
                t.ats.configuration = configuration
                t.ats.source = path
            }
        }
    case .filesWritten(let result):
        switch result {
        case .success(let text): s.message = text
        case .failure(let f): s.message = f.message
        }
    case .resolved(let index, let result):
        let count = s.targets.count
        s.expand(target: index, result, &effects)
        s.targetsReplaced(at: index, by: s.targets.count - count + 1, &effects)
    case .watchTick(let timer): s.startWatchRound(timer: timer, &effects)
    case .watched(let timer, let round, let time): s.watched(timer: timer, round, at: time, &effects)
    }
    s.refreshComparison(&effects)
    return (s, effects)
}

extension AppState {
    /// The state for the built-in lab, and the effect that starts it.
    /// - Parameters:
    ///   - now: The clock at start-up.
    ///   - systemStore: The system roots.
    ///   - options: The lab's options (every scenario on loopback by default).
    /// - Returns: The state and its first effects.
    ///   - toggles: The settings to start with (`0` comes back to them).
    public static func lab(
        now: Timestamp, systemStore: (any IssuerSource)?, options: LabOptions? = nil, toggles: Toggles = Toggles()
    ) -> (AppState, [Effect]) {
        var state = AppState(now: now, systemStore: systemStore, lab: .starting)
        state.toggles = toggles
        state.startToggles = toggles
        return (state, [.startLab(options ?? LabOptions(now: now))])
    }

    /// The state for exploring `targets`, and the effect that fetches the first one's chain.
    /// - Parameters:
    ///   - targets: Servers or files.
    ///   - now: The clock at start-up.
    ///   - systemStore: The system roots.
    ///   - toggles: The settings to start with (`0` comes back to them).
    /// - Returns: The state and its first effects.
    public static func explore(
        _ targets: [ExplorerTarget], now: Timestamp, systemStore: (any IssuerSource)?, toggles: Toggles = Toggles()
    ) -> (AppState, [Effect]) {
        var state = AppState(now: now, systemStore: systemStore, targets: targets)
        state.toggles = toggles
        state.startToggles = toggles
        var effects: [Effect] = []
        if !targets.isEmpty { state.select(target: 0, &effects) }
        if targets.count == 1 { state.focus(.steps) }
        return (state, effects)
    }

    /// The help's last scroll position: its last page once drawn, else its line count.
    var helpScrollLimit: Int {
        if let v = helpViewport { return max(0, v.lines - v.height) }
        return HelpContent.lineCount(Keymap.standard, self)
    }

    /// Rows a page key moves.
    static let pageRows = 10
}
