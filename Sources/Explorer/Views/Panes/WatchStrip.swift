import ExplorerState
import TermUI
import TrustSupport

// A watched target's row in the Targets pane: its name, the watch indicator and the history
// strip, one cell per round, newest on the right.
extension Renderer {
    /// The strip's glyph for a round: `·` unchanged, `●` changed, `✗` failed (`.`, `*`, `x`
    /// without UTF-8).
    func watchGlyph(_ cell: TargetWatch.Cell) -> Span {
        switch cell {
        case .unchanged: Span(unicode ? "·" : ".", style: theme[.stepNotApplicable])
        case .changed: Span(unicode ? "●" : "*", style: theme[.changed])
        case .failed: Span(sym.cross, style: theme[.stepFailed])
        }
    }

    /// The indicator before the strip of a running watch: `↻` (`@` without UTF-8).
    var watchIndicator: String { unicode ? "↻" : "@" }

    /// The label of target `index` within `width` cells: its name, and for a watched target the
    /// indicator and as many of the newest rounds as fit (the name gives way down to half the
    /// width, then the strip does).
    func targetLabel(_ index: Int, _ name: String, width: Int) -> [Span] {
        guard let watch = state.watches[index] else { return [span(name)] }
        let text = clean(name)
        let nameWidth = displayWidth(of: text)
        // The name, a space, the indicator, a space, then the cells.
        let room = max(0, width - 3)
        let cells = Self.stripCells(watch.cells, room: room, nameWidth: nameWidth)
        let shownName =
            nameWidth + cells.count <= room ? text : Self.fit(text, max(1, room - cells.count), unicode: unicode)
        // A stopped watch keeps its strip; the indicator says whether it still runs.
        let indicator = watch.isActive ? Span(watchIndicator, style: theme[.changed]) : Span(" ")
        var spans = [Span(shownName), Span(" "), indicator]
        if !cells.isEmpty { spans.append(Span(" ")) }
        return spans + cells.map { watchGlyph($0) }
    }

    /// The newest cells that fit `room` cells beside a name `nameWidth` wide: all the room the
    /// name leaves, but at least half of it when the name is long.
    static func stripCells(_ cells: [TargetWatch.Cell], room: Int, nameWidth: Int) -> [TargetWatch.Cell] {
        let budget = max(room - nameWidth, room / 2, 0)
        return Array(cells.suffix(budget))
    }
}
