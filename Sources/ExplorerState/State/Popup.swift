// What is open over the panes: at most one popup, so which one takes the keys is never decided
// by testing flags in a chosen order (D381).
extension AppState {
    /// What takes the keys first, decided here once: an open popup, else a walk-through in
    /// progress, else the compare view, else the panes. (A walk-through and the compare view can
    /// both be on; the walk-through's keys come first. Predict mode's hidden verdict is beside
    /// the mode: Space reveals it in any.)
    public enum Mode: Hashable, Sendable {
        /// A popup over the panes.
        case popup(Popup)
        /// A walk-through: its keys (Space, arrows, Esc) come before the panes'.
        case walk
        /// The compare view: Esc leaves it before it cancels or clears anything.
        case comparison
        /// The panes alone.
        case panes
    }

    /// What takes the keys first.
    public var mode: Mode {
        if let popup { return .popup(popup) }
        if walk != nil { return .walk }
        if comparison.showing { return .comparison }
        return .panes
    }

    /// A popup over the panes. Opening one replaces any other, as each is opened by a key that
    /// the open one would have taken; the walk-through and the compare view are not popups but
    /// what the panes show, and stay under one.
    public enum Popup: Hashable, Sendable {
        /// A prompt being typed in, which takes every key.
        case prompt(Prompt)
        /// The help: the movement keys scroll it, any other key closes it.
        case help
        /// A text shown over the panes (the copied command, an export): any key closes it.
        case overlay(TextOverlay)
    }

    /// The open prompt, nil when none; setting one opens it in place of any other popup.
    public var prompt: Prompt? {
        get { if case .prompt(let p) = popup { p } else { nil } }
        set {
            if let newValue {
                popup = .prompt(newValue)
            } else if case .prompt = popup {
                popup = nil
            }
        }
    }

    /// Whether the help is shown; setting it opens it in place of any other popup.
    public var showHelp: Bool {
        get { popup == .help }
        set {
            if newValue {
                popup = .help
            } else if popup == .help {
                popup = nil
            }
        }
    }

    /// The text over the panes, nil for none; setting one opens it in place of any other popup.
    public var overlay: TextOverlay? {
        get { if case .overlay(let o) = popup { o } else { nil } }
        set {
            if let newValue {
                popup = .overlay(newValue)
            } else if case .overlay = popup {
                popup = nil
            }
        }
    }
}
