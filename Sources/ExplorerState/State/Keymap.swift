/// A key as the explorer sees it, independent of the terminal backend.
public enum KeyStroke: Hashable, Sendable {
    /// A printable character.
    case char(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Enter.
    case enter
    /// Escape.
    case escape
    /// Backspace.
    case backspace
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end

    /// How the help bar names the key.
    /// - Parameter unicode: Whether arrows may be drawn as Unicode.
    /// - Returns: A short label such as `q`, `↑`, `Tab`.
    public func label(unicode: Bool = true) -> String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): String(c)
        case .up: unicode ? "↑" : "Up"
        case .down: unicode ? "↓" : "Down"
        case .left: unicode ? "←" : "Left"
        case .right: unicode ? "→" : "Right"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Bksp"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        }
    }
}

/// One row of the keymap: keys, the command they send, and the words the help shows.
public struct KeyBinding: Sendable {
    /// The keys, the first one shown in the help bar.
    public var keys: [KeyStroke]
    /// The command sent.
    public var command: Command
    /// One or two words for the help bar (`policy`).
    public var hint: String
    /// One sentence for the help overlay.
    public var help: String
    /// Whether the one-line help bar shows it (the overlay shows every binding).
    public var inBar: Bool
    /// Whether it acts on a server connection (dimmed, with the reason, for files).
    public var needsServer: Bool
    /// Words added to the help in the lab only (`the lab stops with it`).
    public var labNote: String?
    /// The panes where the key acts on what is selected (listed first in the help when one of
    /// them has focus); empty for keys that act the same everywhere.
    public var panes: Set<AppState.Pane>
    /// The bar's words where the key means something else in a pane (`w` writes PEM in the
    /// Chain pane).
    public var paneHints: [AppState.Pane: String]
    /// A shorter word for a narrow terminal's bar, nil when the hint is short already.
    public var shortHint: String?

    /// Creates a binding.
    public init(
        _ keys: [KeyStroke], _ command: Command, hint: String, help: String, inBar: Bool = true,
        needsServer: Bool = false, labNote: String? = nil, panes: Set<AppState.Pane> = [],
        paneHints: [AppState.Pane: String] = [:], shortHint: String? = nil
    ) {
        self.panes = panes
        self.paneHints = paneHints
        self.shortHint = shortHint
        self.keys = keys
        self.command = command
        self.hint = hint
        self.help = help
        self.inBar = inBar
        self.needsServer = needsServer
        self.labNote = labNote
    }

    /// The help sentence for `state`: the lab's note only in the lab, and for files the reason a
    /// connection key does nothing.
    public func help(in state: AppState) -> String {
        var text = help
        if let labNote, state.isLab { text = String(text.dropLast()) + " (\(labNote))." }
        if needsServer && !state.targetIsServer { text += " Not for files: there is nothing to connect to." }
        return text
    }

    /// Whether the key does something for the selected target.
    public func isEnabled(in state: AppState) -> Bool { !needsServer || state.targetIsServer }
}

/// One item of the help bar.
public struct HintItem: Hashable, Sendable {
    /// The keys, e.g. `j/↓`.
    public var key: String
    /// What they do.
    public var action: String
    /// False when the key does nothing for this target (drawn dimmed).
    public var enabled: Bool
    /// The shorter words for a narrow bar.
    public var shortAction: String = ""
    /// Whether the key acts on the selection of a pane other than the focused one (left out
    /// first when the bar is narrow).
    public var elsewhere = false
}

/// Keys to commands. The help bar and the help overlay are generated from it, so they cannot
/// drift from what the keys do.
public struct Keymap: Sendable {
    /// Every binding, in help order.
    public var bindings: [KeyBinding]

    /// The keys of a walk-through, which take precedence while one is in progress (and Space
    /// while a predicted verdict waits).
    public var walkBindings: [KeyBinding]

