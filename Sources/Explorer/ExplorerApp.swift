import ExplorerState
import TermUI
import TrustCore
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The interactive explorer on a real terminal.
public enum ExplorerApp {
    /// Opens the terminal, runs the session until the user quits, and gives the terminal back.
    /// - Parameters:
    ///   - initial: The first state and effects.
    ///   - theme: The theme; nil picks the default, or the monochrome one when the terminal has
    ///     no colours or `monochrome` is set (NO_COLOR).
    ///   - monochrome: Whether colour is unwanted.
    /// - Throws: `TerminalError` when the terminal cannot be used (nothing has been drawn then).
    public static func run(
        _ initial: (AppState, [Effect]), theme: Theme? = nil, monochrome: Bool = false
    ) throws(TerminalError) {
        // Ctrl-C, SIGTERM and SIGHUP end the session the same way `q` does, so the lab is
        // stopped and its files removed: they are blocked here, before any worker thread exists
        // (threads inherit the mask), and picked up by the loop between keys.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopSignals, s) }
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &stopSignals, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        let backend = try CursesBackend.open()
        let chosen = theme ?? (monochrome || !backend.hasColors ? .monochrome : .standard)
        let options = ViewOptions(theme: chosen, symbols: backend.unicode ? .unicode : .ascii)
        var initial = initial
        initial.0.commandName = Installation.commandName()
        initial.0.anchorDirectory = Installation.anchorDirectory()
        initial.0.exportDirectory = Installation.exportDirectory()
        initial.0.workingDirectory = Installation.workingDirectory()
        let driver = ExplorerDriver(initial)
        driver.clipboard = { text in backend.copyToClipboard(base64: Base64.encode(Array(text.utf8))) }
        defer {
            backend.close()
            driver.executor.shutdown()
        }
        run(driver, on: backend, options: options)
    }

    /// Whether a blocked stop signal is pending; consumes it.
    static func stopRequested() -> Bool {
        var pending = sigset_t()
        sigpending(&pending)
        for s in [SIGINT, SIGTERM, SIGHUP] where sigismember(&pending, s) == 1 {
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, s)
            var received: Int32 = 0
            sigwait(&only, &received)
            return true
        }
        return false
    }

    /// The loop: draw when something changed, wait for a key (briefly while background work is
    /// pending), apply it, then apply whatever the background published.
    static func run(_ driver: ExplorerDriver, on backend: CursesBackend, options: ViewOptions) {
        let terminal = Terminal(backend: backend)
        driver.start()
        var dirty = true
        while !driver.state.shouldQuit {
            if stopRequested() { break }
            if dirty {
                var laid = FrameLayout()
                terminal.draw { laid = ExplorerView.render(driver.state, into: &$0, area: $0.area, options: options) }
                dirty = false
                // What the frame laid out goes back to the state: list offsets (so lists do not
                // jump) and the detail's wrapped size (so End is its last line), as ratatui's
                // stateful widgets do. The state then equals the frame: no redraw is needed.
                driver.frameLaid(laid)
            }
            let key = backend.readKey(timeoutMilliseconds: driver.state.isBusy ? 15 : 200)
            if let key {
                if key == .resize {
                    terminal.invalidate()
                    dirty = true
                } else if case .mouse(let event) = key {
                    if driver.mouse(event) { dirty = true }
                } else if let stroke = KeyStroke(key), driver.press(stroke) {
                    dirty = true
                }
            }
            if driver.pump() { dirty = true }
        }
    }
}
