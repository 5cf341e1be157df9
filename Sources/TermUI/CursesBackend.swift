// The real terminal, through ncurses: the only file of TermUI that sees C.

internal import CNcursesw
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether curses owns the terminal; the signal handlers and `close` race for the one `endwin`.
private let cursesActive = Atomic<Bool>(false)

/// The signals whose default action would leave the terminal raw and in the alternate screen.
private let restoringSignals: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGFPE,
]

/// Restores the terminal, then lets the signal take its default action (terminate, dump core).
/// Kept minimal: one atomic exchange, `endwin`, re-raise.
private func restoreTerminalAndReraise(_ signal: Int32) {
    if cursesActive.exchange(false, ordering: .sequentiallyConsistent) { endwin() }
    CNcursesw_reraise(signal)
}

/// A terminal driven by ncurses: draws cells, reads keys, restores the terminal on close and on
/// fatal signals. Use it from one thread.
public final class CursesBackend: Backend {
    /// Whether the locale is UTF-8: when false, draw with `Symbols.ascii`; other non-ASCII text is
    /// shown as `?`.
    public let unicode: Bool
    /// Whether the terminal shows colours.
    public let hasColors: Bool

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let colorCount: Int
    private let maxPairs: Int
    private var pairs: [Int32: Int16] = [:]
    private var savedActions: [(Int32, sigaction)] = []
    private var closed = false
    /// Whether the terminal changed size while open.
    private var resized = false

    private init(screen: OpaquePointer, window: UnsafeMutablePointer<WINDOW>, unicode: Bool) {
        self.screen = screen
        self.window = window
        self.unicode = unicode
        if has_colors() {
            start_color()
            use_default_colors()
            hasColors = true
            colorCount = Int(CNcursesw_colors())
            maxPairs = min(Int(CNcursesw_color_pairs()), Int(Int16.max))
        } else {
            hasColors = false
            colorCount = 0
            maxPairs = 0
        }
    }

    /// Takes over the terminal: alternate screen, no echo, keys one at a time, hidden cursor.
    ///
    /// Refuses when standard input or output is not a terminal, or TERM is unknown or cannot position
    /// the cursor, before anything is written. Installs handlers that restore the terminal and re-raise
    /// on SIGINT, SIGTERM, SIGHUP and SIGQUIT (unless the process ignores them) and on the fatal signals
    /// (SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGFPE); ncurses keeps SIGWINCH and reports
    /// `Key.resize`.
    /// - Returns: The backend; call `close()` when done.
    /// - Throws: `TerminalError` explaining why the terminal cannot be used.
    public static func open() throws(TerminalError) -> CursesBackend {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty else { throw .unknownTerminal("(unset)") }
        setlocale(LC_ALL, "")
        switch CNcursesw_check_terminal() {
        case 0: throw .unknownTerminal(term)
        case -1: throw .incapableTerminal(term)
        default: break
        }
        guard cursesActive.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else { throw .initialisationFailed("the terminal is already open") }
        guard let screen = newterm(nil, CNcursesw_stdout(), CNcursesw_stdin()) else {
            cursesActive.store(false, ordering: .sequentiallyConsistent)
            throw .unknownTerminal(term)
        }
        guard let window = CNcursesw_stdscr() else {
            cursesActive.store(false, ordering: .sequentiallyConsistent)
            endwin()
            delscreen(screen)
            throw .initialisationFailed("no standard screen")
        }
        let backend = CursesBackend(screen: screen, window: window, unicode: CNcursesw_codeset_is_utf8() != 0)
        for sig in restoringSignals {
            var old = sigaction()
            let keepIgnored: Int32 = [SIGINT, SIGTERM, SIGHUP, SIGQUIT].contains(sig) ? 1 : 0
            if CNcursesw_install_handler(sig, restoreTerminalAndReraise, keepIgnored, &old) == 0 {
                backend.savedActions.append((sig, old))
            }
        }
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        curs_set(0)
        set_escdelay(25)
        leaveok(window, true)
        // Clicks and the wheel; terminals without a mouse report nothing.
        CNcursesw_enable_mouse()
        return backend
    }

    deinit { close() }

    /// Gives the terminal back (`endwin`, exactly once) and puts back the previous signal handlers.
    /// Later calls do nothing.
    public func close() {
        guard !closed else { return }
        closed = true
        if resized && cursesActive.load(ordering: .sequentiallyConsistent) {
            // After a resize the frame is erased before the alternate screen is left: a terminal
            // that resized its saved screen meanwhile (tmux does) would otherwise keep pieces of
            // the last frame on the shell's screen, which vim and less leave clean.
            wclear(window)
            wrefresh(window)
        }
        if cursesActive.exchange(false, ordering: .sequentiallyConsistent) { endwin() }
        for (sig, old) in savedActions {
            var old = old
            CNcursesw_restore_handler(sig, &old)
        }
        savedActions = []
        delscreen(screen)
    }

    /// The terminal's size in cells, updated after `Key.resize`.
    public var size: (width: Int, height: Int) {
        closed ? (0, 0) : (Int(CNcursesw_cols()), Int(CNcursesw_lines()))
    }

