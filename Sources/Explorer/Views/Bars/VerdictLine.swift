import ExplorerState
import TermUI
import TrustCore

// The verdict line: the first of the bottom lines.
extension Renderer {
    /// The verdict: Apple's check, code, URLError and the decisive reason, in shorter forms as the
    /// width shrinks, one drop order at every width (a reason that does not fit whole is in the
    /// Detail pane).
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
        if let why = state.target?.unavailable {
            let head = [Span(sym.bullet + " ", style: theme[.stepNotApplicable]), span("Not served", .label)]
            return [Line(head + [span(dot + clean(why))]), Line(head + [span(dot + "why: Detail (4)", .label)])]
        }
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
        // One drop order at every width (D294): "updating...", then the check (the step and
        // Apple's check key, which the Steps pane marks), then the words "Not trusted" when a
        // code stands in for them, then the URLError's name, then the OSStatus's name; the reason
        // then loses whole words from its end and goes last. The code and the URLError's number
        // always stay: they are what a room writes down.
        var check: String?
        var status: (code: Int32, name: String)?
        if let step = v.decisiveStep, let f = step.appleFailure {
            let where_ = step.certificate.map { "@\($0)" } ?? ""
            check = "\(step.id.rawValue)\(where_) \(f.check)"
            status = (v.osstatus, v.osstatusName)
        } else if let step = v.decisiveStep, let f = step.finding.atsFailure {
            // ATS refuses in the TLS layer, not in SecTrust: its own code, no check key.
            let where_ = step.certificate.map { "@\($0)" } ?? ""
            check = "\(step.id.rawValue)\(where_) ATS"
            if f.osstatus != 0 { status = (f.osstatus, OSStatusNames.name(f.osstatus)) }
        } else if let failed = e.steps.first(where: { $0.status == .failed }) {
            check = "\(failed.id.rawValue): the app's delegate cancels"
        } else if let f = state.connection?.failure {
            check = "evaluation passed; handshake: \(f.kind)"
        }
        let walk = state.walk.map { [span(dot + "step \($0) of \(e.steps.count)", .title)] } ?? []
        // Without a decisive step, what failed (the delegate's pin check, the handshake) is the reason.
        let reasonText = v.decisiveStep?.title ?? check
        if v.decisiveStep == nil { check = nil }
        let reason = reasonText.map { [span(dot + $0, .label)] } ?? []
        func url(named: Bool) -> [Span] {
            guard let code = v.urlError else { return [] }
            return [span(dot + "URLError \(code)" + (named ? v.urlErrorName.map { " " + $0 } ?? "" : ""))]
        }
        // The full form: the walk's position leads, the verdict in words, the check, the codes.
        var full: [Span] = []
        if let n = state.walk { full.append(span("step \(n) of \(e.steps.count)" + dot, .title)) }
        full += [cross, span("Not trusted", .verdictUntrusted)]
        if let check { full.append(span(dot + check)) }
        if let status { full.append(span(dot + "\(status.name) (\(status.code))", .verdictUntrusted)) }
        full += url(named: true)
        // Shorter forms lead with the code (or the words, when there is none).
        func head(named: Bool) -> [Span] {
            guard let status else { return [cross, span("Not trusted", .verdictUntrusted)] }
            return [cross, span(named ? "\(status.code) \(status.name)" : "\(status.code)", .verdictUntrusted)]
        }
        let withoutCheck =
            [cross, span("Not trusted", .verdictUntrusted)]
            + (status.map { [span(dot + "\($0.name) (\($0.code))", .verdictUntrusted)] } ?? []) + url(named: true)
            + walk
        let bare = head(named: false) + url(named: false) + walk
        return [
            Line(full + reason + busy), Line(full + reason), Line(withoutCheck + reason),
            Line(head(named: true) + url(named: true) + walk + reason),
            Line(head(named: true) + url(named: false) + walk + reason), Line(bare + reason),
            fitWords(Line(bare + reason), width: width), Line(bare),
        ]
    }
}
