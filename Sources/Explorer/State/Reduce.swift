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
        guard s.prompt == nil, !s.showHelp, s.overlay == nil else { break }
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
        guard s.prompt == nil, s.overlay == nil else { break }
        if s.showHelp {
            s.helpScroll = max(0, min(s.helpScroll + rows, s.helpScrollLimit))
            break
        }
        // The wheel scrolls the pane under the pointer, which takes focus (as in most TUIs).
        if target.pane != s.focus { s.focus(target.pane) }
        s.move(by: rows, &effects)
    case .drawn(let m):
        s.detailViewport = m.detail
        if let v = m.detail { s.detailScroll = min(s.detailScroll, max(0, v.lines - v.height)) }
        s.listOffsets.merge(m.listOffsets) { _, new in new }
        s.helpViewport = m.help
        s.helpScroll = min(s.helpScroll, s.helpScrollLimit)
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
        s.expand(target: index, result, &effects)
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

    mutating func apply(_ command: Command, _ effects: inout [Effect]) {
        message = nil
        if showHelp {
            // The help scrolls with the movement keys; any other key closes it, so it never
            // traps the user.
            // The last page is the bound, so PgUp after PgDn past the end moves at once.
            let lines = helpScrollLimit
            switch command {
            case .moveDown: helpScroll = min(helpScroll + 1, lines)
            case .moveUp: helpScroll = max(helpScroll - 1, 0)
            case .pageDown: helpScroll = min(helpScroll + AppState.pageRows, lines)
            case .pageUp: helpScroll = max(helpScroll - AppState.pageRows, 0)
            case .first: helpScroll = 0
            case .last: helpScroll = lines
            case .quit: shouldQuit = true
            default: showHelp = false
            }
            return
        }
        if overlay != nil && command != .quit {
            // Any key closes an overlay, so it never traps the user.
            overlay = nil
            return
        }
        switch command {
        case .quit: shouldQuit = true
        case .toggleHelp:
            showHelp = true
            helpScroll = 0
        case .focusNext: focus(step: 1)
        case .focusPrevious: focus(step: -1)
        case .focusTargets: focus(.targets)
        case .focusChain: focus(.chain)
        case .focusSteps: focus(.steps)
        case .focusDetail: focus(.detail)
        case .moveUp: move(by: -1, &effects)
        case .moveDown: move(by: 1, &effects)
        case .pageUp: move(by: -AppState.pageRows, &effects)
        case .pageDown: move(by: AppState.pageRows, &effects)
        case .first: move(by: Int.min / 2, &effects)
        case .last: move(by: Int.max / 2, &effects)
        case .open:
            switch focus {
            case .targets: if requireServer("Enter on a target reconnects") { reconnect(cause: "reconnect", &effects) }
            case .chain, .steps: focus(.detail)
            case .detail: break
            }
        case .reconnect: if requireServer("r reconnects") { reconnect(cause: "reconnect", &effects) }
        case .toggleAnchor: toggleAnchor(&effects)
        case .toggleAnchorsOnly:
            let only = !toggles.anchorsOnly
            change(only ? "anchors only" : "anchors + system roots", &effects) { $0.anchorsOnly = only }
        case .addAnchorFile: open(.anchorFile, &effects)
        case .toggleAnchorClass:
            let next = toggles.anchorClass.cycled()
            change("anchor class -> \(next.rawValue)", &effects) { $0.anchorClass = next }
        case .cyclePolicy:
            let next = toggles.policy.cycled()
            change("policy -> \(policyWords(next))", &effects) { $0.policy = next }
        case .editHost:
            open(.host, &effects, text: toggles.policy == .sslWithHost ? checkedHost : "")
        case .togglePin: togglePin(&effects)
        case .typePin:
            // While a search is active N goes to the previous match, as in less and vim.
            if search != nil { find(forward: false, &effects) } else { open(.pin, &effects) }
        case .search: open(.search, &effects)
        case .searchNext: find(forward: true, &effects)
        case .clearSearch:
            if pendingEvaluation != nil || pendingConnect != nil {
                // The work goes on in the background until its own deadline; its answer is
                // ignored, and the previous verdict stays.
                pendingEvaluation = nil
                pendingConnect = nil
                pendingCause = nil
                if case .connecting = chain { chain = .idle }
                message = "cancelled; the previous verdict stays (r or a change asks again)"
            } else if search != nil {
                search = nil
                message = "search cleared"
            } else {
                message = "Esc: nothing to cancel"
            }
        case .writeOrWalk:
            // In the Chain pane `w` writes the selected certificate; elsewhere it walks.
            if focus == .chain {
                promptWrite(&effects)
            } else {
                startWalk()
            }
        case .walkNext:
            if verdictHidden {
                verdictHidden = false
                return
            }
            guard let n = walk, let e = evaluation else { return }
            if n < e.steps.count {
                walk = n + 1
                detailScroll = 0
            } else {
                message = "that was the last step; Esc ends the walk-through"
            }
        case .walkBack:
            guard let n = walk else { return }
            if n > 1 {
                walk = n - 1
                detailScroll = 0
            }
        case .walkEnd:
            walk = nil
            verdictHidden = false
        case .toggleDER:
            guard detailSubject == .chain, selectedChainRow != nil else {
                message = "D shows a certificate's DER: select one in the Chain pane (2) first"
                return
            }
            showsDER.toggle()
            detailScroll = 0
            message =
                showsDER ? "DER tree of the selected certificate; D shows its fields" : "fields; D shows the DER tree"
        case .togglePredict:
            predict.toggle()
            verdictHidden = false
            message =
                predict
                ? "predict mode on: a change that flips the verdict hides it until Space"
                : "predict mode off"
        case .editTime: open(.time, &effects, text: evaluationTime.rfc3339)
        case .timeNow:
            guard toggles.time != nil else {
                message = "the evaluation time is already now"
                return
            }
            change("time -> now", &effects) { $0.time = nil }
        case .previousBoundary: jumpToBoundary(forward: false, &effects)
        case .nextBoundary: jumpToBoundary(forward: true, &effects)
        case .dayEarlier: setTime(evaluationTime.adding(seconds: -86_400), "time -1 day", &effects)
        case .dayLater: setTime(evaluationTime.adding(seconds: 86_400), "time +1 day", &effects)
        case .connectTarget: open(.connect, &effects)
        case .expandAddresses:
            guard requireServer("E resolves a server's name"), let (t, o) = target?.server else { return }
            if parseIPAddress(t.host) != nil || t.connectTo != nil {
                message = "\(t.host) is one address already"
                return
            }
            message = "resolving \(t.host)..."
            effects.append(.resolve(target: selectedTarget, host: t.host, timeout: o.timeout))
        case .cycleTLSMinimum:
            guard requireServer("TLS versions apply to connections") else { return }
            let next: TLSVersion = toggles.tlsMinimum == .tls1_2 ? .tls1_3 : .tls1_2
            change("TLS minimum -> \(next)", &effects) {
                $0.tlsMinimum = next
                if $0.tlsMaximum < next { $0.tlsMaximum = next }
            }
        case .toggleAIA:
            guard requireServer("AIA fetching happens while connecting") else { return }
            let on = !toggles.fetchAIA
            change("AIA -> \(on ? "on" : "off")", &effects) { $0.fetchAIA = on }
        case .cycleProfile:
            let next = toggles.profile.cycled()
            change("profile -> \(next.rawValue)", &effects) { $0.profile = next }
        case .toggleATS:
            if toggles.ats.enabled {
                change("ATS -> off", &effects) { $0.ats.enabled = false }
            } else {
                change("ATS -> \(toggles.ats.source ?? "ATS's defaults") (\(toggles.ats.platform.rawValue))", &effects)
                {
                    $0.ats.enabled = true
                }
            }
        case .loadATSPlist:
            if toggles.ats.source == nil, case .running(let directory) = lab, let scenario = target?.scenario,
                !scenario.atsCases.isEmpty
            {
                // An ATS lesson: offer its Info.plists in the lab's directory (Tab lists them;
                // typing replaces the offer, as in any prefilled prompt).
                open(.atsPlist, &effects, text: "\(directory)/\(scenario.name).")
            } else {
                open(.atsPlist, &effects, text: toggles.ats.source ?? "")
            }
        case .toggleRevocationFetching:
            let on = !toggles.fetchRevocation
            change("revocation fetching -> \(on ? "on" : "off")", &effects) { $0.fetchRevocation = on }
        case .toggleATSPlatform:
            let next: ATSPlatform = toggles.ats.platform == .ios17 ? .ios16 : .ios17
            let note = toggles.ats.enabled ? "" : " (ATS is off: i applies it)"
            change("ATS platform -> \(next.rawValue)\(note)", &effects) { $0.ats.platform = next }
        case .copyCommand: copyCommand(&effects)
        case .exportReport:
            guard evaluation != nil else {
                message = "nothing to export yet: no evaluation"
                return
            }
            open(.exportReport, &effects, text: "trustx-report-\(AppState.fileName(for: target?.name ?? "chain")).txt")
        case .exportCode:
            guard target != nil else {
                message = "nothing to export yet"
                return
            }
            open(.exportCode, &effects)
        case .undo:
            guard let last = undoStack.popLast() else {
                message = "nothing to undo"
                return
            }
            redoStack.append((toggles, last.cause))
            apply(toggles: last.toggles, cause: "undo \(last.cause)", &effects)
        case .redo:
            guard let next = redoStack.popLast() else {
                message = "nothing to redo"
                return
            }
            undoStack.append((toggles, next.cause))
            apply(toggles: next.toggles, cause: "redo \(next.cause)", &effects)
        case .resetToggles:
            guard toggles != startToggles else {
                message = "the settings are the start-up ones"
                return
            }
            let start = startToggles
            change("start-up settings", &effects) { $0 = start }
        }
    }

    /// `w` in the Chain pane: where to write the selected certificate.
    mutating func promptWrite(_ effects: inout [Effect]) {
        guard let row = selectedChainRow else {
            message = "select a certificate in the Chain pane (2) first"
            return
        }
        open(.writeCertificate, &effects, text: AppState.fileName(for: row.certificate) + ".pem")
    }

    /// `w` elsewhere: the walk-through starts at the first step.
    mutating func startWalk() {
        guard let e = evaluation, !e.steps.isEmpty else {
            message = "nothing to walk through yet: no evaluation"
            return
        }
        walk = 1
        verdictHidden = false
        focus(.steps)
        detailScroll = 0
    }

    /// The policy as the change line names it.
    func policyWords(_ p: PolicyChoice) -> String {
        switch p {
        case .sslWithHost:
            let host = checkedHost
            return host.isEmpty ? "SSL(nil): no host to check" : "SSL(\(host))"
        case .sslWithoutHost: return "SSL(nil)"
        case .basicX509: return "Basic X.509"
        }
    }

    /// Connection commands mean nothing for files: say so rather than do nothing.
    mutating func requireServer(_ what: String) -> Bool {
        if targetIsServer { return true }
        message = "\(what); this target is files, so there is nothing to connect to"
        return false
    }

    /// Changes the settings, remembers the previous ones for undo, and re-evaluates (or
    /// reconnects when a connection setting changed).
    mutating func change(
        _ cause: String, _ effects: inout [Effect], message: String? = nil, _ mutate: (inout Toggles) -> Void
    ) {
        var next = toggles
        mutate(&next)
        guard next != toggles else {
            self.message = message ?? "\(cause): no change"
            return
        }
        undoStack.append((toggles, cause))
        if undoStack.count > 200 { undoStack.removeFirst() }
        redoStack.removeAll()
        apply(toggles: next, cause: cause, &effects)
        if let message { self.message = message }
    }

    /// Puts `next` in force: a connection setting reconnects, anything else re-evaluates the
    /// chain at hand (the evaluator's cache makes this cost microseconds).
    mutating func apply(toggles next: Toggles, cause: String, _ effects: inout [Effect]) {
        let reconnects = !next.sameConnection(as: toggles) && targetIsServer
        toggles = next
        if reconnects {
            reconnect(cause: cause, &effects)
        } else {
            addCause(cause)
            if pendingConnect == nil { requestEvaluation(&effects) }
        }
    }

    // MARK: certificate actions

    /// `a`: the selected certificate becomes a custom anchor, or stops being one.
    mutating func toggleAnchor(_ effects: inout [Effect]) {
        guard let row = selectedChainRow else {
            message = "select a certificate in the Chain pane (2) first"
            return
        }
        let cert = row.certificate
        let name = cert.displayName
        let own = target?.anchors.contains(cert) == true
        if effectiveAnchors.contains(where: { $0.certificate == cert }) {
            change("anchor - \(name)", &effects) { t in
                if let i = t.addedAnchors.firstIndex(where: { $0.certificate == cert }) {
                    t.addedAnchors.remove(at: i)
                }
                if own { t.removedAnchors.insert(cert) }
            }
        } else {
            change("anchor + \(name)", &effects) { t in
                if own {
                    t.removedAnchors.remove(cert)
                } else {
                    t.addedAnchors.append(AnchorEntry(cert))
                }
            }
        }
    }

    /// `P`: pins the selected certificate's key, or unpins it.
    mutating func togglePin(_ effects: inout [Effect]) {
        guard let row = selectedChainRow else {
            message = "select a certificate in the Chain pane (2) first"
            return
        }
        let digest = row.certificate.spkiSHA256
        let short = String(row.certificate.spkiPin.prefix(12))
        if toggles.pins.contains(digest) {
            change("pin - \(short)...", &effects) { $0.pins.removeAll { $0 == digest } }
        } else {
            change("pin + \(short)... (\(row.certificate.displayName))", &effects) { $0.pins.append(digest) }
        }
    }

    // MARK: time

    mutating func setTime(_ time: Timestamp, _ cause: String, _ effects: inout [Effect]) {
        let value = time == now ? nil : time
        change("\(cause) -> \(time.rfc3339)", &effects) { $0.time = value }
    }

    /// The instants at which some certificate of the path changes state: its notBefore (it
    /// becomes valid) and one second after its notAfter (it has expired; notAfter itself is
    /// still inside the validity period, RFC 5280 4.1.2.5).
    var boundaries: [(time: Timestamp, what: String)] {
        guard let e = evaluation else { return [] }
        var out: [(Timestamp, String)] = []
        for (i, c) in e.path.certificates.enumerated() {
            out.append((c.notBefore, "[\(i)] notBefore"))
            out.append((c.notAfter.adding(seconds: 1), "1 s after [\(i)] notAfter"))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    mutating func jumpToBoundary(forward: Bool, _ effects: inout [Effect]) {
        let current = evaluationTime
        let candidates = boundaries
        let pick = forward ? candidates.first { $0.time > current } : candidates.last { $0.time < current }
        guard let pick else {
            message =
                forward ? "no certificate of the path changes after this time" : "nothing changes before this time"
            return
        }
        let value = pick.time == now ? nil : pick.time
        change("time -> \(pick.time.rfc3339) (\(pick.what))", &effects) { $0.time = value }
    }

    // MARK: targets

    /// The next (or previous) pane in Tab order, skipping the targets when there is one.
    mutating func focus(step: Int) {
        let count = Pane.allCases.count
        var next = focus.rawValue
        repeat {
            next = (next + step + count) % count
        } while next == Pane.targets.rawValue && targets.count < 2
        focus(Pane(rawValue: next)!)
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
            // The last wrapped line is the bound when the pane has been drawn.
            let limit = detailViewport.map { max(0, $0.lines - $0.height) + 1 } ?? DetailContent.lines(self).count
            detailScroll = clamp(detailScroll + delta, limit)
        }
    }

    /// Selects another target: its chain is fetched afresh and nothing is compared with the
    /// previous target's evaluation. The settings stay, so one setting can be tried on every
    /// target in turn.
    mutating func select(target index: Int, _ effects: inout [Effect]) {
        selectedTarget = index
        listOffsets[.chain] = nil
        listOffsets[.steps] = nil
        walk = nil
        verdictHidden = false
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
        options.maximumVersion = max(toggles.tlsMaximum, toggles.tlsMinimum)
        let id = nextRequest
        nextRequest += 1
        pendingConnect = id
        pendingEvaluation = nil
        chain = .connecting
        var request = ConnectRequest(
            id: id, target: probeTarget, options: options, fetchAIA: toggles.fetchAIA,
            anchors: effectiveAnchors.map(\.certificate), systemStore: systemStore)
        // Under ATS the client offers what ATS allows for this host (its TLS floor, its suites).
        request.atsPolicy = toggles.ats.settings?.policy(forHost: probeTarget.host)
        effects.append(.connect(request))
    }

    /// With revocation fetching on, fetches once for the chain `e` evaluated (its built path),
    /// and evaluates again when the answer comes.
    mutating func fetchRevocationIfAsked(for e: Evaluation, _ effects: inout [Effect]) {
        guard toggles.fetchRevocation, pendingRevocation == nil, let leaf = e.path.certificates.first,
            fetchedRevocation?.leaf != leaf
        else { return }
        let id = nextRequest
        nextRequest += 1
        pendingRevocation = id
        let timeout = target?.server?.options.timeout ?? .seconds(10)
        effects.append(.fetchRevocation(request: id, path: e.path.certificates, timeout: timeout))
    }

    mutating func reconnect(cause: String, _ effects: inout [Effect]) {
        addCause(cause)
        fetchChain(&effects)
    }

    mutating func addCause(_ cause: String) {
        // Changes made before the previous answer arrived are all part of the next change.
        pendingCause = pendingCause.map { "\($0), \(cause)" } ?? cause
    }

    mutating func requestEvaluation(_ effects: inout [Effect]) {
        if let id = evaluationRequest(toggles, &effects) { pendingEvaluation = id }
    }

    /// Asks for an evaluation of the chain at hand under `t`; its request id, nil when there is
    /// no chain yet.
    mutating func evaluationRequest(_ t: Toggles, _ effects: inout [Effect]) -> Int? {
        let chain = chainToEvaluate
        guard !chain.isEmpty else { return nil }
        let id = nextRequest
        nextRequest += 1
        effects.append(
            .evaluate(
                EvaluateRequest(
                    id: id, chain: chain, settings: settings(t), connection: connection?.report,
                    fromFiles: connection == nil)))
        return id
    }

    /// Keeps the new outcome and, when a change caused it, what changed.
    mutating func record(outcome: Outcome, evaluation new: Evaluation?) {
        let previousRow = selectedChainRow
        if let cause = pendingCause, let old = lastOutcome {
            if let previous = evaluation, let new {
                change = ChangeSummary(cause: cause, from: previous, to: new, oldOutcome: old, newOutcome: outcome)
            } else {
                change = ChangeSummary(cause: cause, from: old, to: outcome)
            }
        }
        if predict, pendingCause != nil, let old = lastOutcome, old != outcome { verdictHidden = true }
        pendingCause = nil
        lastOutcome = outcome
        evaluation = new
        if let n = walk { walk = max(1, min(n, new?.steps.count ?? 1)) }
        marks[selectedTarget] = TargetMark(outcome: outcome, toggles: toggles)
        // The selection follows its certificate when the path changes under it.
        let rows = chainRows
        if let previousRow {
            let same =
                rows.firstIndex { $0.section == previousRow.section && $0.certificate == previousRow.certificate }
                ?? rows.firstIndex { $0.certificate == previousRow.certificate }
            if let same { selectedCertificate = same }
        }
        selectedCertificate = max(0, min(selectedCertificate, rows.count - 1))
        selectedStep = max(0, min(selectedStep, stepOrder.count - 1))
    }

    /// Replaces target `index` by one target per address (`E`).
    mutating func expand(target index: Int, _ result: Result<[String], EffectFailure>, _ effects: inout [Effect]) {
        guard targets.indices.contains(index), let (t, o) = targets[index].server else { return }
        switch result {
        case .failure(let f): message = f.message
        case .success(let addresses):
            guard addresses.count > 1 else {
                message = "\(t.host) resolves to one address: \(addresses.first ?? "none")"
                return
            }
            let original = targets[index]
            let expanded = addresses.map { address -> ExplorerTarget in
                var pinned = t
                pinned.connectTo = Endpoint(host: address, port: t.port)
                var e = original
                e.name = "\(original.name) @ \(address)"
                e.source = .server(pinned, o)
                return e
            }
            targets.replaceSubrange(index...index, with: expanded)
            marks = [:]
            message = "\(t.host): \(addresses.count) addresses, one target each"
            if selectedTarget == index { select(target: index, &effects) }
        }
    }
}
