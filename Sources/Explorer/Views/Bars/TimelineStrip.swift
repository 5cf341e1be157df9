import ExplorerState
import TermUI
import TrustSupport
import TrustTimeline

// Above the time prompt: where the verdict changes under the current settings, one entry per
// change (its day, its verdict and code), the evaluation time marked between the past and the
// future, and the entry Tab last put in the prompt highlighted (D465).
extension Renderer {
    /// The strip for `width` cells: as many entries as fit, the highlighted one (else the first
    /// after the evaluation time) kept in view.
    func timelineStrip(width: Int) -> Line {
        guard let t = state.timeline else {
            return Line([span("Timeline: ", .label), span("finding where the verdict changes…")])
        }
        let head = span("Timeline: ", .label)
        guard !t.entries.isEmpty else {
            let verdict = t.trustedNow ? "trusted" : "not trusted"
            return Line([head, span("no change at \(t.boundaries.count) boundaries (\(verdict) throughout)")])
        }
        let now = t.entries.firstIndex { $0.at > t.time } ?? t.entries.count
        let focus = state.timelineSelection ?? min(now, t.entries.count - 1)
        // Each entry's spans, and the evaluation time's marker before entry `now`.
        func entry(_ i: Int) -> [Span] {
            let e = t.entries[i]
            let selected = i == state.timelineSelection
            let day = Span(clean(String(e.at.rfc3339.prefix(10))), style: selected ? theme[.selection] : .plain)
            let mark = Span(
                e.trusted ? sym.check : sym.cross, style: theme[e.trusted ? .verdictTrusted : .verdictUntrusted])
            return [day, Span(" "), mark] + (e.trusted ? [] : [span(" \(e.osstatus)")])
        }
        let marker = span("\(sym.horizontal) now \(sym.horizontal)", .label)
        let tail = span("  Tab: next change", .label)
        // Widen around the focus while the line fits.
        var (first, last) = (focus, focus)
        func line(_ a: Int, _ b: Int) -> Line {
            var spans = [head]
            if a > 0 { spans.append(span("\(sym.ellipsis) ", .label)) }
            for i in a...b {
                if i == now && i > a { spans.append(Span("  ")) }
                if i == now { spans += [marker, Span("  ")] } else if i > a { spans.append(Span("  ")) }
                spans += entry(i)
            }
            if now == b + 1 && b == t.entries.count - 1 { spans += [Span("  "), marker] }
            if b < t.entries.count - 1 { spans.append(span(" \(sym.ellipsis)", .label)) }
            return Line(spans + [tail])
        }
        while true {
            var grew = false
            if last + 1 < t.entries.count, line(first, last + 1).width <= width {
                last += 1
                grew = true
            }
            if first > 0, line(first - 1, last).width <= width {
                first -= 1
                grew = true
            }
            if !grew { break }
        }
        return line(first, last)
    }
}
