import ExplorerState
import TermUI
import TrustCore
import TrustReport
import TrustSupport
import TrustX509

/// How to draw: colours, symbols and the keymap the help is generated from.
public struct ViewOptions: Sendable {
    /// The style of each role.
    public var theme: Theme
    /// Unicode box drawing and marks, or ASCII for terminals whose locale is not UTF-8.
    public var symbols: Symbols
    /// The live keymap: the help bar and overlay are generated from it.
    public var keymap: Keymap

    /// Creates options.
    public init(theme: Theme = .standard, symbols: Symbols = .unicode, keymap: Keymap = .standard) {
        self.theme = theme
        self.symbols = symbols
        self.keymap = keymap
    }
}

/// Renders an `AppState` into a buffer: scenarios on the left, the chain and the detail pane in
/// the middle, the steps on the right, and at the bottom the verdict, the settings, what the
/// last toggle changed and the key hints.
public enum ExplorerView {
    /// Below this size the panes cannot show a certificate or a step legibly.
    public static let minimumWidth = 60
    /// Below this height the panes cannot show a certificate or a step legibly.
    public static let minimumHeight = 16

    /// Draws the whole screen and returns what it laid out: the one layout of the frame, which
    /// the driver keeps for the mouse and hands back to the state.
    /// - Parameters:
    ///   - state: What to show.
    ///   - buffer: The frame.
    ///   - area: The screen's area.
    ///   - options: Theme, symbols and keymap.
    /// - Returns: The panes' areas, the lists' offsets and row maps, the detail's and help's sizes.
    @discardableResult
    public static func render(_ state: AppState, into buffer: inout Buffer, area: Rect, options: ViewOptions)
        -> FrameLayout
    {
        let r = Renderer(state: state, options: options)
        var layout = FrameLayout()
        // The theme's screen colours lie under everything drawn (a theme with a background of its
        // own reads the same on a dark and a light terminal).
        defer { buffer.setBaseStyle(area, options.theme[.screen]) }
        guard area.width >= minimumWidth && area.height >= minimumHeight else {
            r.tooSmall(&buffer, area)
            return layout
        }
        // The time prompt's timeline strip takes a line from the panes while the prompt is open.
        let rows = area.split(vertical: [.fill, .length(state.showsTimelineStrip ? 5 : 4)])
        let main = rows[0]
        let panes = r.paneAreas(main)
        if let strip = panes.strip { r.paneStrip(&buffer, strip, &layout) }
        for (pane, rect) in panes.areas {
            switch pane {
            case .targets: r.targets(&buffer, rect, &layout)
            case .chain: r.chain(&buffer, rect, &layout)
            case .steps: r.steps(&buffer, rect, &layout)
            case .detail: r.detail(&buffer, rect, &layout)
            }
        }
        r.bottom(&buffer, rows[1])
        // Overlays cover the panes, never the verdict and settings below them.
        if let overlay = state.overlay { r.textOverlay(overlay, &buffer, main) }
        if state.showHelp { layout.help = r.help(&buffer, main) }
        return layout
    }

    /// The layout of a frame drawn at `width` x `height`, for tests and the benchmark (the
    /// driver keeps the one `render` returned).
    public static func layout(_ state: AppState, width: Int, height: Int, options: ViewOptions = ViewOptions())
        -> FrameLayout
    {
        var buffer = Buffer(width: width, height: height)
        return render(state, into: &buffer, area: buffer.area, options: options)
    }

    /// How the panes are arranged for a terminal size.
    public enum Layout: Sendable, Equatable {
        /// Targets, chain, detail and steps side by side (160x45 and larger).
        case fourPanes
        /// The chain and the steps, the detail swapping in (about 80x24 to 160x45).
        case twoPanes
        /// One pane at a time under a strip naming them (about 60x16).
        case onePane

        /// The layout for `width` x `height` cells (at least the minimum size).
        public init(width: Int, height: Int) {
            if width >= 160 && height >= 40 {
                self = .fourPanes
            } else if width >= 80 && height >= 22 {
                self = .twoPanes
            } else {
                self = .onePane
            }
        }
    }

    /// The frame as text lines, for tests and the benchmark.
    /// - Parameters:
    ///   - state: What to show.
    ///   - width: Columns.
    ///   - height: Rows.
    ///   - options: Theme, symbols and keymap.
    /// - Returns: One string per row.
    public static func lines(_ state: AppState, width: Int, height: Int, options: ViewOptions = ViewOptions())
        -> [String]
    {
        var buffer = Buffer(width: width, height: height)
        render(state, into: &buffer, area: buffer.area, options: options)
        return buffer.lines()
    }
}
