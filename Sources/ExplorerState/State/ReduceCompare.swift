import TLSProbe
import TrustCore
import TrustSupport

extension AppState {
    /// The marked target (`m`) and the compare view (`M`): what the marked side last gave, and
    /// the connection or evaluation asked for it while another target is selected.
    public struct Comparison: Sendable {
        /// What one side of the comparison has to show.
        public enum Side: Sendable {
            /// An evaluation.
            case evaluated(Evaluation)
            /// No evaluation, and why (the connection failed, no chain).
            case failed(String)
            /// An answer is awaited, in words (`connecting...`).
            case waiting(String)
        }

        /// The marked target's index; see `AppState.markedTarget` for one still in the list.
        public var marked: Int?
        /// The marked target's name: a list that changed under the index (`E`) drops the mark
        /// rather than comparing another target.
        public var markedName = ""
        /// Whether the Detail pane shows the comparison.
        public var showing = false
        /// The marked side's last answer and the settings it was asked under.
        var markedResult: (toggles: Toggles, side: Side)?
        /// The connection asked for the marked target, when it is not the selected one.
        var pendingConnect: Int?
        /// The evaluation asked for the marked target's chain.
        var pendingEvaluation: Int?
        /// The settings the pending request was made under.
        var pendingToggles: Toggles?
        /// The marked target's connection, which its evaluation's final verdict needs.
        var pendingConnection: ConnectionResult?
        /// The pane that had focus before `M`, focused again when the comparison closes.
        var returnFocus: Pane?

        /// Creates a comparison with nothing marked.
        public init() {}
    }

    /// The marked target's index, nil when none is marked or the list no longer holds it.
    public var markedTarget: Int? {
        guard let m = comparison.marked, targets.indices.contains(m), targets[m].name == comparison.markedName
        else { return nil }
        return m
    }

    /// The selected target's side: its evaluation, why it has none, or what it waits for.
    var selectedSide: Comparison.Side {
        // A verdict kept for a room's vote or a walk-through is not given away by the comparison.
        if evaluation != nil && !verdictRevealed { return .waiting("hidden until it is revealed (Space)") }
        if let e = evaluation { return .evaluated(e) }
        if pendingConnect != nil { return .waiting("connecting...") }
        if pendingEvaluation != nil { return .waiting("evaluating...") }
        if let f = connection?.failure {
            return .failed("no evaluation: the connection failed: " + Self.failureWords(f))
        }
        if connection != nil { return .failed("no evaluation: the server sent no certificate") }
        return .failed("no evaluation yet (r reconnects)")
    }

    /// The marked target's side under the current settings.
    var markedSide: Comparison.Side {
        if markedTarget == selectedTarget { return selectedSide }
        // A vote left pending on the marked target keeps its verdict hidden here too.
        if let m = markedTarget, pendingVotes.contains(m) { return .waiting("hidden until it is revealed (Space)") }
        if let r = comparison.markedResult, r.toggles == toggles { return r.side }
        if comparison.pendingConnect != nil { return .waiting("connecting...") }
        if comparison.pendingEvaluation != nil { return .waiting("evaluating...") }
        if comparison.markedResult != nil { return .waiting("evaluating again under the current settings...") }
        return .waiting("not connected yet")
    }

    static func failureWords(_ f: ConnectionReport.Failure) -> String {
        var text = "\(f.message) [\(f.kind)]"
        if let url = f.urlError { text += "; URLError \(url) \(URLErrorNames.name(url))" }
        return text
    }

    /// `m`: marks the selected target, or unmarks it when it is the marked one.
    mutating func toggleMark() {
        guard let target else {
            message = "nothing to mark: no target"
            return
        }
        if markedTarget == selectedTarget {
            comparison = Comparison()
            message = "\(target.name) unmarked"
            return
        }
        comparison = Comparison()
        comparison.marked = selectedTarget
        comparison.markedName = target.name
        noteMarkedSide()
        message = "\(target.name) marked: select another target and press M to compare them"
    }

