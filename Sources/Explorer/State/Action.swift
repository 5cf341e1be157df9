import TLSProbe
import TrustCore

/// What the user can ask for: the values the keymap produces.
public enum Command: String, Hashable, Sendable, CaseIterable {
    /// Leave the explorer.
    case quit
    /// Show or hide the help overlay.
    case toggleHelp
    /// Move focus to the next pane.
    case focusNext
    /// Move focus to the previous pane.
    case focusPrevious
    /// Move the selection (or scroll) up one row.
    case moveUp
    /// Move the selection (or scroll) down one row.
    case moveDown
    /// Move up one page.
    case pageUp
    /// Move down one page.
    case pageDown
    /// Jump to the first row.
    case first
    /// Jump to the last row.
    case last
    /// Open the selection: reconnect a target, or show a certificate's or step's detail.
    case open
    /// Connect again with the same settings.
    case reconnect
    /// Cycle the anchors: the target's anchor only, anchor + system roots, system roots only.
    case cycleAnchors
    /// Cycle the policy: SSL with host, SSL with nil host, Basic X.509.
    case cyclePolicy
    /// Cycle the host: the URL's host, localhost, 127.0.0.1.
    case cycleHost
    /// Type a host name.
    case editHost
    /// Cycle the SPKI pins: none, the leaf's, a wrong one.
    case cyclePins
    /// Cycle the evaluation time: now, +1 year, -1 year, +5 years.
    case cycleTime
    /// Switch the lowest TLS version between 1.2 and 1.3 (reconnects).
    case cycleTLSMinimum
    /// Switch AIA fetching on or off (reconnects).
    case toggleAIA
    /// Switch the rule profile between apple and webpki.
    case cycleProfile
    /// Reset every setting to the target's defaults.
    case resetToggles
}

/// An edit of the host being typed.
public enum HostEdit: Hashable, Sendable {
    /// Append a character.
    case insert(Character)
    /// Delete the last character.
    case deleteBackward
    /// Use the typed host.
    case commit
    /// Keep the previous host.
    case cancel
}

/// Everything that changes the explorer's state: user commands and results of effects.
public enum Action: Sendable {
    /// A user command.
    case command(Command)
    /// An edit of the host being typed.
    case hostEdit(HostEdit)
    /// The lab is serving these targets.
    case labStarted(targets: [ExplorerTarget], directory: String)
    /// The lab could not start.
    case labFailed(String)
    /// A connection finished (successfully or not).
    case connected(request: Int, ConnectionResult)
    /// An evaluation finished; nil when the chain was empty.
    case evaluated(request: Int, Evaluation?)
}
