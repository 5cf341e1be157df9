import TermUI

/// What one frame laid out: where each pane went, where each list was scrolled and which item
/// each of its rows showed, and how much of the detail and the help fit.
///
/// `ExplorerView.render` returns it (ratatui's stateful widgets hand their state back the same
/// way). The driver keeps the last one to resolve the mouse against what the user saw, and hands
/// it to the state as one action (`Action.frameLaid`), so a list keeps its scroll position
/// between frames and the detail's End is its last wrapped line. Nothing lays a frame out twice.
public struct FrameLayout: Hashable, Sendable {
    /// One pane as the frame drew it.
    public struct PaneArea: Hashable, Sendable {
        /// The pane.
        public var pane: AppState.Pane
        /// Its area, borders included.
        public var area: Rect
        /// Its area inside the borders.
        public var inner: Rect
        /// For each visible row inside the borders, top first, the item of the pane's selection
        /// it showed (`selectedTarget`, `selectedCertificate`, `selectedStep`); nil for a
        /// heading or a placeholder. Empty for a pane that is no selectable list.
        public var rows: [Int?]

        /// Creates a pane's layout.
        public init(pane: AppState.Pane, area: Rect, inner: Rect, rows: [Int?] = []) {
            self.pane = pane
            self.area = area
            self.inner = inner
            self.rows = rows
        }
    }

    /// A label of the one-pane layout's strip, which focuses its pane when clicked.
    public struct StripLabel: Hashable, Sendable {
        /// The pane it names.
        public var pane: AppState.Pane
        /// Where it was drawn.
        public var area: Rect

        /// Creates a label's layout.
        public init(pane: AppState.Pane, area: Rect) {
            self.pane = pane
            self.area = area
        }
    }

    /// The panes drawn, in drawing order.
    public var panes: [PaneArea]
    /// The strip's labels (the one-pane layout only).
    public var strip: [StripLabel]
    /// The first visible line of each list drawn, to be the next frame's starting offset.
    public var listOffsets: [AppState.Pane: Int]
    /// The detail pane's wrapped size, when it is shown.
    public var detail: Viewport?
    /// The help overlay's size, when it is shown.
    public var help: Viewport?
    /// The first line the Detail pane showed, when the frame chose it (a walk-through's
    /// evidence), so the state's scroll continues from there.
    public var detailScroll: Int?

    /// Creates a layout (an empty one is what a too-small window lays out).
    public init(
        panes: [PaneArea] = [], strip: [StripLabel] = [], listOffsets: [AppState.Pane: Int] = [:],
        detail: Viewport? = nil, help: Viewport? = nil
    ) {
        self.panes = panes
        self.strip = strip
        self.listOffsets = listOffsets
        self.detail = detail
        self.help = help
    }

    /// What was under the cell (`x`, `y`) in this frame: a pane and, on a list's row, the item
    /// that row showed; nil outside the panes (the bottom lines, the strip between labels).
    public func hitTest(x: Int, y: Int) -> PointerTarget? {
        if let label = strip.first(where: { $0.area.contains(x: x, y: y) }) {
            return PointerTarget(pane: label.pane, row: nil)
        }
        // The last drawn is on top.
        guard let hit = panes.last(where: { $0.area.contains(x: x, y: y) }) else { return nil }
        guard hit.inner.contains(x: x, y: y) else { return PointerTarget(pane: hit.pane, row: nil) }
        let row = y - hit.inner.y
        return PointerTarget(pane: hit.pane, row: hit.rows.indices.contains(row) ? hit.rows[row] : nil)
    }

    /// The rows of a list scrolled to `first` in `height` rows: the items of `rowOfItem` shown.
    package static func visibleRows(_ rowOfItem: [Int?], first: Int, height: Int) -> [Int?] {
        Array(rowOfItem.dropFirst(first).prefix(max(0, height)))
    }
}