    /// Creates a keymap; a key bound twice sends the first binding's command.
    public init(_ bindings: [KeyBinding], walk: [KeyBinding] = Keymap.walkKeys) {
        self.bindings = bindings
        self.walkBindings = walk
    }

    /// Space or → reveals the next step, ← hides it again, Esc ends.
    public static let walkKeys = [
        KeyBinding(
            [.char(" "), .right], .walkNext, hint: "next",
            help: "Walk-through: reveal the next step (in predict mode, reveal the verdict)."),
        KeyBinding([.left], .walkBack, hint: "back", help: "Walk-through: hide the last revealed step."),
        KeyBinding([.escape], .walkEnd, hint: "end", help: "Walk-through: end it and show every step."),
    ]

    /// The keys that edit an open prompt; every other character is typed into it.
    public static let promptKeys: [KeyStroke: PromptEdit] = [
        .backspace: .deleteBackward, .enter: .commit, .escape: .cancel, .tab: .complete, .up: .historyPrevious,
        .down: .historyNext,
    ]

    /// The command `key` sends, if any.
    public func command(for key: KeyStroke) -> Command? {
        bindings.first { $0.keys.contains(key) }?.command
    }

    /// The binding of `command`, if any.
    public func binding(for command: Command) -> KeyBinding? { bindings.first { $0.command == command } }

    /// The action `key` causes in `state`: while a prompt is open, keys edit it instead.
    /// - Parameters:
    ///   - key: The key pressed.
    ///   - state: The current state.
    /// - Returns: The action, or nil when the key means nothing here.
    public func action(for key: KeyStroke, in state: AppState) -> Action? {
        switch state.mode {
        case .popup(.prompt):
            if case .char(let c) = key { return .promptEdit(.insert(c)) }
            return Keymap.promptKeys[key].map { .promptEdit($0) }
        case .popup:
            // Esc closes the popup (the command closes whichever is open); any other key's
            // command is taken by the popup, which closes on it unless it scrolls the help.
            if key == .escape { return .command(.toggleHelp) }
        case .walk, .comparison, .panes: break
        }
        // The walk-through's own keys come before the panes' (→ and ← move panes otherwise).
        if let walkCommand = walkCommand(for: key, in: state) { return .command(walkCommand) }
        return command(for: key).map { .command($0) }
    }

    /// The walk-through's command for `key`: any of its keys while one is in progress, only the
    /// next step's while predict mode hides a verdict (it reveals it), none otherwise.
    func walkCommand(for key: KeyStroke, in state: AppState) -> Command? {
        guard let b = walkBindings.first(where: { $0.keys.contains(key) }) else { return nil }
        if state.walk != nil || (state.verdictHidden && b.command == .walkNext) { return b.command }
        return nil
    }

    /// The help bar's items in order, dimmed where they do nothing for the selected target.
    /// - Parameters:
    ///   - state: The state (for what is enabled); nil treats every key as enabled.
    ///   - unicode: Whether arrows may be drawn as Unicode.
    /// - Returns: The items of bindings shown in the bar.
    public func hints(for state: AppState? = nil, unicode: Bool = true) -> [HintItem] {
        bindings.filter(\.inBar).map { b in
            // The focused pane's meaning of the key, so the bar never says walk where w writes.
            let action = state.flatMap { b.paneHints[$0.focus] } ?? b.hint
            // A key with a meaning in every pane (w) is never left out.
            let elsewhere =
                state.map { !b.panes.isEmpty && !b.panes.contains($0.focus) && b.paneHints.isEmpty } ?? false
            return HintItem(
                key: b.keys.prefix(2).map { $0.label(unicode: unicode) }.joined(separator: "/"), action: action,
                enabled: state.map { b.isEnabled(in: $0) } ?? true,
                shortAction: state.flatMap { b.paneHints[$0.focus] } ?? b.shortHint ?? b.hint, elsewhere: elsewhere)
        }
    }

