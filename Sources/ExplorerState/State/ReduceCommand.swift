import ATSModel
import TLSProbe
import TrustCore
import TrustLab
import TrustSupport

// What each command does to the state (the keymap sends them).
extension AppState {
    mutating func apply(_ command: Command, _ effects: inout [Effect]) {
        message = nil
        switch mode {
        case .popup(.help):
            // The help scrolls with the movement keys; any other key closes it, so it never
            // traps the user. `q` closes it too: it quits only where no popup is open, so the
            // lab's files never vanish under a command just read in a popup.
            // The last page is the bound, so PgUp after PgDn past the end moves at once.
            let lines = helpScrollLimit
            switch command {
            case .moveDown: helpScroll = min(helpScroll + 1, lines)
            case .moveUp: helpScroll = max(helpScroll - 1, 0)
            case .pageDown: helpScroll = min(helpScroll + AppState.pageRows, lines)
            case .pageUp: helpScroll = max(helpScroll - AppState.pageRows, 0)
            case .first: helpScroll = 0
            case .last: helpScroll = lines
            default: popup = nil
            }
            return
        case .popup(.overlay):
            // Any key closes an overlay, `q` included, so it never traps the user and never
            // quits under it.
            popup = nil
            return
        case .comparison where command == .clearSearch:
            // Esc leaves the compare view before it cancels or clears anything.
            return toggleComparison(&effects)
        case .popup(.prompt), .walk, .comparison, .panes: break
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
        case .cycleStore:
            let next = nextStore
            change("store -> \(next.argument)", &effects) { $0.store = next }
        case .toggleAnchorClass:
            let next = toggles.anchorClass.cycled()
            change("anchor class -> \(next.rawValue)", &effects) { $0.anchorClass = next }
        case .cyclePolicy:
            let next = toggles.policy.cycled()
            var words = toggles.check
            words.policy = next
            change("policy -> \(words.policyWords(targetHost: target?.host ?? ""))", &effects) { $0.policy = next }
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
            } else if targetFilter != nil {
                targetFilter = nil
                message = "filter cleared: every target shown"
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
            guard let n = walk, let e = evaluation else {
                if verdictHidden { revealVote() }
                return
            }
            // A walk-through started while a vote was pending is the reveal: the vote ends when
            // the walk reaches the step that decides the verdict.
            if n < e.steps.count {
                walk = n + 1
                followEvidence()
                if verdictHidden && walkReachedVerdict { revealVote() }
            } else {
                message = "that was the last step; Esc ends the walk-through"
            }
        case .walkBack:
            guard let n = walk else { return }
            if n > 1 {
                walk = n - 1
                followEvidence()
            }
        case .walkEnd:
            // A vote the walk did not reach stays pending: Esc reveals nothing.
            walk = nil
            detailFollowsEvidence = false
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
            pendingVotes = []
            message =
                predict
                ? "predict mode on: a change that flips the verdict hides it until Space"
                : "predict mode off"
        case .togglePresenter:
            presenter.toggle()
            message =
                presenter
                ? "presenter: the lesson's Expected and Try rows are hidden while predict mode (W) is on; e shows them"
                : "presenter off: the lesson's Expected and Try rows show (except while a verdict waits for Space)"
        case .jumpToTarget:
            guard targets.count > 1 else {
                message = "one target: nothing to jump to"
                return
            }
            open(.jump, &effects)
        case .editTime: openTimePrompt(&effects)
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
        case .toggleRevocationRequired:
            let on = !toggles.requireRevocation
            change("revocation required -> \(on ? "on" : "off")", &effects) { $0.requireRevocation = on }
        case .toggleClient:
            let next = toggles.client.cycled()
            change("client -> \(next.rawValue)", &effects) { $0.client = next }
        case .toggleATSPlatform:
            let next: ATSPlatform = toggles.ats.platform == .ios17 ? .ios16 : .ios17
            let note = toggles.ats.enabled ? "" : " (ATS is off: i applies it)"
            change("ATS platform -> \(next.rawValue)\(note)", &effects) { $0.ats.platform = next }
        case .copyCommand: copyCommand(&effects)
        case .explain: open(.explain, &effects)
        case .exportReport:
            guard evaluation != nil else {
                message = "nothing to export yet: no evaluation"
                return
            }
            open(.exportReport, &effects, text: "trustx-report-\(AppState.fileName(for: target?.name ?? "chain")).txt")
        case .writeServedChain:
            guard let e = evaluation else {
                message = "no chain to write yet: no evaluation"
                return
            }
            open(.writeServedChain, &effects, text: AppState.fileName(for: e.presented[0]) + "-chain.pem")
        case .exportCode:
            guard let target, target.unavailable == nil else {
                message = target.map { "\($0.name) is not served: nothing to export" } ?? "nothing to export yet"
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
        case .toggleMark: toggleMark()
        case .compareMarked: toggleComparison(&effects)
        case .toggleWatch: toggleWatch(&effects)
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
        // A pending vote stays pending: the walk hides the verdict until its deciding step, and
        // reaching that step is the reveal.
        walk = 1
        focus(.steps)
        followEvidence()
        if verdictHidden && walkReachedVerdict { revealVote() }
    }

    /// Space in predict mode: the room has voted; the verdict of the selected target shows.
    mutating func revealVote() {
        verdictHidden = false
        pendingVotes.remove(selectedTarget)
    }

    /// A walk-through's new step: the Detail pane starts at its top, and the next frame scrolls
    /// it to the first field the step read when that is below the visible part.
    mutating func followEvidence() {
        detailScroll = 0
        detailFollowsEvidence = true
    }
}
