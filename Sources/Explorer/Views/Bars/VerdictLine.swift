import ExplorerState
import TermUI
import TrustCore

// The verdict line: the first of the bottom lines.
extension Renderer {
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
}
