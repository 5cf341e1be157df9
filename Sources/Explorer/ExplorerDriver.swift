import ExplorerState
import TermUI
import TrustCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Owns one session's state on the UI thread: keys go through the keymap and `reduce`, effects
/// go to the executor's threads, and their answers come back when the loop calls `pump()`. It
/// keeps the layout of the last frame drawn, so the mouse lands on what the user saw.
public final class ExplorerDriver {
    /// The current state.
    public private(set) var state: AppState
    /// Runs the effects and holds the session's evaluator.
    public let executor: EffectExecutor
    /// The keys.
    public var keymap: Keymap
    private var initialEffects: [Effect]
    private var seenGeneration = 0
    /// Where `copyToClipboard` effects go: the terminal, on this (the UI) thread. Without one
    /// (tests, scripted runs) the text is kept in `copied`.
    public var clipboard: ((String) -> Bool)?
    /// The texts copied so far, newest last.
    public private(set) var copied: [String] = []
    /// What the last frame drawn laid out (`frameLaid(_:)`); nil before the first.
    public private(set) var layout: FrameLayout?

    /// Creates a driver; nothing runs before `start()`.
    /// - Parameters:
    ///   - initial: The first state and its effects (`AppState.lab` or `AppState.explore`).
    ///   - executor: The executor (one per session).
    ///   - keymap: The keys.
    public init(
        _ initial: (AppState, [Effect]), executor: EffectExecutor = EffectExecutor(), keymap: Keymap = .standard
    ) {
        self.state = initial.0
        self.initialEffects = initial.1
        self.executor = executor
        self.keymap = keymap
    }

    /// Starts the initial effects (the lab, or the first connection) in the background.
    public func start() {
        executor.run(initialEffects)
        initialEffects = []
    }

    /// Applies an action and starts its effects.
    public func dispatch(_ action: Action) {
        let (next, effects) = reduce(state, action)
        state = next
        var background: [Effect] = []
        var refused = false
        for effect in effects {
            guard case .copyToClipboard(let text) = effect else {
                background.append(effect)
                continue
            }
            copied.append(text)
            if let clipboard, !clipboard(text) { refused = true }
        }
        executor.run(background)
        // The terminal's answer is news like any other: the state hears it through `reduce`.
        if refused { dispatch(.clipboardRefused) }
    }

    /// Handles a key; false when it means nothing here.
    @discardableResult
    public func press(_ key: KeyStroke) -> Bool {
        guard let action = keymap.action(for: key, in: state) else {
            // Said in the status line until the next key, so a mistyped key is not silent.
            dispatch(.unknownKey(key.label()))
            return true
        }
        dispatch(action)
        return true
    }

    /// Keeps what a frame laid out, for the mouse, and hands it to the state (its list offsets
    /// and viewport sizes), as one action like any other change.
    /// - Parameter layout: What `ExplorerView.render` returned for the frame just drawn.
    public func frameLaid(_ layout: FrameLayout) {
        self.layout = layout
        dispatch(.frameLaid(layout))
    }

    /// Handles a mouse event where the last frame drew: a click focuses the pane and selects
    /// the item its row showed; the wheel scrolls the pane under the pointer.
    /// - Parameter event: The event, in screen cells.
    /// - Returns: Whether it landed on a pane (and so may have changed the state).
    @discardableResult
    public func mouse(_ event: MouseEvent) -> Bool {
        guard let target = layout?.hitTest(x: event.x, y: event.y) else { return false }
        switch event.kind {
        case .click: dispatch(.click(target))
        case .wheelUp: dispatch(.wheel(target, -3))
        case .wheelDown: dispatch(.wheel(target, 3))
        }
        return true
    }

    /// Applies the answers published since the last call; true when there were any.
    @discardableResult
    public func pump() -> Bool {
        let generation = executor.generation
        guard generation != seenGeneration else { return false }
        seenGeneration = generation
        let actions = executor.drain()
        for action in actions { dispatch(action) }
        return !actions.isEmpty
    }

    /// Pumps until `condition` holds or `seconds` pass (for tests and scripted runs).
    /// - Returns: Whether the condition holds.
    @discardableResult
    public func wait(seconds: Double, until condition: (AppState) -> Bool) -> Bool {
        var waited = 0.0
        while !condition(state) {
            if waited >= seconds { return false }
            if !pump() {
                usleep(2_000)
                waited += 0.002
            }
        }
        return true
    }
}

extension KeyStroke {
    /// The explorer's key for a terminal key; nil for keys it does not use (and resizes).
    /// - Parameter key: The key the backend read.
    public init?(_ key: Key) {
        switch key {
        case .char(let c): self = .char(c)
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .pageUp: self = .pageUp
        case .pageDown: self = .pageDown
        case .home: self = .home
        case .end: self = .end
        case .enter: self = .enter
        case .escape: self = .escape
        case .tab: self = .tab
        case .backTab: self = .backTab
        case .backspace: self = .backspace
        case .resize, .function, .mouse: return nil
        }
    }
}
