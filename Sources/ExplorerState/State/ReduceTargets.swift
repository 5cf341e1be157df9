import TLSProbe
import TrustCore
import TrustLab

// Focus and movement, targets and their connections, and the evaluations they ask for.
extension AppState {
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
            // Within the targets the filter shows.
            let shown = visibleTargets
            guard !shown.isEmpty else { return }
            let at = shown.firstIndex(of: selectedTarget) ?? 0
            let next = shown[clamp(at + delta, shown.count)]
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
            detailFollowsEvidence = false
            // The last wrapped line is the bound when the pane has been drawn.
            let limit = detailViewport.map { max(0, $0.lines - $0.height) + 1 } ?? DetailContent.lines(self).count
            detailScroll = clamp(detailScroll + delta, limit)
        }
    }

    /// Selects another target: its chain is fetched afresh and nothing is compared with the
    /// previous target's evaluation. The settings stay, so one setting can be tried on every
    /// target in turn.
    mutating func select(target index: Int, _ effects: inout [Effect]) {
        // A vote the room has not seen the answer to stays pending on its target: coming back
        // hides the verdict again until Space.
        if verdictHidden { pendingVotes.insert(selectedTarget) }
        selectedTarget = index
        listOffsets[.chain] = nil
        listOffsets[.steps] = nil
        walk = nil
        detailFollowsEvidence = false
        verdictHidden = pendingVotes.contains(index)
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
            anchors: effectiveAnchors.map(\.certificate), systemStore: store(for: toggles))
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
        // A connection that fails outright shows at once (there is nothing to walk or vote on).
        if predict, pendingCause != nil, new != nil, let old = lastOutcome, old != outcome { verdictHidden = true }
        pendingCause = nil
        lastOutcome = outcome
        evaluation = new
        if let n = walk { walk = max(1, min(n, new?.steps.count ?? 1)) }
        marks[selectedTarget] = TargetMark(outcome: outcome, toggles: toggles)
        noteMarkedSide()
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
            pendingVotes = []
            message = "\(t.host): \(addresses.count) addresses, one target each"
            if selectedTarget == index { select(target: index, &effects) }
        }
    }
}