    /// `M`: opens the compare view of the marked and the selected target, or closes it. A side
    /// without an evaluation is asked for one, as selecting it would.
    mutating func toggleComparison(_ effects: inout [Effect]) {
        if comparison.showing {
            comparison.showing = false
            if let pane = comparison.returnFocus { focus(pane) }
            detailScroll = 0
            message = "comparison closed; M opens it again"
            return
        }
        guard let m = markedTarget else {
            message = "no target is marked: press m on one target, then select another and press M"
            return
        }
        guard m != selectedTarget else {
            message = "\(targets[m].name) is marked and selected: select another target to compare it with"
            return
        }
        comparison.showing = true
        comparison.returnFocus = focus
        focus(.detail)
        detailScroll = 0
        // A side whose connection failed is asked again, as Enter on it would.
        if case .failed = selectedSide { fetchChain(&effects) }
        if case .failed = comparison.markedResult?.side { comparison.markedResult = nil }
        message = "comparing \(targets[m].name) (marked) with \(target?.name ?? "") (selected); M or Esc returns"
    }

    /// Keeps the selected target's latest answer as the marked side's when it is the marked one.
    mutating func noteMarkedSide() {
        guard markedTarget == selectedTarget else { return }
        switch selectedSide {
        case .waiting: comparison.markedResult = nil
        case let side: comparison.markedResult = (toggles, side)
        }
    }

    /// While the compare view shows, asks for the marked target's evaluation when it has none
    /// under the current settings (and none is on its way).
    mutating func refreshComparison(_ effects: inout [Effect]) {
        guard comparison.showing, let m = markedTarget, m != selectedTarget,
            comparison.pendingConnect == nil, comparison.pendingEvaluation == nil,
            comparison.markedResult?.toggles != toggles
        else { return }
        // The marked target's connection is the one selecting it would make: the same options,
        // anchors, ATS policy and settings, with its own request id.
        var side = self
        side.selectedTarget = m
        side.chain = .idle
        var asked: [Effect] = []
        side.fetchChain(&asked)
        nextRequest = side.nextRequest
        comparison.pendingConnect = side.pendingConnect
        comparison.pendingEvaluation = side.pendingConnect == nil ? side.pendingEvaluation : nil
        comparison.pendingToggles = toggles
        comparison.pendingConnection = nil
        if comparison.pendingConnect == nil && comparison.pendingEvaluation == nil {
            comparison.markedResult = (toggles, .failed("no evaluation: no certificate to evaluate"))
        }
        effects += asked
    }

    /// Takes a connection answer meant for the marked target; false when it is not one.
    mutating func answerComparison(connected id: Int, _ result: ConnectionResult, _ effects: inout [Effect]) -> Bool {
        guard id == comparison.pendingConnect, let m = markedTarget else { return false }
        comparison.pendingConnect = nil
        let asked = comparison.pendingToggles ?? toggles
        guard !result.chain.isEmpty else {
            let why =
                result.failure.map { "no evaluation: the connection failed: " + Self.failureWords($0) }
                ?? "no evaluation: the server sent no certificate"
            comparison.markedResult = (asked, .failed(why))
            return true
        }
        var side = self
        side.selectedTarget = m
        side.chain = .ready(result)
        comparison.pendingEvaluation = side.evaluationRequest(asked, &effects)
        nextRequest = side.nextRequest
        comparison.pendingConnection = result
        return true
    }

    /// Takes an evaluation meant for the marked target; false when it is not one.
    mutating func answerComparison(evaluated id: Int, _ evaluation: Evaluation?) -> Bool {
        guard id == comparison.pendingEvaluation else { return false }
        comparison.pendingEvaluation = nil
        let asked = comparison.pendingToggles ?? toggles
        guard var e = evaluation else {
            comparison.markedResult = (asked, .failed("no evaluation: no certificate to evaluate"))
            return true
        }
        if let c = comparison.pendingConnection { e = c.finalVerdict(e) }
        comparison.pendingConnection = nil
        comparison.markedResult = (asked, .evaluated(e))
        return true
    }
}