    /// Draws the cells into curses' screen image; `flush` shows them.
    /// - Parameter updates: The cells to draw.
    public func draw(_ updates: [CellUpdate]) {
        guard !closed else { return }
        var cc = cchar_t()
        var text: [wchar_t] = []
        for u in updates where !u.cell.isContinuation {
            text.removeAll(keepingCapacity: true)
            var symbol = u.cell.symbol
            if !unicode && symbol.unicodeScalars.contains(where: { !$0.isASCII }) {
                symbol = displayWidth(of: symbol) == 2 ? "??" : "?"
            }
            for s in symbol.unicodeScalars.prefix(4) { text.append(wchar_t(bitPattern: s.value)) }
            text.append(0)
            let (attrs, pair) = attributes(u.cell.style)
            if symbol == "??" {
                text = [wchar_t(63), 0]
                setcchar(&cc, text, attrs, pair, nil)
                mvwadd_wch(window, Int32(u.y), Int32(u.x), &cc)
                mvwadd_wch(window, Int32(u.y), Int32(u.x + 1), &cc)
            } else {
                setcchar(&cc, text, attrs, pair, nil)
                mvwadd_wch(window, Int32(u.y), Int32(u.x), &cc)
            }
        }
    }

    /// Puts text on the terminal's clipboard with OSC 52 (xterm, kitty, iTerm2, WezTerm, tmux with
    /// `set-clipboard on`); terminals without it ignore the sequence.
    /// - Parameter base64: The text, Base64-encoded; anything else is refused, so the sequence
    ///   can carry nothing but the payload.
    /// - Returns: Whether the sequence was written.
    @discardableResult
    public func copyToClipboard(base64: String) -> Bool {
        guard !closed, !base64.isEmpty, base64.utf8.count <= 1 << 20 else { return false }
        let allowed = base64.utf8.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2F
                || b == 0x3D
        }
        guard allowed else { return false }
        wrefresh(window)
        let sequence = Array("\u{1B}]52;c;\(base64)\u{07}".utf8)
        var offset = 0
        while offset < sequence.count {
            let n = sequence[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n <= 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// Shows what was drawn.
    public func flush() {
        guard !closed else { return }
        wrefresh(window)
    }

    /// Erases the screen; the next flush repaints it whole.
    public func clear() {
        guard !closed else { return }
        wclear(window)
    }

    /// Waits for a key.
    /// - Parameter timeoutMilliseconds: How long to wait; negative waits for ever, 0 only polls.
    /// - Returns: The key, `.resize` when the terminal changed size, or nil on timeout (or a key
    ///   this enum does not name).
    public func readKey(timeoutMilliseconds: Int) -> Key? {
        guard !closed else { return nil }
        wtimeout(window, Int32(clamping: timeoutMilliseconds))
        var ch: wint_t = 0
        let result = wget_wch(window, &ch)
        if result == ERR { return nil }
        let code = Int32(bitPattern: UInt32(ch))
        if result == KEY_CODE_YES {
            switch code {
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_PPAGE: return .pageUp
            case KEY_NPAGE: return .pageDown
            case KEY_HOME: return .home
            case KEY_END: return .end
            case KEY_ENTER: return .enter
            case KEY_BACKSPACE: return .backspace
            case KEY_BTAB: return .backTab
            case KEY_RESIZE:
                resized = true
                return .resize
            case KEY_MOUSE:
                var x: Int32 = 0
                var y: Int32 = 0
                switch CNcursesw_mouse_event(&x, &y) {
                case 1: return .mouse(MouseEvent(.click, x: Int(x), y: Int(y)))
                case 2: return .mouse(MouseEvent(.wheelUp, x: Int(x), y: Int(y)))
                case 3: return .mouse(MouseEvent(.wheelDown, x: Int(x), y: Int(y)))
                default: return nil
                }
            case (KEY_F0 + 1)...(KEY_F0 + 63): return .function(Int(code - KEY_F0))
            default: return nil
            }
        }
        switch code {
        case 10, 13: return .enter
        case 9: return .tab
        case 27: return .escape
        case 8, 127: return .backspace
        default:
            guard let scalar = Unicode.Scalar(UInt32(ch)) else { return nil }
            return .char(Character(scalar))
        }
    }

    /// The curses attributes and colour pair for a style, allocating the pair on first use.
    private func attributes(_ style: Style) -> (attr_t, Int16) {
        var attrs: attr_t = 0
        let m = style.modifiers
        if m.contains(.bold) { attrs |= CNcursesw_A_BOLD() }
        if m.contains(.dim) { attrs |= CNcursesw_A_DIM() }
        if m.contains(.underline) { attrs |= CNcursesw_A_UNDERLINE() }
        if m.contains(.reverse) { attrs |= CNcursesw_A_REVERSE() }
        if m.contains(.italic) { attrs |= CNcursesw_A_ITALIC() }
        guard hasColors, style.foreground != nil || style.background != nil else { return (attrs, 0) }
        var fg: Int16 = -1
        var bg: Int16 = -1
        if let f = style.foreground {
            let (index, bright) = terminalColor(f)
            fg = index
            if bright { attrs |= CNcursesw_A_BOLD() }
        }
        if let b = style.background { bg = terminalColor(b).index }
        let key = Int32(fg) << 16 | Int32(UInt16(bitPattern: bg))
        if let pair = pairs[key] { return (attrs, pair) }
        let next = pairs.count + 1
        guard next < maxPairs else { return (attrs, 0) }
        init_pair(Int16(next), fg, bg)
        pairs[key] = Int16(next)
        return (attrs, Int16(next))
    }

    /// The terminal's colour for a palette colour: itself when the terminal has it, else the nearest
    /// basic colour (bright ones as bold).
    private func terminalColor(_ color: Color) -> (index: Int16, bright: Bool) {
        let i = color.paletteIndex
        if i < colorCount { return (Int16(i), false) }
        if i < 16 { return (Int16(i - 8), true) }
        if i < 232 {
            let c = i - 16
            let (r, g, b) = (c / 36, c / 6 % 6, c % 6)
            let basic = (r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0)
            return (Int16(basic), max(r, g, b) >= 5)
        }
        return i < 244 ? (0, true) : (7, false)
    }
}
