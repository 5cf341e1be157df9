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

    /// Creates a binding.
    public init(_ keys: [KeyStroke], _ command: Command, hint: String, help: String, inBar: Bool = true) {
        self.keys = keys
        self.command = command
        self.hint = hint
        self.help = help
        self.inBar = inBar
    }
}

/// Keys to commands. The help bar and the help overlay are generated from it, so they cannot
/// drift from what the keys do.
public struct Keymap: Sendable {
    /// Every binding, in help order.
    public var bindings: [KeyBinding]

    /// Creates a keymap; a key bound twice sends the first binding's command.
    public init(_ bindings: [KeyBinding]) { self.bindings = bindings }

    /// The command `key` sends, if any.
    public func command(for key: KeyStroke) -> Command? {
        bindings.first { $0.keys.contains(key) }?.command
    }

    /// The action `key` causes in `state`: while a host is being typed, keys edit it instead.
    /// - Parameters:
    ///   - key: The key pressed.
    ///   - state: The current state.
    /// - Returns: The action, or nil when the key means nothing here.
    public func action(for key: KeyStroke, in state: AppState) -> Action? {
        if state.hostEditor != nil {
            switch key {
            case .char(let c): return .hostEdit(.insert(c))
            case .backspace: return .hostEdit(.deleteBackward)
            case .enter: return .hostEdit(.commit)
            case .escape: return .hostEdit(.cancel)
            default: return nil
            }
        }
        if state.showHelp && key == .escape { return .command(.toggleHelp) }
        return command(for: key).map { .command($0) }
    }

    /// The help bar's items, `(key, action)`, in order.
    /// - Parameter unicode: Whether arrows may be drawn as Unicode.
    /// - Returns: The items of bindings shown in the bar.
    public func hints(unicode: Bool = true) -> [(key: String, action: String)] {
        bindings.filter(\.inBar).map { b in
            (b.keys.prefix(2).map { $0.label(unicode: unicode) }.joined(separator: "/"), b.hint)
        }
    }

    /// The explorer's keys: vi-style and arrow movement, one letter per toggle.
    public static let standard = Keymap([
        KeyBinding([.char("q")], .quit, hint: "quit", help: "Quit the explorer (the lab stops with it)."),
        KeyBinding([.char("?")], .toggleHelp, hint: "help", help: "Show or hide this help."),
        KeyBinding([.tab, .right], .focusNext, hint: "pane", help: "Move focus to the next pane."),
        KeyBinding(
            [.backTab, .left], .focusPrevious, hint: "back", help: "Move focus to the previous pane.", inBar: false),
        KeyBinding(
            [.up, .char("k")], .moveUp, hint: "up", help: "Select the previous row, or scroll up.", inBar: false),
        KeyBinding([.down, .char("j")], .moveDown, hint: "move", help: "Select the next row, or scroll down."),
        KeyBinding([.pageUp], .pageUp, hint: "page up", help: "Move up one page.", inBar: false),
        KeyBinding([.pageDown], .pageDown, hint: "page down", help: "Move down one page.", inBar: false),
        KeyBinding([.home, .char("g")], .first, hint: "first", help: "Jump to the first row.", inBar: false),
        KeyBinding([.end, .char("G")], .last, hint: "last", help: "Jump to the last row.", inBar: false),
        KeyBinding(
            [.enter], .open, hint: "open",
            help: "Reconnect the selected scenario; show a certificate or step in the detail pane.",
            inBar: false),
        KeyBinding(
            [.char("a")], .cycleAnchors, hint: "anchors",
            help: "Anchors: the scenario's anchor only, anchor + system roots, system roots only."),
        KeyBinding(
            [.char("p")], .cyclePolicy, hint: "policy",
            help: "Policy: SSL with the host, SSL with a nil host, Basic X.509."),
        KeyBinding(
            [.char("h")], .cycleHost, hint: "host",
            help: "Host: the URL's host, localhost, 127.0.0.1 (implies SSL with host)."),
        KeyBinding(
            [.char("e")], .editHost, hint: "type host",
            help: "Type a host to check (Enter uses it, Esc cancels, empty means the URL's).", inBar: false),
        KeyBinding(
            [.char("s")], .cyclePins, hint: "pins",
            help: "SPKI pins: none, the leaf's key, a wrong key (checked only after evaluation passes)."),
        KeyBinding([.char("t")], .cycleTime, hint: "time", help: "Evaluation time: now, +1 year, -1 year, +5 years."),
        KeyBinding(
            [.char("v")], .cycleTLSMinimum, hint: "TLS min",
            help: "Lowest TLS version offered: 1.2 or 1.3 (reconnects)."),
        KeyBinding(
            [.char("f")], .toggleAIA, hint: "AIA",
            help: "Fetch missing intermediates from AIA URLs, on or off (reconnects)."),
        KeyBinding(
            [.char("o")], .cycleProfile, hint: "profile",
            help: "Rule profile: Apple's SecTrust or webpki (RFC 5280 + CA/B Forum)."),
        KeyBinding(
            [.char("r")], .reconnect, hint: "reconnect", help: "Connect again with the same settings.", inBar: false),
        KeyBinding(
            [.char("0")], .resetToggles, hint: "defaults", help: "Reset every setting to the scenario's defaults.",
            inBar: false),
    ])
}
