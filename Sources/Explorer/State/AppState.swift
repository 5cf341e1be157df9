import TLSProbe
import TrustCore

/// Everything the explorer shows, as one value: views render it, `reduce` produces the next one.
public struct AppState: Sendable {
    /// The panes focus moves between, in Tab order.
    public enum Pane: Int, Hashable, Sendable, CaseIterable {
        /// The targets (lab scenarios).
        case targets
        /// The certificates of the built path.
        case chain
        /// The evaluation steps.
        case steps
        /// The selected certificate's fields, step's rule or scenario's lesson.
        case detail

        /// The title drawn on the pane's border.
        public var title: String {
            switch self {
            case .targets: "Scenarios"
            case .chain: "Chain"
            case .steps: "Steps"
            case .detail: "Detail"
            }
        }
    }

    /// Where the built-in lab is.
    public enum LabStatus: Sendable, Equatable {
        /// No lab: the targets came from the command line.
        case notUsed
        /// Starting in the background.
        case starting
        /// Serving, its files in `directory`.
        case running(directory: String)
        /// It could not start; the text says why.
        case failed(String)
    }

    /// Where the selected target's chain is.
    public enum ChainStatus: Sendable {
        /// Nothing selected yet.
        case idle
        /// Connecting in the background.
        case connecting
        /// The chain (or the failure) is here.
        case ready(ConnectionResult)
    }

    /// The clock at start-up: "now" for the evaluation time.
    public var now: Timestamp
    /// The system trust store, nil for none.
    public var systemStore: (any IssuerSource)?
    /// The lab's status.
    public var lab: LabStatus
    /// What can be explored.
    public var targets: [ExplorerTarget]
    /// The selected target's index.
    public var selectedTarget = 0
    /// The settings the user toggles.
    public var toggles = Toggles()
    /// The selected target's chain.
    public var chain: ChainStatus = .idle
    /// The latest evaluation of the selected target, nil before one arrives or when the
    /// connection gave no chain.
    public var evaluation: Evaluation?
    /// What the last toggle changed, nil after selecting another target.
    public var change: ChangeSummary?
    /// The focused pane.
    public var focus: Pane = .targets
    /// What the detail pane shows: the targets', chain's or steps' selection.
    public var detailSubject: Pane = .targets
    /// The selected row of the chain pane.
    public var selectedCertificate = 0
    /// The selected row of the steps pane (an index into `stepOrder`).
    public var selectedStep = 0
    /// The first line shown in the detail pane.
    public var detailScroll = 0
    /// Whether the help overlay is shown.
    public var showHelp = false
    /// The host being typed, nil when not editing.
    public var hostEditor: String?
    /// Whether the loop should end.
    public var shouldQuit = false

    /// The id the next request gets.
    var nextRequest = 1
    /// The connection whose answer is awaited.
    var pendingConnect: Int?
    /// The evaluation whose answer is awaited.
    var pendingEvaluation: Int?
    /// What the awaited evaluation was asked for ("policy -> Basic X.509"), for the change summary.
    var pendingCause: String?
    /// The outcome before the awaited evaluation, for the change summary.
    var lastOutcome: Outcome?

    /// Creates the state for exploring `targets` (empty while the lab starts).
    /// - Parameters:
    ///   - now: The clock at start-up.
    ///   - systemStore: The system roots, nil for none.
    ///   - targets: The targets; empty when the lab provides them.
    ///   - lab: Whether the lab is used.
    public init(
        now: Timestamp, systemStore: (any IssuerSource)?, targets: [ExplorerTarget] = [], lab: LabStatus = .notUsed
    ) {
        self.now = now
        self.systemStore = systemStore
        self.targets = targets
        self.lab = lab
    }

    /// The selected target, if any.
    public var target: ExplorerTarget? {
        targets.indices.contains(selectedTarget) ? targets[selectedTarget] : nil
    }

    /// The selected target's connection result, when it has arrived.
    public var connection: ConnectionResult? {
        if case .ready(let r) = chain { return r }
        return nil
    }

    /// Whether some background work's answer is awaited (the loop polls faster then).
    public var isBusy: Bool {
        pendingConnect != nil || pendingEvaluation != nil || lab == .starting
    }

    /// The host the SSL policy checks under the current toggles.
    public var checkedHost: String {
        toggles.host.host(targetHost: target?.host ?? "")
    }

    /// The evaluation time under the current toggles.
    public var evaluationTime: Timestamp { now.adding(seconds: toggles.time.offsetSeconds) }

    /// The trust settings the current toggles describe for the selected target.
    public var settings: TrustSettings {
        let anchors = target?.anchors ?? []
        let policy: TrustPolicy
        switch toggles.policy {
        case .sslWithHost: policy = .ssl(host: checkedHost.isEmpty ? nil : checkedHost)
        case .sslWithoutHost: policy = .ssl(host: nil)
        case .basicX509: policy = .basicX509
        }
        var digests: [[UInt8]] = []
        switch toggles.pins {
        case .none: break
        case .leaf:
            if let leaf = connection?.chain.first ?? filesChain.first { digests = [leaf.spkiSHA256] }
        case .wrong: digests = [PinChoice.wrongDigest]
        }
        var s = TrustSettings(
            anchors: toggles.anchors == .systemOnly ? [] : anchors,
            anchorsOnly: toggles.anchors == .targetOnly,
            // The store stays a source of parents even when its roots are not trusted, as in check.
            systemStore: systemStore, policy: policy, pins: PinSet(digests: digests), time: evaluationTime,
            profile: toggles.profile)
        if let c = connection {
            // Apple's SSL policy fetches missing intermediates; Basic X.509 does not.
            if policy.isSSL && toggles.fetchAIA { s.fetchedIssuers = c.fetchedIssuers }
            s.connectionSCTLogIDs = c.sctLogIDs
        }
        return s
    }

    /// The chain of a files target.
    var filesChain: [Certificate] {
        if case .files(let chain)? = target?.source { return chain }
        return []
    }

    /// The rows of the chain pane: the built path, leaf first, then presented certificates the
    /// path does not use.
    public var chainRows: [ChainRow] {
        guard let e = evaluation else { return [] }
        var rows = e.path.certificates.enumerated().map { i, c in
            ChainRow(certificate: c, pathIndex: i, source: ReportFormatting.sourceDescription(e, i))
        }
        let used = Set(e.path.certificates.map(\.identity))
        for (n, c) in e.presented.enumerated() where !used.contains(c.identity) {
            rows.append(ChainRow(certificate: c, pathIndex: nil, source: "presented #\(n), not in the path"))
        }
        return rows
    }

    /// The order the steps pane lists `evaluation.steps` in: path-level steps first, then each
    /// certificate's, as the text report groups them.
    public var stepOrder: [Int] {
        guard let e = evaluation else { return [] }
        var order: [Int] = e.steps.indices.filter { e.steps[$0].certificate == nil }
        for i in e.path.certificates.indices {
            order += e.steps.indices.filter { e.steps[$0].certificate == i }
        }
        let known = Set(order)
        order += e.steps.indices.filter { !known.contains($0) }
        return order
    }

    /// The selected step, if any.
    public var selectedStepValue: Step? {
        let order = stepOrder
        guard let e = evaluation, order.indices.contains(selectedStep) else { return nil }
        return e.steps[order[selectedStep]]
    }
}

/// One row of the chain pane.
public struct ChainRow: Sendable {
    /// The certificate.
    public var certificate: Certificate
    /// Its index in the built path, nil when presented but not used.
    public var pathIndex: Int?
    /// Where it came from, in words.
    public var source: String
}
