import ATSModel
import TLSProbe
import TrustCore
import TrustSupport
import TrustTimeline
import TrustX509

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
    /// Focus the targets pane.
    case focusTargets
    /// Focus the chain pane.
    case focusChain
    /// Focus the steps pane.
    case focusSteps
    /// Focus the detail pane.
    case focusDetail
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
    /// Make the selected certificate a custom anchor, or stop it being one.
    case toggleAnchor
    /// Switch between trusting the custom anchors only and trusting the system roots too.
    case toggleAnchorsOnly
    /// Add the certificates of a file as custom anchors (prompts for the path).
    case addAnchorFile
    /// Switch the custom anchors between app-set and device-trusted.
    case toggleAnchorClass
    /// Cycle the policy: SSL with host, SSL with nil host, Basic X.509.
    case cyclePolicy
    /// Type the host the SSL policy checks.
    case editHost
    /// Pin the selected certificate's key, or unpin it.
    case togglePin
    /// Type an SPKI pin.
    case typePin
    /// Type the evaluation time.
    case editTime
    /// Evaluate at the session's "now" again.
    case timeNow
    /// Jump to the previous validity boundary of a certificate in the path.
    case previousBoundary
    /// Jump to the next validity boundary of a certificate in the path.
    case nextBoundary
    /// Evaluate one day earlier.
    case dayEarlier
    /// Evaluate one day later.
    case dayLater
    /// Connect to a new target (prompts for it); it joins the targets.
    case connectTarget
    /// Replace the selected server target by one target per address its name resolves to.
    case expandAddresses
    /// Switch the lowest TLS version between 1.2 and 1.3 (reconnects).
    case cycleTLSMinimum
    /// Switch AIA fetching on or off (reconnects).
    case toggleAIA
    /// Switch the rule profile between apple and webpki.
    case cycleProfile
    /// Apply App Transport Security and NSPinnedDomains, or stop (asks for an Info.plist when none is loaded).
    case toggleATS
    /// Load an app's Info.plist for ATS and NSPinnedDomains (prompts for the path).
    case loadATSPlist
    /// Switch ATS's platform rules between iOS 16 and iOS 17.
    case toggleATSPlatform
    /// Fetch revocation information (OCSP, else CRLs) over the network, or stop.
    case toggleRevocationFetching
    /// Require a positive revocation answer for every certificate below the anchor, or stop.
    case toggleRevocationRequired
    /// Switch who evaluates between an app and Safari (Apple's own programs: early anchor expiry).
    case toggleClient
    /// Copy the `trustx check` command that reproduces the current state.
    case copyCommand
    /// Explain an error code or a pasted console line, or this verdict's codes (prompts).
    case explain
    /// Export the current report to a file (prompts for the path; the extension picks the format).
    case exportReport
    /// Write the chain to serve instead: the path's leaf and intermediates (prompts for the path).
    case writeServedChain
    /// Export the settings as code: a Swift delegate, an NSPinnedDomains plist, curl or openssl
    /// commands (prompts for the format).
    case exportCode
    /// Undo the last setting change.
    case undo
    /// Redo the last undone setting change.
    case redo
    /// Restore the settings the session started with.
    case resetToggles
    /// Reveal the next step of the walk-through (or the hidden verdict in predict mode).
    case walkNext
    /// Hide the last revealed step again.
    case walkBack
    /// Leave the walk-through.
    case walkEnd
    /// Predict mode: after a change that flips the verdict, ask the room before showing it.
    case togglePredict
    /// The presenter switch: hide the lesson's Expected and Try rows while predict mode is on.
    case togglePresenter
    /// Select a target by its name or its number, without filtering the list.
    case jumpToTarget
    /// `w`: write the certificate in the Chain pane, walk through the steps elsewhere.
    case writeOrWalk
    /// `D`: the selected certificate's DER tree in the Detail pane, or its fields again.
    case toggleDER
    /// Search the focused pane (prompts for the text).
    case search
    /// The next match of the search.
    case searchNext
    /// Clear the search.
    case clearSearch
    /// Switch the system roots: Apple's store, this machine's, and the `--store PATH` of the start.
    case cycleStore
    /// Mark the selected target for comparison, or unmark it.
    case toggleMark
    /// Compare the marked target with the selected one in the Detail pane, or leave the comparison.
    case compareMarked
    /// Watch the selected server: connect again every few seconds and keep what changed.
    case toggleWatch
}

/// An edit of the text being typed at a prompt.
public enum PromptEdit: Hashable, Sendable {
    /// Insert a character at the end.
    case insert(Character)
    /// Delete the last character.
    case deleteBackward
    /// Use the typed text.
    case commit
    /// Close the prompt and change nothing.
    case cancel
    /// Complete the text (host names from the leaf, file paths from the disk).
    case complete
    /// Recall the previous entry of this prompt's history.
    case historyPrevious
    /// Recall the next entry of this prompt's history.
    case historyNext
}

/// Everything that changes the explorer's state: user commands and results of effects.
public enum Action: Sendable {
    /// A user command.
    case command(Command)
    /// A key that means nothing here, as the help names it.
    case unknownKey(String)
    /// A click on a pane (and row), which focuses and selects it.
    case click(PointerTarget)
    /// The wheel turned over a pane: positive down, negative up, in rows.
    case wheel(PointerTarget, Int)
    /// A frame was drawn with this layout: its list offsets and its detail's and help's sizes
    /// become the state's, the same frame the mouse is resolved against.
    case frameLaid(FrameLayout)
    /// The terminal did not take a copy to its clipboard.
    case clipboardRefused
    /// An edit at the open prompt.
    case promptEdit(PromptEdit)
    /// The lab is serving these targets.
    case labStarted(targets: [ExplorerTarget], directory: String)
    /// The lab could not start.
    case labFailed(String)
    /// A connection finished (successfully or not).
    case connected(request: Int, ConnectionResult)
    /// An evaluation finished; nil when the chain was empty.
    case evaluated(request: Int, Evaluation?)
    /// The timeline the time prompt asked for.
    case timelineMade(request: Int, Timeline)
    /// Files in the directory of a typed path, for completion.
    case completions(request: Int, [String])
    /// Certificates read from a file for `addAnchorFile`, or why they could not be.
    case anchorsLoaded(path: String, Result<[Certificate], EffectFailure>)
    /// An Info.plist was read for `loadATSPlist` (its ATS configuration), or why it could not be.
    case atsLoaded(path: String, Result<ATSConfiguration, EffectFailure>)
    /// Revocation information was fetched for the path of the chain whose leaf is `leaf`.
    case revocationFetched(request: Int, leaf: Certificate, RevocationFetcher.Result)
    /// Files were written (or why not), with the message to show.
    case filesWritten(Result<String, EffectFailure>)
    /// A target's name resolved to these addresses (or why not).
    case resolved(target: Int, Result<[String], EffectFailure>)
    /// A watch's timer fired: time for its next round.
    case watchTick(timer: Int)
    /// A watch's round finished: what each address gave, and when the round ended.
    case watched(timer: Int, [WatchRoundEntry], at: Timestamp)
}

/// Why an effect failed, in words for the status line.
public struct EffectFailure: Error, Hashable, Sendable {
    /// The message.
    public var message: String

    /// Creates a failure.
    public init(_ message: String) { self.message = message }
}
