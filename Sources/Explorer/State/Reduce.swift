import TLSProbe
import TrustCore
import TrustLab

/// The explorer's one state transition: pure, so a user session is a sequence of calls a test
/// can replay. Work that takes time (the lab, connections, evaluations) comes back as effects.
/// - Parameters:
///   - state: The current state.
///   - action: What happened.
/// - Returns: The next state and the effects to run.
public func reduce(_ state: AppState, _ action: Action) -> (AppState, [Effect]) {
    var s = state
    var effects: [Effect] = []
    switch action {
    case .command(let command): s.apply(command, &effects)
    case .hostEdit(let edit): s.apply(edit, &effects)
    case .labStarted(let targets, let directory):
        s.lab = .running(directory: directory)
        s.targets = targets
        if !targets.isEmpty { s.select(target: 0, &effects) }
    case .labFailed(let why):
        s.lab = .failed(why)
    case .connected(let id, let result):
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
        guard id == s.pendingEvaluation else { break }
        s.pendingEvaluation = nil
        guard var e = evaluation else {
            s.record(outcome: .noConnection(urlError: nil), evaluation: nil)
            break
        }
        if let connection = s.connection { e = connection.finalVerdict(e) }
        s.record(outcome: Outcome(e.verdict), evaluation: e)
    }
    return (s, effects)
}

extension AppState {
    /// The state for the built-in lab, and the effect that starts it.
    /// - Parameters:
    ///   - now: The clock at start-up.
    ///   - systemStore: The system roots.
    ///   - options: The lab's options (every scenario on loopback by default).
    /// - Returns: The state and its first effects.
    public static func lab(
        now: Timestamp, systemStore: (any IssuerSource)?, options: LabOptions? = nil
    ) -> (AppState, [Effect]) {
        let state = AppState(now: now, systemStore: systemStore, lab: .starting)
        return (state, [.startLab(options ?? LabOptions(now: now))])
    }

    /// The state for exploring `targets`, and the effect that fetches the first one's chain.
    /// - Parameters:
    ///   - targets: Servers or files.
    ///   - now: The clock at start-up.
    ///   - systemStore: The system roots.
    ///   - toggles: The settings to start with.
    /// - Returns: The state and its first effects.
    public static func explore(
        _ targets: [ExplorerTarget], now: Timestamp, systemStore: (any IssuerSource)?, toggles: Toggles = Toggles()
    ) -> (AppState, [Effect]) {
        var state = AppState(now: now, systemStore: systemStore, targets: targets)
        state.toggles = toggles
        var effects: [Effect] = []
        if !targets.isEmpty { state.select(target: 0, &effects) }
        return (state, effects)
    }

    /// Rows a page key moves.
    static let pageRows = 10

    mutating func apply(_ command: Command, _ effects: inout [Effect]) {
        if showHelp && command != .quit {
            // Any key closes the overlay, so it never traps the user.
            showHelp = false
            return
        }
        switch command {
        case .quit: shouldQuit = true
        case .toggleHelp: showHelp = true
        case .focusNext: focus(AppState.Pane(rawValue: (focus.rawValue + 1) % Pane.allCases.count)!)
        case .focusPrevious:
            focus(AppState.Pane(rawValue: (focus.rawValue + Pane.allCases.count - 1) % Pane.allCases.count)!)
        case .moveUp: move(by: -1, &effects)
        case .moveDown: move(by: 1, &effects)
        case .pageUp: move(by: -AppState.pageRows, &effects)
        case .pageDown: move(by: AppState.pageRows, &effects)
        case .first: move(by: Int.min / 2, &effects)
        case .last: move(by: Int.max / 2, &effects)
        case .open:
            switch focus {
            case .targets: reconnect(cause: "reconnect", &effects)
            case .chain, .steps: focus(.detail)
            case .detail: break
            }
        case .reconnect: reconnect(cause: "reconnect", &effects)
        case .cycleAnchors:
            toggles.anchors = toggles.anchors.cycled()
            settingsChanged("anchors -> \(toggles.anchors.rawValue)", &effects)
        case .cyclePolicy:
            toggles.policy = toggles.policy.cycled()
            settingsChanged("policy -> \(toggles.policy.rawValue)", &effects)
        case .cycleHost:
            toggles.host = toggles.host.next(targetHost: target?.host ?? "")
            hostChanged(&effects)
        case .editHost:
            hostEditor = ""
        case .cyclePins:
            toggles.pins = toggles.pins.cycled()
            settingsChanged("pins -> \(toggles.pins.rawValue)", &effects)
        case .cycleTime:
            toggles.time = toggles.time.cycled()
            settingsChanged("time -> \(toggles.time.rawValue)", &effects)
        case .cycleTLSMinimum:
            toggles.tlsMinimum = toggles.tlsMinimum == .tls1_2 ? .tls1_3 : .tls1_2
            reconnect(cause: "TLS minimum -> \(toggles.tlsMinimum)", &effects)
        case .toggleAIA:
            toggles.fetchAIA.toggle()
            reconnect(cause: "AIA -> \(toggles.fetchAIA ? "on" : "off")", &effects)
        case .cycleProfile:
            toggles.profile = toggles.profile.cycled()
            settingsChanged("profile -> \(toggles.profile.rawValue)", &effects)
        case .resetToggles:
            let networkChanged = toggles.tlsMinimum != .tls1_2 || !toggles.fetchAIA
            toggles = Toggles()
            if networkChanged {
                reconnect(cause: "defaults", &effects)
            } else {
                settingsChanged("defaults", &effects)
            }
        }
    }

