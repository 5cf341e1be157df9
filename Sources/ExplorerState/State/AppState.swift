import CTModel
import ServedChain
import TLSProbe
import TrustCore
import TrustOptions
import TrustReport
import TrustSupport
import TrustTimeline
import TrustX509

/// Everything the explorer shows, as one value: views render it, `reduce` produces the next one.
public struct AppState: Sendable {
    /// The panes focus moves between, in Tab order.
    public enum Pane: Int, Hashable, Sendable, CaseIterable {
        /// The targets (lab scenarios, servers, files).
        case targets
        /// The chain as sent and the path as built.
        case chain
        /// The evaluation steps.
        case steps
        /// The selected certificate's fields, step's rule or target's description.
        case detail

        /// The title drawn on the pane's border.
        public var title: String {
            switch self {
            case .targets: "Targets"
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

    /// A target's verdict under the settings it was evaluated with, for the targets pane.
    public struct TargetMark: Sendable {
        /// The outcome.
        public var outcome: Outcome
        /// The settings it holds for.
        public var toggles: Toggles
    }

    /// A text shown over the panes until a key is pressed (the copied command).
    public struct TextOverlay: Hashable, Sendable {
        /// The box's title.
        public var title: String
        /// Paragraphs; a paragraph marked `verbatim` is never broken inside a word.
        public var paragraphs: [String]
    }

    /// The clock at start-up: "now" for the evaluation time.
    public var now: Timestamp
    /// The system trust store, nil for none.
    public var systemStore: (any IssuerSource)?
    /// The Certificate Transparency logs SCTs are checked against (`--ct-logs`); nil for Apple's.
    public var ctLogs: CTLogList?
    /// The `--ct-logs` file `ctLogs` was read from, for the copied command.
    public var ctLogsFile: String?
    /// The lab's status.
    public var lab: LabStatus
    /// What can be explored.
    public var targets: [ExplorerTarget]
    /// The selected target's index.
    public var selectedTarget = 0
    /// The settings the user changes.
    public var toggles = Toggles()
    /// The settings the session started with (`0` restores them).
    public var startToggles = Toggles()
    /// Earlier settings with what changed them, newest last (`u`).
    public var undoStack: [(toggles: Toggles, cause: String)] = []
    /// Undone settings, newest last (`U`).
    public var redoStack: [(toggles: Toggles, cause: String)] = []
    /// The selected target's chain.
    public var chain: ChainStatus = .idle
    /// The latest evaluation of the selected target, nil before one arrives or when the
    /// connection gave no chain.
    public var evaluation: Evaluation?
    /// What the last change did, nil after selecting another target.
    public var change: ChangeSummary?
    /// Each target's latest outcome, by index.
    public var marks: [Int: TargetMark] = [:]
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
    /// Whether the next frame scrolls the Detail pane to the walk-through step's evidence (the
    /// first field it read) when that is below the visible part; a scroll by the user ends it.
    public var detailFollowsEvidence = false
    /// The detail pane's size as last drawn, nil before a frame (or headless).
    public var detailViewport: Viewport?
    /// Each list's first visible line as last drawn: the next frame starts from it, so the
    /// list scrolls only when the selection leaves the visible rows.
    public var listOffsets: [Pane: Int] = [:]
    /// The popup over the panes (a prompt, the help, a text), nil for none: one at a time, so it
    /// alone takes the keys (D381).
    public var popup: Popup?
    /// The first line of the help overlay shown.
    public var helpScroll = 0
    /// Earlier entries of each prompt, oldest first.
    public var promptHistory: [Prompt.Kind: [String]] = [:]
    /// A one-line message for the status row (a file written, why a key does nothing); cleared
    /// by the next key.
    public var message: String?
    /// The text searched for with `/`, nil when no search is active.
    public var search: String?
    /// The text `/` filtered the Targets pane by, nil when it shows every target.
    public var targetFilter: String?
    /// The walk-through in progress: how many steps are revealed; nil when none.
    public var walk: Int?
    /// Whether predict mode is on (`W`).
    public var predict = false
    /// In predict mode, whether the verdict of the last change waits to be revealed.
    public var verdictHidden = false
    /// The targets whose hidden verdict the room has not seen yet (predict mode), by index: the
    /// vote stays pending when the selection moves away, and the verdict stays hidden when it
    /// comes back, until Space.
    public var pendingVotes: Set<Int> = []
    /// The presenter switch (`e`): while predict mode is on, the lesson's Expected, Network, Try
    /// and Info.plist rows (its answers) are left out of the Detail pane.
    public var presenter = false
    /// Whether the loop should end.
    public var shouldQuit = false
    /// Whether the Detail pane shows the selected certificate as its DER tree (`D`) rather than
    /// its fields.
    public var showsDER = false
    /// The help overlay's size as last drawn, nil before a frame shows it: its scroll stops at
    /// the last page.
    public var helpViewport: Viewport?
    /// How the copied command names trustx: `trustx` when that is on PATH, otherwise the running
    /// executable's absolute path (set at start-up; the reducer stays pure).
    public var commandName = "trustx"
    /// The absolute directory the copied command's session-made anchors are written to; nil
    /// writes them to the current directory (headless sessions).
    public var anchorDirectory: String?
    /// The absolute directory `X` writes exports to; nil writes them to the current directory.
    public var exportDirectory: String?
    /// The directory the explorer was started in (absolute): the copied command names every file
    /// relative to it by its absolute path, so it runs from anywhere; nil leaves paths as given.
    public var workingDirectory: String?
    /// The command line's `--anchor` files, which every server target of the session starts with,
    /// a target `c` adds too (the lab's are in `toggles.addedAnchors` instead).
    public var startAnchors: [AnchorEntry] = []
    /// How the command line reaches its servers (timeout, proxy, client identity), which `c`
    /// reaches a new target with; nil reaches it as the selected server is.
    public var startOptions: ProbeOptions?
    /// The marked target (`m`) and the compare view (`M`).
    public var comparison = Comparison()
    /// The watched targets (`l`), by index.
    public var watches: [Int: TargetWatch] = [:]
    /// How often a watched target is connected to again (`--watch SECONDS`).
    public var watchInterval: Duration = .seconds(20)

    /// The id the next request gets.
    var nextRequest = 1
    /// The connection whose answer is awaited.
    var pendingConnect: Int?
    /// The evaluation whose answer is awaited.
    var pendingEvaluation: Int?
    /// The awaited revocation fetch, if any.
    var pendingRevocation: Int?
    /// Revocation information fetched for the chain whose leaf it names (`--revocation`, `R`):
    /// fetched once per chain, then used by every evaluation of it.
    var fetchedRevocation: (leaf: Certificate, result: RevocationFetcher.Result)?
    /// The evaluation previewing the prompt's value.
    var pendingPreview: Int?
    /// The directory listing awaited for completion.
    var pendingCompletion: Int?
    /// The timeline awaited for the time prompt's strip.
    var pendingTimeline: Int?
    /// Where the verdict changes under the current settings, for the time prompt's strip; nil
    /// until made, and again once the prompt closes.
    package var timeline: Timeline?
    /// The strip's entry Tab last put in the time prompt.
    package var timelineSelection: Int?
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

    /// Whether the targets are the built-in lab's scenarios.
    public var isLab: Bool { lab != .notUsed }

    /// The selected target, if any.
    public var target: ExplorerTarget? {
        targets.indices.contains(selectedTarget) ? targets[selectedTarget] : nil
    }

    /// Whether the selected target is a server (connection settings apply to it).
    public var targetIsServer: Bool { target?.needsConnection ?? false }

    /// The selected target's connection result, when it has arrived.
    public var connection: ConnectionResult? {
        if case .ready(let r) = chain { return r }
        return nil
    }

    /// Whether some background work's answer is awaited (the loop polls faster then).
    public var isBusy: Bool {
        pendingConnect != nil || pendingEvaluation != nil || lab == .starting
    }

    /// The host the SSL policy checks under the current settings.
    public var checkedHost: String { checkedHost(toggles) }

    func checkedHost(_ t: Toggles) -> String { t.host.host(targetHost: target?.host ?? "") }

    /// The evaluation time under the current settings.
    public var evaluationTime: Timestamp { toggles.time ?? now }

    /// The custom anchors in force for the selected target: its own, minus those the user
    /// stopped trusting, plus those added in the session.
    public var effectiveAnchors: [AnchorEntry] { effectiveAnchors(toggles) }

    func effectiveAnchors(_ t: Toggles) -> [AnchorEntry] {
        var out: [AnchorEntry] = []
        var seen = Set<Certificate>()
        for entry in (target?.anchorEntries ?? []) + t.addedAnchors
        where !t.removedAnchors.contains(entry.certificate) && seen.insert(entry.certificate).inserted {
            out.append(entry)
        }
        return out
    }

    /// "set by the app" or "trusted on the device", for the anchors' descriptions.
    var anchorClassWords: String { toggles.anchorClass == .app ? "set by the app" : "trusted on the device" }

    /// The trust settings the current settings describe for the selected target.
    public var settings: TrustSettings { settings(toggles) }

    /// The trust settings `t` describes for the selected target.
    func settings(_ t: Toggles) -> TrustSettings {
        // The store stays a source of parents even when its roots are not trusted, as in check.
        // Without `t.time` the executor moves the time to the moment it evaluates (the
        // session's start plus the time since), so an evaluation made during a long session or
        // a watch is of its own moment, not of the start-up's.
        var s = t.check.trustSettings(
            anchors: effectiveAnchors(t).map(\.certificate), systemStore: store(for: t),
            targetHost: target?.host ?? "", now: now)
        s.ctLogs = ctLogs
        if t.fetchRevocation, let f = fetchedRevocation, f.leaf == chainToEvaluate.first {
            s.fetchedOCSPResponses = f.result.ocspResponses
            s.revocationLists += f.result.revocationLists
            s.revocationFetched = true
        }
        if let c = connection {
            s.negotiated = c.negotiated
            // Apple's SSL policy fetches missing intermediates; Basic X.509 does not.
            if s.policy.isSSL && t.fetchAIA { s.fetchedIssuers = c.fetchedIssuers }
            s.presentedSCTs = c.presentedSCTs
            s.stapledOCSPResponse = c.ocspResponse
        }
        return s
    }

    /// The chain of a files target.
    var filesChain: [Certificate] {
        if case .files(let chain, _)? = target?.source { return chain }
        return []
    }

    /// The chain to evaluate: the server's or the files'.
    var chainToEvaluate: [Certificate] { connection?.chain ?? filesChain }

    /// The rows of the chain pane: the path as built, leaf first, then the chain as sent.
    public var chainRows: [ChainRow] {
        guard let e = evaluation else { return [] }
        // How the chain was served (D440): each certificate's kinds after its words, `oversized`
        // (every certificate) in the pane's own lines only.
        var sentKinds: [Int: String] = [:]
        var pathKinds: [Int: String] = [:]
        for f in ServedChainAnalysis.findings(e) where f.kind != .oversized {
            for c in f.certificates {
                if let i = c.presentedIndex {
                    sentKinds[i, default: ""] += " · " + f.kind.rawValue
                } else if let p = c.pathIndex {
                    pathKinds[p, default: ""] += " · " + f.kind.rawValue
                }
            }
        }
        var rows = e.path.certificates.enumerated().map { i, c in
            ChainRow(
                certificate: c, section: .path, index: i,
                source: ReportFormatting.sourceDescription(e, i) + (pathKinds[i] ?? ""))
        }
        let pathIndex = Dictionary(
            e.path.certificates.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for (n, c) in e.presented.enumerated() {
            let note = pathIndex[c].map { "path [\($0)]" } ?? "not in the path"
            rows.append(ChainRow(certificate: c, section: .sent, index: n, source: note + (sentKinds[n] ?? "")))
        }
        return rows
    }

    /// The selected certificate of the chain pane, if any.
    public var selectedChainRow: ChainRow? {
        let rows = chainRows
        return rows.indices.contains(selectedCertificate) ? rows[selectedCertificate] : nil
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

    /// The steps in the order a walk-through reveals them: the order the evaluator runs its
    /// checks, path building first.
    public var walkOrder: [Int] { evaluation.map { Array($0.steps.indices) } ?? [] }

    /// The step the walk-through is at, if one is in progress.
    public var walkStep: Step? {
        guard let n = walk, let e = evaluation, n >= 1, n <= e.steps.count else { return nil }
        return e.steps[walkOrder[n - 1]]
    }

    /// Whether the verdict may be shown: not before the walk-through reaches the decisive step
    /// (or, for a trusted chain, the last one), nor while a prediction is awaited.
    public var verdictRevealed: Bool { !verdictHidden && walkReachedVerdict }

    /// Whether the lesson's answers (Expected, Network, Try, the Info.plists' expectations) are
    /// left out of the Detail pane: while the verdict is hidden, and with the presenter switch
    /// on while predict mode is (the room votes on every change).
    public var hidesAnswers: Bool { !verdictRevealed || (presenter && predict) }

    /// Whether the walk-through, if one is in progress, has revealed the step that decides the
    /// verdict (or, for a trusted chain, the last one).
    var walkReachedVerdict: Bool {
        guard let n = walk, let e = evaluation else { return true }
        if let decisive = e.verdict.decisiveStep, let i = e.steps.firstIndex(of: decisive) {
            return n > (walkOrder.firstIndex(of: i) ?? 0)
        }
        return n >= e.steps.count
    }

    /// The selected step, if any.
    public var selectedStepValue: Step? {
        if walk != nil { return walkStep }
        let order = stepOrder
        guard let e = evaluation, order.indices.contains(selectedStep) else { return nil }
        return e.steps[order[selectedStep]]
    }
}

/// What a mouse event landed on: a pane, and a row of it when it is a list.
public struct PointerTarget: Hashable, Sendable {
    /// The pane.
    public var pane: AppState.Pane
    /// The row, in the numbering of the pane's selection; nil for a heading, a border or the
    /// detail pane.
    public var row: Int?

    /// Creates a target.
    public init(pane: AppState.Pane, row: Int?) {
        self.pane = pane
        self.row = row
    }
}

/// What the detail pane shows of its lines at the current size.
public struct Viewport: Hashable, Sendable {
    /// Its lines after wrapping.
    public var lines: Int
    /// How many are visible.
    public var height: Int

    /// Creates a viewport.
    public init(lines: Int, height: Int) {
        self.lines = lines
        self.height = height
    }
}

/// One row of the chain pane.
public struct ChainRow: Sendable {
    /// The two lists the pane shows.
    public enum Section: Hashable, Sendable {
        /// The path as built, leaf first.
        case path
        /// The certificates as the server sent them (or as the files hold them).
        case sent
    }

    /// The certificate.
    public var certificate: Certificate
    /// Which list the row is in.
    public var section: Section
    /// Its index in that list.
    public var index: Int
    /// Where it came from (path rows) or where it sits in the path (sent rows), in words.
    public var source: String

    /// Its index in the built path, nil for a sent row.
    public var pathIndex: Int? { section == .path ? index : nil }
}
