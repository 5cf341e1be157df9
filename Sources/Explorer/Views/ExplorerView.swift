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

    /// Draws the whole screen.
    /// - Parameters:
    ///   - state: What to show.
    ///   - buffer: The frame.
    ///   - area: The screen's area.
    ///   - options: Theme, symbols and keymap.
    public static func render(_ state: AppState, into buffer: inout Buffer, area: Rect, options: ViewOptions) {
        let r = Renderer(state: state, options: options)
        guard area.width >= minimumWidth && area.height >= minimumHeight else {
            r.tooSmall(&buffer, area)
            return
        }
        let rows = area.split(vertical: [.fill, .length(4)])
        let main = rows[0]
        let panes = r.paneAreas(main)
        if let strip = panes.strip { r.paneStrip(&buffer, strip) }
        for (pane, rect) in panes.areas {
            switch pane {
            case .targets: r.targets(&buffer, rect)
            case .chain: r.chain(&buffer, rect)
            case .steps: r.steps(&buffer, rect)
            case .detail: r.detail(&buffer, rect)
            }
        }
        r.bottom(&buffer, rows[1])
        // Overlays cover the panes, never the verdict and settings below them.
        if let overlay = state.overlay { r.textOverlay(overlay, &buffer, main) }
        if state.showHelp { r.help(&buffer, main) }
    }

    /// Where each list is scrolled and how the detail wraps at this size, as the frame drew
    /// them: the driver hands them back to `reduce` (ratatui's stateful widgets), so a list keeps
    /// its scroll position between frames and the detail's End is its last wrapped line.
    public static func metrics(_ state: AppState, width: Int, height: Int, options: ViewOptions = ViewOptions())
        -> PaneMetrics
    {
        var out = PaneMetrics()
        guard width >= minimumWidth && height >= minimumHeight else { return out }
        let r = Renderer(state: state, options: options)
        let main = Rect(x: 0, y: 0, width: width, height: height).split(vertical: [.fill, .length(4)])[0]
        if state.showHelp {
            let (box, lines) = r.helpLayout(main)
            out.help = Viewport(lines: lines.count, height: Block(symbols: r.sym).inner(box).height)
        }
        for (pane, rect) in r.paneAreas(main).areas {
            let inner = r.block("", focused: false).inner(rect)
            switch pane {
            case .detail:
                out.detail = Viewport(lines: r.detailLines(width: inner.width).count, height: inner.height)
            case .targets:
                let items = state.targets.map { _ in Line("") }
                out.listOffsets[pane] = ListView(
                    items, selected: state.selectedTarget, offset: state.listOffsets[pane] ?? 0
                ).scrollOffset(height: inner.height)
            case .chain:
                let list = r.chainList()
                out.listOffsets[pane] = ListView(
                    list.items, selected: list.selectedItem, offset: state.listOffsets[pane] ?? 0
                ).scrollOffset(height: inner.height)
            case .steps:
                guard state.walk == nil, let e = state.evaluation else { continue }
                let list = r.stepList(e, width: rect.width)
                out.listOffsets[pane] = ListView(
                    list.items, selected: list.selectedItem, offset: state.listOffsets[pane] ?? 0
                ).scrollOffset(height: inner.height)
            }
        }
        return out
    }

    /// What is under the cell (`x`, `y`): a pane and, in a list, the row there (in the same
    /// numbering as the state's selections); nil outside the panes.
    public static func hitTest(
        _ state: AppState, width: Int, height: Int, x: Int, y: Int, options: ViewOptions = ViewOptions()
    ) -> PointerTarget? {
        guard width >= minimumWidth && height >= minimumHeight else { return nil }
        let r = Renderer(state: state, options: options)
        let main = Rect(x: 0, y: 0, width: width, height: height).split(vertical: [.fill, .length(4)])[0]
        let panes = r.paneAreas(main)
        if let strip = panes.strip, y == strip.y {
            var left = strip.x
            for (pane, label) in r.stripLabels {
                let w = displayWidth(of: label)
                if x >= left && x < left + w { return PointerTarget(pane: pane, row: nil) }
                left += w + 1
            }
            return nil
        }
        var hit: (pane: AppState.Pane, rect: Rect)?
        for (pane, rect) in panes.areas where rect.contains(x: x, y: y) { hit = (pane, rect) }
        guard let hit else { return nil }
        let inner = r.block("", focused: false).inner(hit.rect)
        guard inner.contains(x: x, y: y) else { return PointerTarget(pane: hit.pane, row: nil) }
        var items: [Line] = []
        var rowOfItem: [Int?] = []
        var selectedItem: Int?
        switch hit.pane {
        case .targets:
            for i in state.targets.indices {
                items.append(Line(""))
                rowOfItem.append(i)
            }
            selectedItem = state.selectedTarget
        case .chain:
            (items, rowOfItem, selectedItem) = r.chainList()
        case .steps:
            guard state.walk == nil, let e = state.evaluation else { return PointerTarget(pane: hit.pane, row: nil) }
            (items, rowOfItem, selectedItem) = r.stepList(e, width: hit.rect.width)
        case .detail:
            return PointerTarget(pane: hit.pane, row: nil)
        }
        let first = ListView(items, selected: selectedItem, offset: state.listOffsets[hit.pane] ?? 0)
            .scrollOffset(height: inner.height)
        let item = first + (y - inner.y)
        guard rowOfItem.indices.contains(item) else { return PointerTarget(pane: hit.pane, row: nil) }
        return PointerTarget(pane: hit.pane, row: rowOfItem[item])
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

/// The drawing of one frame.
struct Renderer {
    let state: AppState
    let options: ViewOptions

    var theme: Theme { options.theme }
    var sym: Symbols { options.symbols }
    var unicode: Bool { options.symbols == .unicode }

    /// Every string drawn passes here: text from certificates and servers is already sanitised
    /// where it is produced, and this catches anything else (and escapes non-ASCII for terminals
    /// whose locale is not UTF-8).
    func clean(_ text: String) -> String {
        unicode
            ? TerminalSanitizer.sanitize(text) : TerminalSanitizer.sanitize(TextReport.asciiFold(text), asciiOnly: true)
    }

    func span(_ text: String, _ role: ThemeRole? = nil) -> Span {
        Span(clean(text), style: role.map { theme[$0] } ?? .plain)
    }

    func block(_ title: String, focused: Bool) -> Block {
        Block(
            title: Line([Span(clean(title), style: theme[.title])]), borderStyle: theme[.border],
            focusedStyle: theme[.title].patched(with: Style(foreground: theme[.changed].foreground)),
            isFocused: focused, symbols: sym)
    }

    /// The selection is drawn in full in the pane that has focus (or feeds the detail pane);
    /// elsewhere only the pointer shows it.
    func highlight(_ active: Bool) -> Style { active ? theme[.selection] : .plain }

    func symbol(_ status: StepStatus) -> Span {
        switch status {
        case .passed: Span(sym.check, style: theme[.stepPassed])
        case .failed: Span(sym.cross, style: theme[.stepFailed])
        case .skipped: Span(sym.bullet, style: theme[.stepSkipped])
        case .notApplicable: Span(sym.dash, style: theme[.stepNotApplicable])
        }
    }

    // MARK: panes

    /// Where each visible pane goes in `main` (and the one-pane layout's strip).
    func paneAreas(_ main: Rect) -> (areas: [(AppState.Pane, Rect)], strip: Rect?) {
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
            let noSteps = state.evaluation == nil && state.connection?.failure != nil
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
        return max(widest, 12) + 6
    }

    /// The chain pane's height: its rows and two headings inside the borders, at most `max`.
    func chainHeight(max limit: Int) -> Int {
        let rows = state.chainRows.count
        return max(4, min(rows + (rows > 0 ? 4 : 2), limit))
    }

    /// `text` cut to `width` cells with an ellipsis, or padded to it.
    static func fit(_ text: String, _ width: Int, unicode: Bool) -> String {
        guard displayWidth(of: text) > width else { return text.padding(to: width) }
        var out = ""
        for c in text {
            if displayWidth(of: out + String(c)) > width - 1 { break }
            out.append(c)
        }
        return out + (unicode ? "…" : "~")
    }

    /// The first of `candidates` (longest first) that fits `width` cells; when none does, the
    /// shortest with whole words dropped from its end: a smaller terminal gets a shorter form,
    /// never a cut word.
    func fitting(_ candidates: [Line], width: Int) -> Line {
        if let line = candidates.first(where: { $0.width <= width }) { return line }
        return fitWords(candidates.last ?? Line(""), width: width)
    }

    /// `line` with whole words dropped from its end, and an ellipsis, until it fits `width`.
    func fitWords(_ line: Line, width: Int) -> Line {
        guard line.width > width else { return line }
        let ellipsis = Span(unicode ? "…" : "~", style: theme[.label])
        var spans = line.spans
        while !spans.isEmpty, Line(spans).width + ellipsis.width > width {
            var text = spans[spans.count - 1].text
            while text.last == " " { text.removeLast() }
            if let space = text.lastIndex(of: " ") {
                text = String(text[..<space])
                while text.last == " " { text.removeLast() }
            } else {
                text = ""
            }
            // A lone separator left at the end goes with the word it introduced.
            for tail in [" ·", " |", ":", ","] where text.hasSuffix(tail) { text.removeLast(tail.count) }
            if text.isEmpty { spans.removeLast() } else { spans[spans.count - 1].text = text }
        }
        return Line(spans + [ellipsis])
    }

    /// A pane title: the first of `candidates` that fits inside the borders of `area`.
    func title(_ candidates: [String], _ area: Rect) -> String {
        candidates.first { displayWidth(of: clean($0)) <= area.width - 2 } ?? candidates.last ?? ""
    }

    /// ` 12/33` for a selection in a list, empty for an empty list.
    func position(_ selected: Int, _ count: Int) -> String { count > 1 ? " \(selected + 1)/\(count)" : "" }

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
    func paneStrip(_ buffer: inout Buffer, _ area: Rect) {
        var x = area.x
        for (pane, label) in stripLabels {
            let style = pane == state.focus ? theme[.selection] : theme[.label]
            guard x + displayWidth(of: label) <= area.right else { break }
            x += buffer.set(x: x, y: area.y, string: label, style: style)
            x += 1
        }
    }

    func targets(_ buffer: inout Buffer, _ area: Rect) {
        var title = state.isLab ? "Scenarios" : "Targets"
        switch state.lab {
        case .starting: title += " (starting lab...)"
        case .failed: title += " (lab failed)"
        default: break
        }
        let items = state.targets.indices.map { i -> Line in
            // The mark is the target's verdict under the current settings; a target not
            // evaluated under them yet shows a dot.
            let mark: Span
            if let m = state.marks[i], m.toggles == state.toggles, !(state.verdictHidden && i == state.selectedTarget) {
                mark =
                    m.outcome == .trusted
                    ? Span(sym.check, style: theme[.stepPassed]) : Span(sym.cross, style: theme[.stepFailed])
            } else {
                mark = Span(sym.bullet, style: theme[.stepNotApplicable])
            }
            return Line([mark, Span(" "), span(state.targets[i].name)])
        }
        var list = ListView(
            items, selected: state.targets.isEmpty ? nil : state.selectedTarget,
            offset: state.listOffsets[.targets] ?? 0,
            highlightStyle: highlight(state.focus == .targets),
            block: block(
                "1 " + title + position(state.selectedTarget, state.targets.count), focused: state.focus == .targets),
            symbols: sym)
        if items.isEmpty {
            list.items = [Line([span(state.lab == .starting ? "starting..." : "nothing to explore", .label)])]
            list.selected = nil
        }
        list.render(into: &buffer, area: area)
    }

    func chain(_ buffer: inout Buffer, _ area: Rect) {
        let rows = state.chainRows
        var titles = ["2 Chain"]
        if let e = state.evaluation {
            let where_ = position(state.selectedCertificate, state.chainRows.count)
            let changed = state.change?.pathChanged == true ? " changed" : ""
            let counts = "\(e.path.certificates.count) in path, \(e.presented.count) \(sentWord)"
            titles = [
                "2 Chain (\(counts))\(changed)\(where_)",
                "2 Chain (\(e.path.certificates.count) path, \(e.presented.count) \(sentWord))\(changed)\(where_)",
                "2 Chain\(changed)\(where_)", "2 Chain\(where_)", "2 Chain",
            ]
        }
        let (items, _, selectedRow) = chainList()
        var list = ListView(
            items, selected: selectedRow, offset: state.listOffsets[.chain] ?? 0,
            highlightStyle: highlight(state.focus == .chain || state.detailSubject == .chain),
            block: block(title(titles, area), focused: state.focus == .chain), symbols: sym)
        if rows.isEmpty {
            // Wrapped, not cut: the reason reads in full however narrow the pane.
            let width = max(1, area.width - 4)
            list.items = wrap(placeholder, width: width).map { Line([span($0, .label)]) }
        }
        list.render(into: &buffer, area: area)
    }

    /// The chain pane's lines: headings and certificate rows; for each line the chain row it
    /// shows (nil for a heading), and the selected line.
    func chainList() -> (items: [Line], rowOfItem: [Int?], selectedItem: Int?) {
        let anchors = Set(state.effectiveAnchors.map(\.certificate))
        let pins = Set(state.toggles.pins.map { DigestKey($0) })
        var items: [Line] = []
        var rowOfItem: [Int?] = []
        var selectedRow: Int?
        var section: ChainRow.Section?
        for (n, row) in state.chainRows.enumerated() {
            if section != row.section {
                section = row.section
                items.append(Line([span(row.section == .path ? "Path as built" : "Chain as \(sentWord)", .title)]))
                rowOfItem.append(nil)
            }
            if n == state.selectedCertificate { selectedRow = items.count }
            let index = row.section == .path ? "[\(row.index)]" : "#\(row.index)"
            var line = Line([span(index, .label), Span(" "), span(row.certificate.displayName)])
            // What the user made of this certificate: an anchor, a pin.
            if anchors.contains(row.certificate) { line.spans.append(span(" anchor", .changed)) }
            if pins.contains(row.certificate.keyIdentity) { line.spans.append(span(" pinned", .changed)) }
            line.spans.append(span("  \(row.source)", .label))
            items.append(line)
            rowOfItem.append(n)
        }
        return (items, rowOfItem, selectedRow)
    }

    /// "sent" for a server's chain, "read" for files.
    var sentWord: String { state.targetIsServer ? "sent" : "read" }

    var placeholder: String {
        if state.lab == .starting { return "starting the lab..." }
        switch state.chain {
        case .connecting: return "connecting..."
        case .ready(let r) where r.chain.isEmpty:
            return "no chain: the connection failed; the Detail pane (4) says why"
        default: return state.isBusy ? "evaluating..." : ""
        }
    }

    func steps(_ buffer: inout Buffer, _ area: Rect) {
        guard let e = state.evaluation else {
            block("3 Steps", focused: state.focus == .steps).render(into: &buffer, area: area)
            return
        }
        if let n = state.walk {
            walkSteps(e, revealed: n, &buffer, area)
            return
        }
        if state.verdictHidden {
            // The steps would give the answer away before the room has voted.
            ListView(
                [Line([span("hidden until the vote: Space reveals", .label)])],
                block: block("3 Steps", focused: state.focus == .steps), symbols: sym
            ).render(into: &buffer, area: area)
            return
        }
        let order = state.stepOrder
        let (items, _, selectedRow) = stepList(e, width: area.width)
        let failed = e.steps.filter { $0.status == .failed }.count
        let where_ = position(state.selectedStep, order.count)
        let titles = [
            "3 Steps (\(e.steps.count), \(failed) failed)" + where_, "3 Steps (\(failed) failed)" + where_,
            "3 Steps" + where_, "3 Steps",
        ]
        ListView(
            items, selected: selectedRow, offset: state.listOffsets[.steps] ?? 0,
            highlightStyle: highlight(state.focus == .steps || state.detailSubject == .steps),
            block: block(title(titles, area), focused: state.focus == .steps), symbols: sym
        ).render(into: &buffer, area: area)
    }

    /// The steps pane's lines: certificate headings and step rows; for each line its row in
    /// `stepOrder` (nil for a heading), and the selected line.
    func stepList(_ e: Evaluation, width: Int) -> (items: [Line], rowOfItem: [Int?], selectedItem: Int?) {
        let order = state.stepOrder
        // The id column gives way to the summary in a narrow pane: the summary carries the
        // failing words (a failed step's title is what it found).
        let idWidth = min(24, e.steps.map { $0.id.rawValue.count }.max() ?? 0, max(8, (width - 8) / 3))
        var items: [Line] = []
        var selectedRow: Int?
        var rowOfItem: [Int?] = []
        var group: Int?? = .none
        for (row, index) in order.enumerated() {
            let step = e.steps[index]
            if group == nil || group! != step.certificate {
                group = .some(step.certificate)
                let heading = step.certificate.map { i in
                    "[\(i)] " + (e.path.certificates.indices.contains(i) ? e.path.certificates[i].displayName : "?")
                }
                items.append(Line([span(heading ?? "Path", .title)]))
                rowOfItem.append(nil)
            }
            if row == state.selectedStep { selectedRow = items.count }
            let changed = state.change?.changedSteps.contains(index) == true
            let id = Renderer.fit(step.id.rawValue, idWidth, unicode: unicode)
            var line = Line([symbol(step.status), Span(" ")])
            line.spans.append(span(id, changed ? .changed : (step.status == .failed ? .stepFailed : nil)))
            let markStyle = changed ? theme[.changed] : Style.plain
            line.spans.append(Span(changed ? (unicode ? " Δ " : " * ") : "   ", style: markStyle))
            line.spans.append(span(step.title, step.status == .notApplicable ? .stepNotApplicable : nil))
            items.append(line)
            rowOfItem.append(row)
        }
        return (items, rowOfItem, selectedRow)
    }

    /// The walk-through's steps: those revealed so far, in the order the evaluator ran them, the
    /// last one selected; the rest are not shown, so the room cannot read ahead.
    func walkSteps(_ e: Evaluation, revealed n: Int, _ buffer: inout Buffer, _ area: Rect) {
        let order = state.walkOrder.prefix(n)
        let idWidth = min(24, e.steps.map { $0.id.rawValue.count }.max() ?? 0, max(8, (area.width - 12) / 3))
        let items = order.map { index -> Line in
            let step = e.steps[index]
            let at = step.certificate.map { "@\($0)" } ?? ""
            return Line([
                symbol(step.status), Span(" "),
                span(
                    Renderer.fit(step.id.rawValue + at, idWidth + 3, unicode: unicode),
                    step.status == .failed ? .stepFailed : nil),
                Span(" "), span(step.title, step.status == .notApplicable ? .stepNotApplicable : nil),
            ])
        }
        ListView(
            Array(items), selected: items.count - 1, highlightStyle: theme[.selection],
            block: block(
                title(
                    [
                        "3 Walk-through: step \(n) of \(e.steps.count)", "3 Walk: step \(n) of \(e.steps.count)",
                        "3 step \(n)/\(e.steps.count)",
                    ], area), focused: true), symbols: sym
        ).render(into: &buffer, area: area)
    }

    func detail(_ buffer: inout Buffer, _ area: Rect) {
        let inner = block("", focused: false).inner(area)
        let lines = inner.isEmpty ? [] : detailLines(width: inner.width)
        let scroll = max(0, min(state.detailScroll, lines.count - inner.height))
        // Where the pane is in its text, when it does not all fit: `lines 12-30/80`.
        let where_ =
            lines.count > inner.height ? " \(scroll + 1)-\(min(scroll + inner.height, lines.count))/\(lines.count)" : ""
        let b = block(
            title(["4 " + DetailContent.title(state) + where_, "4 Detail" + where_, "4 Detail"], area),
            focused: state.focus == .detail)
        b.render(into: &buffer, area: area)
        guard !inner.isEmpty else { return }
        for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            buffer.set(x: inner.x, y: inner.y + row, line: line, maxWidth: inner.width)
        }
    }

    /// The detail lines wrapped to `width`: field values wrap under themselves.
    func detailLines(width: Int) -> [Line] {
        let labelWidth = 14
        var out: [Line] = []
        for d in DetailContent.lines(state) {
            let indent = String(repeating: " ", count: d.indent)
            switch d.kind {
            case .heading:
                out.append(Line([Span(indent), span(d.text, d.lit ? .changed : .title)]))
            case .text:
                for piece in wrap(clean(d.text), width: width - d.indent) {
                    out.append(Line([Span(indent), Span(piece, style: d.lit ? theme[.changed] : .plain)]))
                }
            case .status(let status):
                let role: ThemeRole =
                    switch status {
                    case .passed: .stepPassed
                    case .failed: .stepFailed
                    case .skipped: .stepSkipped
                    case .notApplicable: .stepNotApplicable
                    }
                for (i, piece) in wrap(clean(d.text), width: width - d.indent - 2).enumerated() {
                    out.append(Line([Span(indent), i == 0 ? symbol(status) : Span(" "), Span(" "), span(piece, role)]))
                }
            case .field(let label):
                let labelCells = max(labelWidth - d.indent, displayWidth(of: label) + 1)
                let value = clean(d.text)
                // A pin or a fingerprint (one token, no spaces) that does not fit beside its
                // label gets the next line to itself from the left edge, so it is copied whole.
                if !value.contains(" ") && !value.contains(":")
                    && displayWidth(of: value) > width - d.indent - labelCells
                {
                    // A pin keeps its scheme beside the label when the digest alone fits (trustx
                    // check takes the bare base64 too).
                    let scheme = value.hasPrefix("sha256//") && displayWidth(of: value) > width ? "sha256//" : ""
                    let token = String(value.dropFirst(scheme.count))
                    if displayWidth(of: token) <= width {
                        out.append(
                            Line([
                                Span(indent), span(clean(label).padding(to: labelCells), d.lit ? .changed : .label),
                                Span(scheme),
                            ]))
                        out.append(Line([Span(token, style: d.lit ? theme[.changed] : .plain)]))
                        continue
                    }
                }
                let pad = String(repeating: " ", count: d.indent + labelCells)
                let pieces = wrap(value, width: width - d.indent - labelCells)
                let valueStyle = d.lit ? theme[.changed] : Style.plain
                let mark = Span(d.lit ? (unicode ? "▸" : ">") : "", style: theme[.changed])
                for (i, piece) in pieces.enumerated() {
                    if i == 0 {
                        out.append(
                            Line([
                                Span(indent), span(clean(label).padding(to: labelCells), d.lit ? .changed : .label),
                                Span(piece, style: valueStyle), mark,
                            ]))
                    } else {
                        out.append(Line([Span(pad), Span(piece, style: valueStyle)]))
                    }
                }
            }
        }
        return out
    }

    /// TermUI's word wrap: spaces, then hex at byte boundaries, then inside a word too long.
    func wrap(_ text: String, width: Int) -> [String] { wrapText(text, width: width) }

    // MARK: bottom bar

    func bottom(_ buffer: inout Buffer, _ area: Rect) {
        let rows = area.split(vertical: [.length(1), .length(1), .length(1), .length(1)])
        buffer.set(x: rows[0].x, y: rows[0].y, line: verdictLine(width: rows[0].width), maxWidth: rows[0].width)
        buffer.set(
            x: rows[1].x, y: rows[1].y, line: settingsLine(width: rows[1].width), maxWidth: rows[1].width)
        if let prompt = state.prompt {
            buffer.set(
                x: rows[2].x, y: rows[2].y, line: fitWords(promptStatus(prompt), width: rows[2].width),
                maxWidth: rows[2].width)
            buffer.set(
                x: rows[3].x, y: rows[3].y, line: promptLine(prompt, width: rows[3].width), maxWidth: rows[3].width)
        } else {
            buffer.set(
                x: rows[2].x, y: rows[2].y, line: fitWords(changeLine, width: rows[2].width), maxWidth: rows[2].width)
            hintBar(&buffer, rows[3])
        }
    }

    /// The help bar: as many whole hints as fit, dimmed where the key does nothing here. When
    /// all do not fit, keys for another pane's selection go first, then the spacing and the
    /// words get shorter.
    func hintBar(_ buffer: inout Buffer, _ area: Rect) {
        let all = options.keymap.hints(for: state, unicode: unicode)
        let here = all.filter { !$0.elsewhere }
        func width(_ hints: [HintItem], gap: Int, short: Bool) -> Int {
            hints.reduce(gap * max(0, hints.count - 1)) { total, h in
                total + displayWidth(of: clean(h.key)) + 1 + displayWidth(of: clean(short ? h.shortAction : h.action))
            }
        }
        let forms = [(all, 2, false), (here, 2, false), (here, 2, true), (here, 1, true)]
        let (hints, gap, short) = forms.first { width($0.0, gap: $0.1, short: $0.2) <= area.width } ?? forms[3]
        var x = area.x
        for (i, hint) in hints.enumerated() {
            let key = clean(hint.key)
            let action = clean(short ? hint.shortAction : hint.action)
            let lead = i == 0 ? 0 : gap
            let width = lead + displayWidth(of: key) + 1 + displayWidth(of: action)
            guard x + width <= area.right else { break }
            x += lead
            let keyStyle = hint.enabled ? theme[.key] : theme[.stepNotApplicable]
            x += buffer.set(x: x, y: area.y, string: key, style: keyStyle)
            x += buffer.set(
                x: x, y: area.y, string: " " + action, style: hint.enabled ? theme[.label] : theme[.stepNotApplicable])
        }
    }

    /// The text being typed, with a cursor; the tail is kept visible when it is long.
    func promptLine(_ p: Prompt, width: Int) -> Line {
        let label = p.kind.label + ": "
        let help = "  Enter ok  Esc cancel" + (p.kind == .host || p.kind.completesPaths ? "  Tab complete" : "")
        var text = clean(p.text)
        let room = max(8, width - displayWidth(of: label) - 1 - displayWidth(of: help))
        while displayWidth(of: text) > room { text.removeFirst() }
        return Line([
            span(label, .label), span(text), Span(unicode ? "▏" : "_", style: theme[.key]), span(help, .label),
        ])
    }

    /// Above the prompt: why the text cannot be used, the candidates of the last Tab, or the
    /// verdict the typed value would give.
    func promptStatus(_ p: Prompt) -> Line {
        // Nothing typed is not a mistake yet: the hint says what may be typed.
        if !p.text.isEmpty, let why = state.problem(with: p) {
            return Line([Span(sym.cross + " ", style: theme[.stepFailed]), span(why, .stepFailed)])
        }
        if !p.completions.isEmpty {
            return Line([span("Tab: ", .label), span(p.completions.prefix(12).joined(separator: "  "))])
        }
        if state.predict && p.kind.previews && state.problem(with: p) == nil {
            // Predict mode: the room votes before anything tells them the answer.
            return Line([
                Span("? ", style: theme[.key]),
                span("Enter applies it; predict mode: the verdict is revealed after the vote", .label),
            ])
        }
        if let preview = p.preview {
            let trusted = preview == .trusted
            return Line([
                Span(
                    (trusted ? sym.check : sym.cross) + " ", style: theme[trusted ? .verdictTrusted : .verdictUntrusted]
                ),
                span("Enter gives: ", .label), span(preview.words, trusted ? .verdictTrusted : .verdictUntrusted),
            ])
        }
        return Line([span(p.kind.hint, .label)])
    }

    /// The verdict: on a wide terminal Apple's check, code and URLError; on a narrow one the
    /// code, the URLError and the decisive reason, in shorter forms as the width shrinks (a
    /// reason that does not fit whole is in the Detail pane).
    func verdictLine(width: Int) -> Line {
        fitting(verdictForms(width: width), width: width)
    }

    /// The verdict line's forms, longest first.
    func verdictForms(width: Int) -> [Line] {
        let dot = unicode ? " · " : " | "
        if state.lab == .starting && state.targets.isEmpty {
            return [
                Line([Span(sym.bullet + " ", style: theme[.stepSkipped]), span("Starting the lab on 127.0.0.1...")])
            ]
        }
        if case .failed(let why) = state.lab, state.targets.isEmpty {
            return [
                Line([Span(sym.cross + " ", style: theme[.verdictUntrusted]), span("The lab could not start: \(why)")])
            ]
        }
        let cross = Span(sym.cross + " ", style: theme[.verdictUntrusted])
        guard let e = state.evaluation else {
            if case .ready(let r) = state.chain, let f = r.failure {
                let head = [cross, span("No connection", .verdictUntrusted)]
                let url = f.urlError.map { [span(dot + "URLError \($0) \(URLErrorNames.name($0))")] } ?? []
                let number = f.urlError.map { [span(dot + "URLError \($0)")] } ?? []
                let detail = span(dot + "why: Detail (4)", .label)
                return [
                    Line(head + url + [span(dot + f.message, .label)]), Line(head + url + [detail]),
                    Line(head + number + [detail]), Line(head + number),
                ]
            }
            let what = state.target.map { "Connecting to \($0.location)..." } ?? ""
            return [Line([Span(sym.bullet + " ", style: theme[.stepSkipped]), span(state.isBusy ? what : "")])]
        }
        let v = e.verdict
        if !state.verdictRevealed {
            if let n = state.walk {
                let head = [Span(sym.bullet + " ", style: theme[.key]), span("step \(n) of \(e.steps.count)", .title)]
                let keys = span(dot + "Space/→ next  ← back  Esc ends", .label)
                return [
                    Line(
                        head + [
                            span(dot + "the verdict shows once the step that decides it is revealed", .label), keys,
                        ]),
                    Line(head + [span(dot + "the verdict shows at its deciding step", .label), keys]),
                    Line(head + [keys]), Line(head + [span(dot + "Space next  Esc ends", .label)]),
                ]
            }
            let head = [Span("? ", style: theme[.key]), span("Trusted or not?", .title)]
            return [
                Line(head + [span(dot + "vote, then Space reveals the verdict", .label)]),
                Line(head + [span(dot + "Space reveals", .label)]),
            ]
        }
        let busy = state.isBusy ? [span(dot + "updating...", .label)] : []
        if v.trusted {
            let head = [
                Span(sym.check + " ", style: theme[.verdictTrusted]), span("Trusted", .verdictTrusted),
                span(dot + "errSecSuccess (0)"),
            ]
            let walk = state.walk.map { [span(dot + "step \($0) of \(e.steps.count)", .title)] } ?? []
            let summary = span(dot + v.summary.replacingPrefix("Trusted: "), .label)
            return [
                Line(head + walk + [summary] + busy), fitWords(Line(head + walk + [summary]), width: width),
                Line(head + walk),
            ]
        }
        if width < 110, let step = v.decisiveStep, step.appleFailure != nil {
            // Narrow: the code and the URLError first (they are what a room writes down), then the
            // reason, which the Detail pane also holds.
            var codes: [Span] = []
            if let url = v.urlError { codes.append(span(dot + "URLError \(url)")) }
            if let n = state.walk { codes.append(span(dot + "step \(n) of \(e.steps.count)", .title)) }
            let named = [cross, span("\(v.osstatus) \(v.osstatusName)", .verdictUntrusted)] + codes
            // Shorter: the OSStatus's name goes before the reason does (the Detail pane and the
            // step both name it).
            let bare = [cross, span("\(v.osstatus)", .verdictUntrusted)] + codes
            let reason = span(dot + step.title)
            return [
                Line(named + [reason] + busy), Line(named + [reason]), Line(bare + [reason]),
                fitWords(Line(named + [reason]), width: width), Line(named),
            ]
        }
        var spans: [Span] = []
        if let n = state.walk { spans.append(span("step \(n) of \(e.steps.count)" + dot, .title)) }
        spans.append(cross)
        spans.append(span("Not trusted", .verdictUntrusted))
        if let step = v.decisiveStep, let f = step.appleFailure {
            let where_ = step.certificate.map { "@\($0)" } ?? ""
            spans.append(span(dot + "\(step.id.rawValue)\(where_) \(f.check)"))
            spans.append(span(dot + "\(v.osstatusName) (\(v.osstatus))", .verdictUntrusted))
        } else if let step = v.decisiveStep, let f = step.finding.atsFailure {
            // ATS refuses in the TLS layer, not in SecTrust: its own code, no check key.
            let where_ = step.certificate.map { "@\($0)" } ?? ""
            spans.append(span(dot + "\(step.id.rawValue)\(where_) ATS"))
            if f.osstatus != 0 {
                spans.append(span(dot + "\(OSStatusNames.name(f.osstatus)) (\(f.osstatus))", .verdictUntrusted))
            }
        } else if let failed = e.steps.first(where: { $0.status == .failed }) {
            spans.append(span(dot + "\(failed.id.rawValue): the app's delegate cancels"))
        } else if let f = state.connection?.failure {
            spans.append(span(dot + "evaluation passed; handshake: \(f.kind)"))
        }
        if let url = v.urlError, let name = v.urlErrorName {
            spans.append(span(dot + "URLError \(url) \(name)"))
        }
        let codes = spans
        if let step = v.decisiveStep { spans.append(span(dot + step.title, .label)) }
        return [Line(spans + busy), fitWords(Line(spans), width: width), Line(codes)]
    }

    /// The settings, each with its key; on a narrow terminal the items that do not fit whole
    /// are left out (the most used come first).
    func settingsLine(width: Int) -> Line {
        var spans: [Span] = []
        for item in settingsItems {
            let lead = spans.isEmpty ? [] : [Span("  ")]
            guard Line(spans + lead + item).width <= width else { continue }
            spans += lead + item
        }
        return Line(spans)
    }

    /// The settings line's items.
    var settingsItems: [[Span]] {
        let t = state.toggles
        let start = state.startToggles
        var items: [[Span]] = []
        func item(_ command: Command, _ value: String, _ isDefault: Bool, enabled: Bool = true) {
            let key = options.keymap.binding(for: command)?.keys.first?.label(unicode: unicode) ?? "?"
            let dim = theme[.stepNotApplicable]
            items.append([
                Span(clean(key), style: enabled ? theme[.key] : dim),
                Span(" " + clean(value), style: enabled ? theme[isDefault ? .label : .changed] : dim),
            ])
        }
        let policy: String =
            switch t.policy {
            case .sslWithHost: state.checkedHost.isEmpty ? "SSL(nil: no host)" : "SSL(\(state.checkedHost))"
            case .sslWithoutHost: "SSL(nil)"
            case .basicX509: "Basic X.509"
            }
        item(.cyclePolicy, policy, t.policy == start.policy && t.host == start.host)
        let anchors = state.effectiveAnchors
        let anchorText: String
        if anchors.isEmpty {
            anchorText = "system roots"
        } else {
            let n = anchors.count == 1 ? "1 anchor" : "\(anchors.count) anchors"
            anchorText = "\(n) (\(t.anchorClass.rawValue))" + (t.anchorsOnly ? " only" : " + system roots")
        }
        let anchorsDefault =
            t.addedAnchors == start.addedAnchors && t.removedAnchors == start.removedAnchors
            && t.anchorsOnly == start.anchorsOnly && t.anchorClass == start.anchorClass
        item(.toggleAnchor, anchorText, anchorsDefault)
        item(
            .togglePin, t.pins.isEmpty ? "no pins" : t.pins.count == 1 ? "1 pin" : "\(t.pins.count) pins",
            t.pins == start.pins)
        item(.toggleATS, t.ats.summary, t.ats == start.ats)
        item(.editTime, t.time.map { "at \($0.rfc3339)" } ?? "now", t.time == start.time)
        item(.cycleProfile, t.profile.rawValue, t.profile == start.profile)
        let server = state.targetIsServer
        item(
            .cycleTLSMinimum, "TLS \(unicode ? "≥" : ">=") \(t.tlsMinimum.description.dropFirst(4))",
            t.tlsMinimum == start.tlsMinimum, enabled: server)
        item(.toggleAIA, t.fetchAIA ? "AIA on" : "AIA off", t.fetchAIA == start.fetchAIA, enabled: server)
        if !state.undoStack.isEmpty {
            items.append([span("u undo (\(state.undoStack.count))", .label)])
        }
        return items
    }

    var changeLine: Line {
        let mark = Span(unicode ? "Δ " : "* ", style: theme[.changed])
        if let message = state.message {
            return Line([Span(sym.bullet + " ", style: theme[.key]), span(message)])
        }
        guard let change = state.change else {
            return Line([mark, span("change a setting to see what changes; ? lists the keys", .label)])
        }
        if state.verdictHidden {
            return Line([
                mark, span(change.cause + ": ", .changed), span("what changed shows with the verdict", .label),
            ])
        }
        return Line([mark, span(change.cause + ": ", .changed), span(change.text)])
    }

    // MARK: overlays

    /// A box over the panes with paragraphs that wrap at spaces only: a command line copied
    /// from the screen must come out whole.
    func textOverlay(_ overlay: AppState.TextOverlay, _ buffer: inout Buffer, _ area: Rect) {
        let width = min(area.width - 2, 120)
        var lines: [Line] = []
        for (i, paragraph) in overlay.paragraphs.enumerated() {
            if i > 0 { lines.append(Line("")) }
            // A paragraph's own line breaks (a multi-line command) are kept: each line is
            // sanitised and wrapped on its own, so no line break reaches the terminal as text.
            for row in paragraph.split(separator: "\n", omittingEmptySubsequences: false) {
                for piece in wrap(clean(String(row)), width: width - 4) {
                    lines.append(Line([span(piece, i == 0 ? nil : .label)]))
                }
            }
        }
        let height = min(area.height, lines.count + 2)
        let box = Rect(
            x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        buffer.fill(box)
        let b = block(overlay.title, focused: true)
        b.render(into: &buffer, area: box)
        let inner = b.inner(box)
        for (row, line) in lines.prefix(inner.height).enumerated() {
            buffer.set(x: inner.x + 1, y: inner.y + row, line: line, maxWidth: inner.width - 1)
        }
    }

    func help(_ buffer: inout Buffer, _ area: Rect) {
        let (box, lines) = helpLayout(area)
        buffer.fill(box)
        let inner = Block(symbols: sym).inner(box)
        let maxScroll = max(0, lines.count - inner.height)
        let scroll = min(state.helpScroll, maxScroll)
        let position = lines.count > inner.height ? " \(min(scroll + inner.height, lines.count))/\(lines.count)" : ""
        let titles = [
            "Help\(position): j/k PgUp/PgDn scroll, other keys close", "Help\(position): j/k PgUp/PgDn, others close",
            "Help\(position)",
        ]
        let b = block(titles.first { displayWidth(of: $0) <= box.width - 4 } ?? "Help", focused: true)
        b.render(into: &buffer, area: box)
        for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            buffer.set(x: inner.x + 1, y: inner.y + row, line: line, maxWidth: inner.width - 1)
        }
    }

    /// The help's lines and its box in `area`.
    func helpLayout(_ area: Rect) -> (box: Rect, lines: [Line]) {
        let width = min(area.width - 2, 100)
        let entries = HelpContent.entries(options.keymap, state)
        let keyWidth = min(
            18,
            options.keymap.bindings.map { $0.keys.map { $0.label(unicode: unicode) }.joined(separator: " ").count }
                .max() ?? 0)
        let textWidth = max(10, width - 4 - keyWidth - 2)
        var lines: [Line] = []
        for entry in entries {
            switch entry {
            case .heading(let text):
                if !lines.isEmpty { lines.append(Line("")) }
                lines.append(Line([span(text, .title)]))
            case .binding(let b, let enabled):
                let keys = b.keys.map { $0.label(unicode: unicode) }.joined(separator: " ")
                let pieces = wrap(clean(b.help(in: state)), width: textWidth)
                for (i, piece) in pieces.enumerated() {
                    let key = i == 0 ? keys.padding(to: keyWidth + 2) : String(repeating: " ", count: keyWidth + 2)
                    lines.append(
                        Line([
                            span(key, enabled ? .key : .stepNotApplicable),
                            Span(piece, style: enabled ? .plain : theme[.stepNotApplicable]),
                        ]))
                }
            case .legend:
                lines.append(Line(""))
                lines.append(
                    Line([
                        symbol(.passed), span(" passed  "), symbol(.failed), span(" failed  "), symbol(.skipped("")),
                        span(" skipped  "), symbol(.notApplicable), span(" not applicable"),
                    ]))
                lines.append(
                    Line([Span(unicode ? "Δ" : "*", style: theme[.changed]), span(" changed by the last change")]))
            }
        }
        let height = min(area.height, lines.count + 2)
        let box = Rect(
            x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        return (box, lines)
    }

    func tooSmall(_ buffer: inout Buffer, _ area: Rect) {
        let text = [
            "Window too small",
            "\(area.width)x\(area.height); needs \(ExplorerView.minimumWidth)x\(ExplorerView.minimumHeight)",
            "q quits",
        ]
        let lines = text.flatMap { wrap($0, width: area.width) }
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (i, line) in lines.prefix(area.height).enumerated() {
            let x = area.x + max(0, (area.width - displayWidth(of: line)) / 2)
            buffer.set(x: x, y: top + i, string: line, style: i == 0 ? theme[.title] : .plain, maxWidth: area.width)
        }
    }
}

extension String {
    /// Pads with spaces to `width` cells (never truncates).
    func padding(to width: Int) -> String {
        let w = displayWidth(of: self)
        return w < width ? self + String(repeating: " ", count: width - w) : self
    }
}

extension String {
    /// Without `prefix`, when it starts with it.
    func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