    mutating func apply(_ edit: HostEdit, _ effects: inout [Effect]) {
        guard let text = hostEditor else { return }
        switch edit {
        case .insert(let c):
            // A host name is at most 253 characters; anything else typed is kept and shown
            // sanitised, since the checks must see exactly what was typed.
            if text.count < 253 { hostEditor = text + String(c) }
        case .deleteBackward:
            hostEditor = String(text.dropLast())
        case .cancel:
            hostEditor = nil
        case .commit:
            hostEditor = nil
            toggles.host = text.isEmpty ? .target : .typed(text)
            hostChanged(&effects)
        }
    }

    /// A host was chosen: it only matters under SSL with a host, so that policy is chosen too
    /// (as `--host` implies `--policy ssl`).
    mutating func hostChanged(_ effects: inout [Effect]) {
        var cause = "host -> \(checkedHost)"
        if toggles.policy != .sslWithHost {
            toggles.policy = .sslWithHost
            cause += " (policy \(PolicyChoice.sslWithHost.rawValue))"
        }
        settingsChanged(cause, &effects)
    }

    mutating func focus(_ pane: Pane) {
        focus = pane
        if pane != .detail && detailSubject != pane {
            detailSubject = pane
            detailScroll = 0
        }
    }

    mutating func move(by delta: Int, _ effects: inout [Effect]) {
        func clamp(_ value: Int, _ count: Int) -> Int { max(0, min(value, count - 1)) }
        switch focus {
        case .targets:
            guard !targets.isEmpty else { return }
            let next = clamp(selectedTarget + delta, targets.count)
            if next != selectedTarget { select(target: next, &effects) }
        case .chain:
            let next = clamp(selectedCertificate + delta, chainRows.count)
            if next != selectedCertificate { detailScroll = 0 }
            selectedCertificate = next
        case .steps:
            let next = clamp(selectedStep + delta, stepOrder.count)
            if next != selectedStep { detailScroll = 0 }
            selectedStep = next
        case .detail:
            detailScroll = clamp(detailScroll + delta, DetailContent.lines(self).count)
        }
    }

    /// Selects another target: its chain is fetched afresh and nothing is compared with the
    /// previous target's evaluation. The toggles stay, so one setting can be tried on every
    /// scenario in turn.
    mutating func select(target index: Int, _ effects: inout [Effect]) {
        selectedTarget = index
        evaluation = nil
        change = nil
        lastOutcome = nil
        pendingCause = nil
        selectedCertificate = 0
        selectedStep = 0
        detailScroll = 0
        fetchChain(&effects)
    }

    /// Connects (servers) or evaluates at once (files).
    mutating func fetchChain(_ effects: inout [Effect]) {
        guard let target else { return }
        guard case .server(let probeTarget, var options) = target.source else {
            chain = .idle
            requestEvaluation(&effects)
            return
        }
        options.minimumVersion = toggles.tlsMinimum
        if options.maximumVersion < options.minimumVersion { options.maximumVersion = options.minimumVersion }
        let id = nextRequest
        nextRequest += 1
        pendingConnect = id
        pendingEvaluation = nil
        chain = .connecting
        effects.append(
            .connect(
                ConnectRequest(
                    id: id, target: probeTarget, options: options, fetchAIA: toggles.fetchAIA,
                    anchors: target.anchors, systemStore: systemStore)))
    }

    mutating func reconnect(cause: String, _ effects: inout [Effect]) {
        addCause(cause)
        fetchChain(&effects)
    }

    /// A toggle that needs no network: evaluate the chain at hand again (the evaluator's cache
    /// makes this cost microseconds).
    mutating func settingsChanged(_ cause: String, _ effects: inout [Effect]) {
        addCause(cause)
        if pendingConnect == nil { requestEvaluation(&effects) }
    }

    mutating func addCause(_ cause: String) {
        // Toggles pressed before the previous answer arrived are all part of the next change.
        pendingCause = pendingCause.map { "\($0), \(cause)" } ?? cause
    }

    mutating func requestEvaluation(_ effects: inout [Effect]) {
        let chain: [Certificate]
        let report: ConnectionReport?
        if let c = connection {
            chain = c.chain
            report = c.report
        } else {
            chain = filesChain
            report = nil
        }
        guard !chain.isEmpty else { return }
        let id = nextRequest
        nextRequest += 1
        pendingEvaluation = id
        effects.append(
            .evaluate(
                EvaluateRequest(
                    id: id, chain: chain, settings: settings, connection: report, fromFiles: report == nil)))
    }

    /// Keeps the new outcome and, when a toggle caused it, what changed.
    mutating func record(outcome: Outcome, evaluation new: Evaluation?) {
        if let cause = pendingCause, let old = lastOutcome {
            if let previous = evaluation, let new {
                change = ChangeSummary(cause: cause, from: previous, to: new, oldOutcome: old, newOutcome: outcome)
            } else {
                change = ChangeSummary(cause: cause, from: old, to: outcome)
            }
        }
        pendingCause = nil
        lastOutcome = outcome
        evaluation = new
        selectedCertificate = max(0, min(selectedCertificate, chainRows.count - 1))
        selectedStep = max(0, min(selectedStep, stepOrder.count - 1))
    }
}
