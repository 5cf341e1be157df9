// The terminal as a small protocol, the frame loop that draws only what changed, and a backend in memory.

/// Something that shows cells: a real terminal or a buffer in memory.
public protocol Backend {
    /// The current size in cells.
    var size: (width: Int, height: Int) { get }
    /// Draws changed cells (not yet visible until `flush`).
    /// - Parameter updates: The cells to draw, in any order.
    mutating func draw(_ updates: [CellUpdate])
    /// Makes what was drawn visible.
    mutating func flush()
    /// Erases the whole screen.
    mutating func clear()
}

/// Renders frames into a buffer and draws on the backend only the cells that changed since the last
/// frame. After a resize (or `invalidate()`) the screen is cleared and the frame drawn whole.
public final class Terminal<B: Backend> {
    /// The backend frames are drawn on.
    public var backend: B
    private var previous: Buffer?

    /// Creates a terminal over a backend; the first frame clears the screen.
    /// - Parameter backend: The backend to draw on.
    public init(backend: B) {
        self.backend = backend
    }

    /// The area the next frame covers: the backend's whole size.
    public var area: Rect {
        let size = backend.size
        return Rect(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// Forgets what is on the screen, so the next frame clears it and draws everything.
    public func invalidate() {
        previous = nil
    }

    /// Renders one frame and draws the cells that changed.
    /// - Parameter render: Fills the frame's buffer, which starts blank and covers `area`.
    /// - Returns: The number of cells drawn.
    @discardableResult
    public func draw(_ render: (inout Buffer) -> Void) -> Int {
        let area = self.area
        var buffer = Buffer(area: area)
        render(&buffer)
        let before: Buffer
        if let previous, previous.area == area {
            before = previous
        } else {
            backend.clear()
            before = Buffer(area: area)
        }
        let updates = buffer.diff(from: before)
        backend.draw(updates)
        backend.flush()
        previous = buffer
        return updates.count
    }
}

/// A backend that draws into memory, for tests: frames come out as text lines.
public struct TestBackend: Backend {
    /// What the screen shows.
    public private(set) var buffer: Buffer
    /// How many cells have been drawn since creation.
    public private(set) var drawnCells = 0
    /// How many cells the last `draw` drew.
    public private(set) var lastDrawCount = 0
    /// How many times the screen was cleared.
    public private(set) var clearCount = 0
    /// How many times the frame was flushed.
    public private(set) var flushCount = 0

    /// Creates a blank screen.
    /// - Parameters:
    ///   - width: The number of columns.
    ///   - height: The number of rows.
    public init(width: Int, height: Int) {
        buffer = Buffer(width: width, height: height)
    }

    /// The screen's size.
    public var size: (width: Int, height: Int) { (buffer.area.width, buffer.area.height) }

    /// Draws the cells into the in-memory screen, as a terminal would (a wide character covers two cells).
    /// - Parameter updates: The cells to draw.
    public mutating func draw(_ updates: [CellUpdate]) {
        for u in updates {
            buffer.set(x: u.x, y: u.y, string: u.cell.symbol, style: u.cell.style, maxWidth: 2)
        }
        drawnCells += updates.count
        lastDrawCount = updates.count
    }

    /// Counts the flush; memory needs no flushing.
    public mutating func flush() { flushCount += 1 }

    /// Blanks the screen.
    public mutating func clear() {
        buffer.reset()
        clearCount += 1
    }

    /// Changes the screen's size, blanking it, as a terminal window resized.
    /// - Parameters:
    ///   - width: The new number of columns.
    ///   - height: The new number of rows.
    public mutating func resize(width: Int, height: Int) {
        buffer = Buffer(width: width, height: height)
    }

    /// The screen's text, one string per row, trailing spaces trimmed.
    /// - Returns: The rows.
    public func lines() -> [String] { buffer.lines() }
}

/// A key press, or a resize of the terminal.
public enum Key: Hashable, Sendable {
    /// A printable character (or a control character, as the terminal sent it).
    case char(Character)
    case up, down, left, right, pageUp, pageDown, home, end, enter, escape, tab, backTab, backspace
    /// The terminal changed size: redraw.
    case resize
    /// Function key Fn.
    case function(Int)
    /// A mouse click or wheel turn at a cell.
    case mouse(MouseEvent)
}

/// A mouse event at a cell (column `x`, row `y`, from the top left).
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Kind: Hashable, Sendable {
        /// The first button was pressed.
        case click
        /// The wheel turned up (away from the user).
        case wheelUp
        /// The wheel turned down.
        case wheelDown
    }

    /// What the mouse did.
    public var kind: Kind
    /// The column.
    public var x: Int
    /// The row.
    public var y: Int

    /// Creates an event.
    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

/// Why the terminal UI could not start.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a CI job).
    case notATerminal
    /// TERM names no terminal the terminfo database knows, or is unset.
    case unknownTerminal(String)
    /// The terminal cannot move the cursor (TERM=dumb, a printing terminal).
    case incapableTerminal(String)
    /// ncurses failed to start for another reason.
    case initialisationFailed(String)

    /// A message for the user; the program adds its own non-interactive alternative.
    public var description: String {
        switch self {
        case .notATerminal:
            return "the explorer needs a terminal: standard input and output must be a tty."
        case .unknownTerminal(let term):
            return "unknown terminal type '\(term)' (set TERM to one the terminfo database knows, "
                + "such as xterm-256color)."
        case .incapableTerminal(let term):
            return "terminal type '\(term)' cannot position the cursor, which the explorer needs."
        case .initialisationFailed(let reason):
            return "could not start the terminal UI: \(reason)."
        }
    }
}
