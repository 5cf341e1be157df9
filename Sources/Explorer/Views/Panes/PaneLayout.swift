import ExplorerState
import TermUI
import TrustCore

// Where the panes go for each terminal size, and the one-pane layout's strip.
extension Renderer {
    /// Where each visible pane goes in `main` (and the one-pane layout's strip).
    func paneAreas(_ main: Rect) -> (areas: [(AppState.Pane, Rect)], strip: Rect?) {
        if let areas = compareAreas(main) { return (areas, nil) }
        switch ExplorerView.Layout(width: main.width, height: main.height + 4) {
        case .fourPanes:
            // Targets as wide as the widest name (scenario names are never cut), gone when there
            // is only one; the chain pane as tall as the chain.
            let targetsWidth = showsTargets ? min(self.targetsWidth, main.width / 4) : 0
            let columns = main.split(horizontal: [.length(targetsWidth), .percentage(42), .fill])
            let middle = columns[1].split(vertical: [.length(chainHeight(max: main.height / 2)), .fill])
            var out: [(AppState.Pane, Rect)] = []
            if targetsWidth > 0 { out.append((.targets, columns[0])) }
            out += [(.chain, middle[0]), (.detail, middle[1]), (.steps, columns[2])]
            return (out, nil)
        case .twoPanes:
            // The chain (under the targets) on the left; the steps on the right, or the detail
            // once it has focus (Enter on a certificate or a step).
            let columns = main.split(horizontal: [.percentage(40), .fill])
            if state.walk != nil {
                // Walking through: the steps revealed so far beside the current one's evidence.
                return ([(.steps, columns[0]), (.detail, columns[1])], nil)
            }
            var out: [(AppState.Pane, Rect)] = []
            var left = columns[0]
            if showsTargets {
                let height = min(state.targets.count + 2, max(4, left.height / 3))
                let parts = left.split(vertical: [.length(height), .fill])
                out.append((.targets, parts[0]))
                left = parts[1]
            }
            out.append((.chain, left))
            // Without an evaluation (the connection failed) the steps pane would be empty: the
            // detail takes its place, with the failure in full.
            // So does an unavailable lab scenario's: the Detail says why it is not served.
            let noSteps =
                state.evaluation == nil && (state.connection?.failure != nil || state.target?.unavailable != nil)
            out.append((state.focus == .detail || noSteps ? .detail : .steps, columns[1]))
            return (out, nil)
        case .onePane:
            let parts = main.split(vertical: [.length(1), .fill])
            return ([(state.focus, parts[1])], parts[0])
        }
    }

    /// Whether the targets pane is drawn: not for a single target unless it has focus.
    var showsTargets: Bool { state.targets.count > 1 || state.isLab || state.focus == .targets }

    /// The targets pane's width: the widest name, its mark and the pointer, and the borders.
    var targetsWidth: Int {
        let widest = state.targets.map { displayWidth(of: clean($0.name)) }.max() ?? 10
        return max(widest, 12) + 6 + (state.markedTarget == nil ? 0 : 2)
    }

    /// The chain pane's height: its rows and two headings inside the borders, at most `max`.
    func chainHeight(max limit: Int) -> Int {
        let served = servedFindings.count
        let rows = state.chainRows.count + (served > 0 ? served + 1 : 0)
        return max(4, min(rows + (rows > 0 ? 4 : 2), limit))
    }

    /// The one-pane layout's strip labels, in order.
    var stripLabels: [(AppState.Pane, String)] {
        var out: [(AppState.Pane, String)] = []
        for pane in AppState.Pane.allCases {
            if pane == .targets && !showsTargets { continue }
            out.append((pane, " \(pane.rawValue + 1) \(pane == .targets && state.isLab ? "Scenarios" : pane.title) "))
        }
        return out
    }

    /// The one-pane layout's strip: every pane with its key, the focused one highlighted.
    func paneStrip(_ buffer: inout Buffer, _ area: Rect, _ layout: inout FrameLayout) {
        var x = area.x
        for (pane, label) in stripLabels {
            let style = pane == state.focus ? theme[.selection] : theme[.label]
            let width = displayWidth(of: label)
            guard x + width <= area.right else { break }
            layout.strip.append(.init(pane: pane, area: Rect(x: x, y: area.y, width: width, height: 1)))
            x += buffer.set(x: x, y: area.y, string: label, style: style)
            x += 1
        }
    }
}
