import TLSProbe
import TrustCore
import TrustReport
import TrustSupport

/// One target being watched (`l`): its history of rounds and the timer that starts them.
public struct TargetWatch: Sendable {
    /// One cell of the history strip: what one round saw.
    public enum Cell: Hashable, Sendable {
        /// The round saw what the one before it saw (or it was the first, which is the baseline).
        case unchanged
        /// Something changed: a new leaf, a new chain, a verdict, an address, a recovery.
        case changed
        /// A connection of the round failed.
        case failed
    }

    /// The most cells the strip keeps; the pane shows the newest that fit.
    public static let cellLimit = 512

    /// The running timer's id, nil once `l` stopped the watch (its history stays on screen):
    /// ticks and rounds' answers carry it, so a stopped watch's late answers are ignored.
    public var timer: Int?
    /// The changes round by round.
    public var history: WatchHistory
    /// One cell per round, oldest first, at most `cellLimit`.
    public var cells: [Cell] = []
    /// Whether a round's connections are under way (a tick meanwhile starts none).
    public var inFlight = false
    /// The settings the last round evaluated with, and those of the round under way.
    var lastToggles: Toggles?
    var roundToggles: Toggles?
    /// The positions (counted from the first change ever, as `history.droppedChanges` counts)
    /// of verdict flips seen in a round evaluated under other settings than the round before.
    var afterSettingsChange: Set<Int> = []

    /// Whether the watch's timer runs.
    public var isActive: Bool { timer != nil }

    /// A watch with no rounds yet.
    /// - Parameters:
    ///   - timer: The timer's id.
    ///   - target: The target's name.
    public init(timer: Int, target: String) {
        self.timer = timer
        self.history = WatchHistory(target: target)
    }

    /// Whether the change at `index` of `history.changes` is a verdict flip that followed a
    /// change of the explorer's settings rather than of the server.
    public func followsSettingsChange(_ index: Int) -> Bool {
        afterSettingsChange.contains(history.droppedChanges + index)
    }

    /// Folds a round in: the history, the strip's cell, the flips a settings change explains.
    /// - Returns: The round's changes.
    @discardableResult
    mutating func fold(_ round: [WatchObservation], at time: Timestamp, toggles: Toggles?) -> [WatchChange] {
        let settingsChanged = lastToggles != nil && toggles != nil && lastToggles != toggles
        let before = history.droppedChanges + history.changes.count
        let found = history.fold(round, at: time)
        if settingsChanged {
            for (i, c) in found.enumerated() where c.kind == .verdictFlipped { afterSettingsChange.insert(before + i) }
        }
        afterSettingsChange = afterSettingsChange.filter { $0 >= history.droppedChanges }
        if let toggles { lastToggles = toggles }
        let cell: Cell
        if round.contains(where: { $0.outcome.summary == nil }) {
            cell = .failed
        } else if found.contains(where: { $0.kind != .firstEvaluation }) {
            cell = .changed
        } else {
            cell = .unchanged
        }
        cells.append(cell)
        if cells.count > Self.cellLimit { cells.removeFirst(cells.count - Self.cellLimit) }
        return found
    }
}

/// One round of a watched target: connect to each of its addresses and evaluate what each sent.
public struct WatchRoundRequest: Sendable {
    /// The watch's timer id, carried back in the answer.
    public var timer: Int
    /// The target's name, for the observations.
    public var name: String
    /// How to connect, as a reconnect under the current settings would.
    public var connect: ConnectRequest
    /// The trust settings of the target under the current settings, without what a connection
    /// adds (negotiated TLS, fetched issuers, SCTs, a stapled response): each round adds its own.
    public var settings: TrustSettings
}

/// What one address gave in a round.
public struct WatchRoundEntry: Sendable {
    /// The observation folded into the history.
    public var observation: WatchObservation
    /// The connection, when one was made (nil when the round's deadline passed before it).
    public var connection: ConnectionResult?

    /// An entry.
    public init(observation: WatchObservation, connection: ConnectionResult?) {
        self.observation = observation
        self.connection = connection
    }
}
