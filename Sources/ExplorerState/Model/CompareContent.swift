import TrustCore
import TrustReport
import TrustSupport
import TrustX509

/// One row of the compare view, before it is laid out side by side or stacked.
package struct CompareRow: Hashable, Sendable {
    /// How a value is coloured.
    package enum Tone: Hashable, Sendable {
        case plain, good, bad, changed, dim, title
    }

    /// How the row is drawn.
    package enum Kind: Hashable, Sendable {
        /// A section heading across both columns (`Chain as sent`).
        case heading
        /// Prose across both columns.
        case note
        /// A position of the chain or path: `[0] same key, new certificate`.
        case relation(ChainComparison.Relation)
        /// `label  marked's value | selected's value`.
        case field
    }

    package var kind: Kind
    /// The field's label, or the position (`[0]`) of a relation row.
    package var label = ""
    /// The heading's, note's or relation's words.
    package var text = ""
    /// The marked side's value.
    package var a = ""
    /// The selected side's value.
    package var b = ""
    package var aTone = Tone.plain
    package var bTone = Tone.plain
    /// Indent in cells, for the fields under a position.
    package var indent = 0
}

/// What the compare view shows: the marked target (left, side A) against the selected one
/// (right, side B), as `trustx diff` compares two servers. Text from certificates is not
/// sanitised here; the renderer cleans every string it draws.
package enum CompareContent {
    /// The Detail pane's title while it compares.
    package static func title(_ s: AppState) -> String {
        "Compare " + names(s).marked + " | " + names(s).selected
    }

    /// Both targets' names, the marked one first.
    package static func names(_ s: AppState) -> (marked: String, selected: String) {
        (s.markedTarget.map { s.targets[$0].name } ?? "none", s.target?.name ?? "none")
    }

    /// The rows for the current state.
    package static func rows(_ s: AppState) -> [CompareRow] {
        let (markedName, selectedName) = names(s)
        var out = [
            CompareRow(
                kind: .field, label: "", a: markedName + " (marked)", b: selectedName + " (selected)", aTone: .title,
                bTone: .title)
        ]
        if s.markedTarget == s.selectedTarget {
            out.append(
                CompareRow(
                    kind: .note,
                    text: "Both sides are the same target: select another target to compare with the marked one."))
            return out
        }
        switch (s.markedSide, s.selectedSide) {
        case (.evaluated(let a), .evaluated(let b)):
            let c = ChainComparison(a: a, b: b, labels: (markedName, selectedName))
            out += verdictRows(a, b)
            out += summaryRows(c)
            out += pairRows("Chain as sent", c.presented, markedName, selectedName)
            out += pairRows("Path as built", c.path, markedName, selectedName)
            out += stepRows(c.steps)
        case (let a, let b):
            out += sideRows(a, b)
            out.append(
                CompareRow(
                    kind: .note, text: "The chains, paths and steps are compared once both sides have an evaluation."))
        }
        out.append(CompareRow(kind: .note, text: "M or Esc returns to the selected target's detail."))
        return out
    }

    /// The verdict, OSStatus and URLError of each side.
    static func verdictRows(_ a: Evaluation, _ b: Evaluation) -> [CompareRow] {
        func verdict(_ e: Evaluation) -> (String, CompareRow.Tone) {
            e.verdict.trusted ? ("trusted", .good) : ("not trusted", .bad)
        }
        func status(_ e: Evaluation) -> String { "\(e.verdict.osstatus) \(e.verdict.osstatusName)" }
        func url(_ e: Evaluation) -> String {
            e.verdict.urlError.map { "\($0) \(URLErrorNames.name($0))" } ?? "none"
        }
        let (va, ta) = verdict(a)
        let (vb, tb) = verdict(b)
        let sa = status(a)
        let sb = status(b)
        let ua = url(a)
        let ub = url(b)
        return [
            CompareRow(kind: .field, label: "Verdict", a: va, b: vb, aTone: ta, bTone: tb),
            CompareRow(
                kind: .field, label: "OSStatus", a: sa, b: sb, aTone: sa == sb ? .plain : .changed,
                bTone: sa == sb ? .plain : .changed),
            CompareRow(
                kind: .field, label: "URLError", a: ua, b: ub, aTone: ua == ub ? .plain : .changed,
                bTone: ua == ub ? .plain : .changed),
        ]
    }

    /// What a side without an evaluation shows in place of its verdict.
    static func sideRows(_ a: AppState.Comparison.Side, _ b: AppState.Comparison.Side) -> [CompareRow] {
        func words(_ side: AppState.Comparison.Side) -> (String, CompareRow.Tone) {
            switch side {
            case .evaluated(let e):
                return e.verdict.trusted
                    ? ("trusted", .good) : ("not trusted: \(e.verdict.osstatus) \(e.verdict.osstatusName)", .bad)
            case .failed(let why): return (why, .bad)
            case .waiting(let what): return (what, .dim)
            }
        }
        let (wa, ta) = words(a)
        let (wb, tb) = words(b)
        return [CompareRow(kind: .field, label: "Verdict", a: wa, b: wb, aTone: ta, bTone: tb)]
    }

    /// The two answers `trustx diff` exits on: the verdict and the leaf key.
    static func summaryRows(_ c: ChainComparison) -> [CompareRow] {
        [
            CompareRow(
                kind: .note,
                text: (c.sameVerdict ? "Same verdict" : "The verdicts differ")
                    + (c.sameLeafKey
                        ? "; same leaf key (a key pin holds on both)"
                        : "; different leaf keys (a leaf key pin matches at most one)"))
        ]
    }

    /// A chain or path, position by position: the relation, both certificates' names and the
    /// fields that differ.
    static func pairRows(_ title: String, _ pairs: [ChainComparison.Pair], _ a: String, _ b: String)
        -> [CompareRow]
    {
        var out = [CompareRow(kind: .heading, text: title)]
        if pairs.isEmpty { out.append(CompareRow(kind: .note, text: "empty on both sides")) }
        for p in pairs {
            let words: String
            switch p.relation {
            case .onlyA: words = "only in " + a
            case .onlyB: words = "only in " + b
            default: words = p.relation.rawValue
            }
            let name = p.relation == .same ? "  " + ((p.a ?? p.b)?.displayName ?? "") : ""
            out.append(CompareRow(kind: .relation(p.relation), label: "[\(p.index)]", text: words + name))
            guard p.relation != .same else { continue }
            out.append(
                CompareRow(
                    kind: .field, label: "certificate", a: p.a?.displayName ?? "none",
                    b: p.b?.displayName ?? "none", indent: 2))
            for d in p.differences {
                out.append(
                    CompareRow(
                        kind: .field, label: d.field, a: d.a, b: d.b, aTone: .changed, bTone: .changed, indent: 2))
            }
        }
        return out
    }

    /// The steps whose status differs.
    static func stepRows(_ steps: [ChainComparison.StepDifference]) -> [CompareRow] {
        func tone(_ status: String) -> CompareRow.Tone {
            switch status {
            case "passed": .good
            case "failed": .bad
            default: .dim
            }
        }
        var out = [CompareRow(kind: .heading, text: "Steps whose status differs")]
        if steps.isEmpty { out.append(CompareRow(kind: .note, text: "none")) }
        for s in steps {
            let position = s.certificate.map { "@\($0)" } ?? ""
            out.append(
                CompareRow(
                    kind: .field, label: s.id + position, a: s.a, b: s.b, aTone: tone(s.a), bTone: tone(s.b)))
        }
        return out
    }
}