    /// The explorer's keys: vi-style and arrow movement, one letter per setting, capitals for
    /// the less frequent variant.
    public static let standard = Keymap([
        KeyBinding(
            [.char("q")], .quit, hint: "quit", help: "Quit the explorer (in a popup, q closes the popup instead).",
            labNote: "the lab stops with it"),
        KeyBinding([.char("?")], .toggleHelp, hint: "help", help: "Show or hide this help."),
        KeyBinding([.tab, .right], .focusNext, hint: "pane", help: "Move focus to the next pane.", inBar: false),
        KeyBinding(
            [.backTab, .left], .focusPrevious, hint: "back", help: "Move focus to the previous pane.", inBar: false),
        KeyBinding([.char("1")], .focusTargets, hint: "targets", help: "Focus the Targets pane.", inBar: false),
        KeyBinding([.char("2")], .focusChain, hint: "chain", help: "Focus the Chain pane.", inBar: false),
        KeyBinding([.char("3")], .focusSteps, hint: "steps", help: "Focus the Steps pane.", inBar: false),
        KeyBinding([.char("4")], .focusDetail, hint: "detail", help: "Focus the Detail pane.", inBar: false),
        KeyBinding(
            [.up, .char("k")], .moveUp, hint: "up", help: "Select the previous row, or scroll up.", inBar: false),
        KeyBinding(
            [.down, .char("j")], .moveDown, hint: "down", help: "Select the next row, or scroll down.", inBar: false),
        KeyBinding([.pageUp], .pageUp, hint: "page up", help: "Move up one page.", inBar: false),
        KeyBinding([.pageDown], .pageDown, hint: "page down", help: "Move down one page.", inBar: false),
        KeyBinding([.char("g"), .home], .first, hint: "first", help: "Jump to the first row.", inBar: false),
        KeyBinding([.char("G"), .end], .last, hint: "last", help: "Jump to the last row.", inBar: false),
        KeyBinding(
            [.enter], .open, hint: "open",
            help: "Show the selected certificate or step in the Detail pane; on a target, reconnect.",
            inBar: false, panes: [.targets, .chain, .steps]),
        KeyBinding(
            [.char("a")], .toggleAnchor, hint: "anchor",
            help: "Make the selected certificate a custom anchor, or stop it being one (any certificate).",
            panes: [.chain]),
        KeyBinding(
            [.char("A")], .toggleAnchorsOnly, hint: "+system",
            help: "Trust the custom anchors only, or the system roots too (SecTrustSetAnchorCertificatesOnly).",
            shortHint: "+sys"),
        KeyBinding(
            [.char("F")], .addAnchorFile, hint: "anchor file",
            help: "Add the certificates of a file as custom anchors (Tab completes the path).", inBar: false),
        KeyBinding(
            [.char("C")], .toggleAnchorClass, hint: "class",
            help: "Custom anchors set by the app, or trusted on the device through a profile.", inBar: false),
        KeyBinding(
            [.char("P")], .togglePin, hint: "pin",
            help: "Pin the selected certificate's key, or unpin it (checked only after evaluation passes).",
            panes: [.chain]),
        KeyBinding(
            [.char("N")], .typePin, hint: "type pin",
            help: "Type an SPKI pin (sha256//BASE64); while a search is active, the previous match.", inBar: false),
        KeyBinding(
            [.char("/")], .search, hint: "find",
            help: "Find text in the focused pane (n next, N previous); in the Targets pane, filter the list.",
            inBar: false),
        KeyBinding([.char("n")], .searchNext, hint: "next", help: "The next match of the search.", inBar: false),
        KeyBinding(
            [.escape], .clearSearch, hint: "cancel",
            help: "Cancel an evaluation or connection in progress, or clear the search or the filter.",
            inBar: false),
        KeyBinding(
            [.char("w")], .writeOrWalk, hint: "walk",
            help:
                "Walk through the evaluation one step at a time (Space or → next, ← back, Esc ends); in the Chain pane, write the selected certificate as PEM to a file instead.",
            panes: [.chain, .steps], paneHints: [.chain: "write PEM"]),
        KeyBinding(
            [.char("D")], .toggleDER, hint: "DER",
            help:
                "In the Detail pane, show the selected certificate's DER tree (offsets, lengths, tags, OID names, values, as openssl asn1parse -i), or its fields again.",
            inBar: false, panes: [.chain, .detail]),
        KeyBinding(
            [.char("W")], .togglePredict, hint: "predict",
            help: "Predict mode: after a change that flips the verdict, hide it until Space, so a room can vote.",
            inBar: false),
        KeyBinding(
            [.char("e")], .togglePresenter, hint: "presenter",
            help:
                "Presenter switch: while predict mode is on, hide each lesson's Expected, Network, Try and Info.plist rows (its answers) in the Detail pane; e again shows them.",
            inBar: false),
        KeyBinding(
            [.char(":")], .jumpToTarget, hint: "go to",
            help:
                "Go to a target by its number (as the Targets pane's title counts them) or its name (Tab completes), without filtering the list.",
            inBar: false),
        KeyBinding(
            [.char("p")], .cyclePolicy, hint: "policy",
            help: "Policy: SSL with the host, SSL with a nil host, Basic X.509."),
        KeyBinding(
            [.char("h")], .editHost, hint: "host",
            help: "Type the host to check (Tab completes from the leaf; empty: no host, SSL nil)."),
        KeyBinding(
            [.char("t")], .editTime, hint: "time",
            help:
                "Type the evaluation time: a date, RFC 3339, or -90d / +6m / +1y from now (calendar months, years); above the prompt the timeline, where Tab puts each change of the verdict."
        ),
        KeyBinding(
            [.char("T")], .timeNow, hint: "now",
            help: "Evaluate at the current time again: each evaluation at its own moment.", inBar: false),
        KeyBinding(
            [.char("[")], .previousBoundary, hint: "prev date",
            help: "Jump to the previous notBefore or notAfter of a certificate in the path.", inBar: false),
        KeyBinding(
            [.char("]")], .nextBoundary, hint: "next date",
            help: "Jump to the next notBefore or notAfter of a certificate in the path.", inBar: false),
        KeyBinding([.char("<")], .dayEarlier, hint: "-1 day", help: "Evaluate one day earlier.", inBar: false),
        KeyBinding([.char(">")], .dayLater, hint: "+1 day", help: "Evaluate one day later.", inBar: false),
        KeyBinding(
            [.char("o")], .cycleProfile, hint: "profile",
            help: "Rule profile: Apple's SecTrust or webpki (RFC 5280 + CA/B Forum).", inBar: false),
        KeyBinding(
            [.char("c")], .connectTarget, hint: "connect",
            help: "Connect to a new target (host, host:port or URL); it joins the targets.", inBar: false,
            panes: [.targets]),
        KeyBinding(
            [.char("E")], .expandAddresses, hint: "addresses",
            help: "Replace the selected server by one target per address its name resolves to.", inBar: false,
            needsServer: true, panes: [.targets]),
        KeyBinding(
            [.char("v")], .cycleTLSMinimum, hint: "TLS min",
            help: "Lowest TLS version offered: 1.2 or 1.3 (reconnects).", inBar: false, needsServer: true),
        KeyBinding(
            [.char("f")], .toggleAIA, hint: "AIA",
            help: "Fetch missing intermediates from AIA URLs, on or off (reconnects).", inBar: false,
            needsServer: true),
        KeyBinding(
            [.char("r")], .reconnect, hint: "reconnect", help: "Connect again with the same settings.", inBar: false,
            needsServer: true),
        KeyBinding(
            [.char("i")], .toggleATS, hint: "ATS",
            help:
                "Apply App Transport Security and NSPinnedDomains as the app's Info.plist declares them (ATS's defaults until L loads one), or stop; changing it reconnects."
        ),
        KeyBinding(
            [.char("L")], .loadATSPlist, hint: "Info.plist",
            help: "Load an app's Info.plist (XML or binary) for ATS and NSPinnedDomains (Tab completes the path).",
            inBar: false),
        KeyBinding(
            [.char("I")], .toggleATSPlatform, hint: "iOS 16/17",
            help: "ATS's platform rules: iOS 17 (routable IP addresses need an exception) or iOS 16.", inBar: false),
        KeyBinding(
            [.char("R")], .toggleRevocationFetching, hint: "revocation",
            help:
                "Fetch revocation information over the network (OCSP, else CRLs; at most 8 plain HTTP fetches, once per chain), or stop, as SecPolicyCreateRevocation does.",
            inBar: false),
        KeyBinding(
            [.char("V")], .toggleRevocationRequired, hint: "require revocation",
            help:
                "Require a positive, verified revocation answer (OCSP or CRLs) for every certificate below the anchor, or stop, as kSecRevocationRequirePositiveResponse does.",
            inBar: false),
        KeyBinding(
            [.char("b")], .toggleClient, hint: "app/Safari",
            help:
                "Who evaluates: an app, or Safari and Apple's other programs, for which trustd expires a root 60 days early (an Apple-internal rule in Security-61901).",
            inBar: false),
        KeyBinding([.char("u")], .undo, hint: "undo", help: "Undo the last setting change."),
        KeyBinding([.char("U")], .redo, hint: "redo", help: "Redo the last undone setting change.", inBar: false),
        KeyBinding(
            [.char("0")], .resetToggles, hint: "start-up", help: "Restore the settings the session started with.",
            inBar: false),
        KeyBinding(
            [.char("y")], .copyCommand, hint: "copy cmd",
            help: "Copy the trustx check command that reproduces this state (OSC 52) and show it.",
            shortHint: "copy"),
        KeyBinding(
            [.char("!")], .explain, hint: "explain",
            help:
                "Explain an error code or a line pasted from Xcode's console (-1202 [3:-9813]): its name, meaning, causes and the lab scenario that shows it; empty explains this verdict's codes.",
            inBar: false),
        KeyBinding(
            [.char("x")], .exportReport, hint: "export",
            help: "Export the report to a file: .json, .md, or text for any other name.", inBar: false),
        KeyBinding(
            [.char("S")], .writeServedChain, hint: "serve chain",
            help:
                "Write the chain to serve (the path's leaf and intermediates, no anchor) to a new file, if alone it evaluates the same.",
            inBar: false),
        KeyBinding(
            [.char("X")], .exportCode, hint: "export code",
            help:
                "Export these settings as code: a Swift URLSessionDelegate, an NSPinnedDomains plist, a curl command, or the openssl commands that recompute the pins; written to a file and copied.",
            inBar: false),
        KeyBinding(
            [.char("s")], .cycleStore, hint: "store",
            help:
                "System roots: Apple's root store (compiled in), this machine's OpenSSL store, or the --store PATH the session started with.",
            inBar: false),
        KeyBinding(
            [.char("m")], .toggleMark, hint: "mark",
            help: "Mark the selected target to compare others with, or unmark it (a diamond follows its name).",
            inBar: false, panes: [.targets]),
        KeyBinding(
            [.char("M")], .compareMarked, hint: "compare",
            help:
                "Compare the marked target with the selected one side by side in the Detail pane: verdicts, chains, paths, differing fields and steps (M or Esc returns).",
            inBar: false, panes: [.targets, .detail]),
        KeyBinding(
            [.char("l")], .toggleWatch, hint: "watch",
            help:
                "Watch the selected server: connect again every --watch seconds (20 by default) under the current settings, draw each round in its history strip and list what changed in its Detail; l again stops.",
            inBar: false, needsServer: true, panes: [.targets]),
    ])
}
