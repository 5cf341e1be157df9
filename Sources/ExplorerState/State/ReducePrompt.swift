import ATSModel
import TLSProbe
import TrustCore
import TrustReport
import TrustSupport
import TrustX509

extension AppState {
    /// Opens a prompt, with its first preview when the initial text is valid.
    mutating func open(_ kind: Prompt.Kind, _ effects: inout [Effect], text: String = "") {
        prompt = Prompt(kind, text: text)
        requestPreview(&effects)
    }

    mutating func apply(_ edit: PromptEdit, _ effects: inout [Effect]) {
        guard var p = prompt else { return }
        message = nil
        let history = promptHistory[p.kind] ?? []
        switch edit {
        case .insert(let c):
            // Ctrl-U clears the line, as in a shell; other control characters are not text.
            if c == "\u{15}" {
                p.text = ""
            } else if c.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return
            } else {
                if p.prefilled { p.text = "" }
                guard p.text.count < Prompt.maximumLength else { return }
                p.text.append(c)
            }
            p.historyIndex = nil
            p.completions = []
        case .deleteBackward:
            if p.prefilled { p.text = "" } else if !p.text.isEmpty { p.text.removeLast() }
            p.historyIndex = nil
            p.completions = []
        case .cancel:
            prompt = nil
            pendingPreview = nil
            pendingCompletion = nil
            return
        case .historyPrevious:
            guard !history.isEmpty else { return }
            let i = max(0, (p.historyIndex ?? history.count) - 1)
            p.historyIndex = i
            p.text = history[i]
        case .historyNext:
            guard let i = p.historyIndex else { return }
            if i + 1 < history.count {
                p.historyIndex = i + 1
                p.text = history[i + 1]
            } else {
                p.historyIndex = nil
                p.text = ""
            }
        case .complete:
            p.prefilled = false
            if p.kind == .host {
                prompt = AppState.complete(&p, with: hostCandidates)
                requestPreview(&effects)
            } else if p.kind == .exportCode {
                prompt = AppState.complete(&p, with: CodeExport.Format.allCases.map(\.rawValue))
            } else if p.kind == .jump {
                prompt = AppState.complete(&p, with: targets.map(\.name))
            } else if p.kind == .time {
                completeTimeFromTimeline(&p, &effects)
            } else if p.kind.completesPaths {
                prompt = p
                let id = nextRequest
                nextRequest += 1
                pendingCompletion = id
                effects.append(.listDirectory(request: id, path: p.text))
            }
            return
        case .commit:
            commit(p, &effects)
            return
        }
        p.preview = nil
        p.prefilled = false
        prompt = p
        requestPreview(&effects)
    }

    /// The names the leaf answers to, for completing the host.
    var hostCandidates: [String] {
        guard let leaf = chainToEvaluate.first else { return [] }
        return leaf.dnsNames + leaf.ipAddresses.map(formatIPAddress)
    }

    /// Completes `prompt` from `candidates`: the only match, or the longest common prefix of
    /// several (which are then listed).
    static func complete(_ prompt: inout Prompt, with candidates: [String]) -> Prompt {
        let matches = candidates.filter { $0.lowercased().hasPrefix(prompt.text.lowercased()) }
        guard let first = matches.first else {
            prompt.completions = []
            return prompt
        }
        if matches.count == 1 {
            prompt.text = first
            prompt.completions = []
            return prompt
        }
        var common = first
        for m in matches.dropFirst() {
            while !m.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
        }
        if common.count > prompt.text.count { prompt.text = common }
        prompt.completions = matches
        return prompt
    }

    /// Why the typed text cannot be used, nil when it can.
    public func problem(with p: Prompt) -> String? {
        let text = p.text.trimmingSpaces()
        switch p.kind {
        case .host:
            if text.contains(" ") || text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return "a host name has no spaces or control characters"
            }
            return nil
        case .time:
            return TimeInput.parse(text, now: now) == nil ? "not a time: " + Prompt.Kind.time.hint : nil
        case .pin:
            return PinSet.parse(text) == nil ? "not a pin: expected sha256// and the base64 of 32 bytes" : nil
        case .anchorFile, .writeCertificate, .exportReport, .writeServedChain:
            return text.isEmpty ? "type a file name" : nil
        case .atsPlist, .explain:
            return nil
        case .search:
            return text.isEmpty ? "type the text to find" : nil
        case .jump:
            if text.isEmpty { return "type a target's number (1-\(targets.count)) or name" }
            return jumpTarget(text) == nil ? "no target numbered or named \"\(text)\"" : nil
        case .exportCode:
            return CodeExport.Format(rawValue: text.lowercased()) == nil
                ? "one of: " + Prompt.Kind.exportCode.hint : nil
        case .connect:
            if text.isEmpty { return "type a host, host:port or URL" }
            do {
                _ = try ExplorerTarget.parseURL(text)
                return nil
            } catch {
                return error.message
            }
        }
    }

    /// The settings the prompt's text would give, for the preview; nil when it gives none.
    func candidate(for p: Prompt) -> Toggles? {
        guard problem(with: p) == nil else { return nil }
        let text = p.text.trimmingSpaces()
        var t = toggles
        switch p.kind {
        case .host:
            if text.isEmpty {
                t.policy = .sslWithoutHost
            } else {
                t.host = text == target?.host ? .target : .typed(text)
                t.policy = .sslWithHost
            }
        case .time:
            guard let time = TimeInput.parse(text, now: now) else { return nil }
            t.time = time == now ? nil : time
        case .pin:
            guard let digest = PinSet.parse(text) else { return nil }
            if !t.pins.contains(digest) { t.pins.append(digest) }
        default: return nil
        }
        return t
    }

    mutating func requestPreview(_ effects: inout [Effect]) {
        pendingPreview = nil
        // In predict mode the preview would tell the room the answer before it votes.
        guard let p = prompt, p.kind.previews, !predict, let t = candidate(for: p) else { return }
        pendingPreview = evaluationRequest(t, &effects)
    }

    mutating func commit(_ p: Prompt, _ effects: inout [Effect]) {
        if let why = problem(with: p) {
            message = why
            return
        }
        let text = p.text.trimmingSpaces()
        var history = promptHistory[p.kind] ?? []
        if !text.isEmpty && history.last != text {
            history.append(text)
            if history.count > 50 { history.removeFirst() }
        }
        promptHistory[p.kind] = history
        prompt = nil
        pendingPreview = nil
        pendingCompletion = nil
        switch p.kind {
        case .host, .time, .pin:
            guard let next = candidate(for: p) else { return }
            let cause: String
            switch p.kind {
            case .host: cause = text.isEmpty ? "host -> none (SSL nil)" : "host -> \(text)"
            case .time: cause = "time -> \(next.time?.rfc3339 ?? "now")"
            default: cause = "pin + \(text.prefix(20))..."
            }
            change(cause, &effects) { $0 = next }
        case .anchorFile:
            // In the lab its files are found by name (`rogue-ca.pem`) when no such file is here.
            var labDirectory: String?
            if case .running(let directory) = lab { labDirectory = directory }
            effects.append(.loadAnchors(path: text, password: target?.password, fallbackDirectory: labDirectory))
        case .exportCode:
            guard let format = CodeExport.Format(rawValue: text.lowercased()), let target else { return }
            let export = CodeExport.make(format, state: self, target: target)
            var paragraphs = [
                "Written to \(export.file.path) and copied to the clipboard (OSC 52, where the terminal allows it)."
            ]
            if let shown = export.shown { paragraphs.append(shown) }
            paragraphs.append(export.note)
            paragraphs.append("q, Esc or any other key closes.")
            overlay = TextOverlay(title: "Export as \(format.rawValue)", paragraphs: paragraphs)
            effects.append(
                .writeFiles(export.anchors + [export.file], message: "wrote \(export.file.path)"))
            effects.append(.copyToClipboard(export.file.contents))
        case .atsPlist:
            if text.isEmpty {
                change("ATS -> defaults (\(toggles.ats.platform.rawValue))", &effects) {
                    $0.ats.enabled = true
                    $0.ats.configuration = ATSConfiguration()
                    $0.ats.source = nil
                }
            } else {
                message = "reading \(text)..."
                effects.append(.loadATSPlist(path: text))
            }
        case .writeCertificate:
            guard let row = selectedChainRow else { return }
            let pem = PEM.encode(row.certificate.der)
            effects.append(
                .writeFiles(
                    [FileToWrite(path: text, contents: pem, replace: false)],
                    message: "wrote \(row.certificate.displayName) to \(text)"))
        case .writeServedChain:
            guard let e = evaluation else { return }
            message = "evaluating the chain to serve alone..."
            effects.append(.writeServedChain(path: text, evaluation: e))
        case .exportReport:
            guard let e = evaluation else { return }
            let contents: String
            if text.hasSuffix(".json") {
                contents = JSONReport.render(e)
            } else if text.hasSuffix(".md") {
                contents = MarkdownReport.render(e)
            } else {
                contents = TextReport.render(e, options: TextReport.Options(styling: .plain, unicode: true))
            }
            effects.append(
                .writeFiles(
                    [FileToWrite(path: text, contents: contents, replace: false)],
                    message: "exported the report to \(text)"))
        case .connect:
            connect(to: text, &effects)
        case .explain:
            explain(text)
        case .jump:
            guard let index = jumpTarget(text) else { return }
            // Without filtering: a filter that hides the target is cleared, so it can be shown.
            if !passesFilter(targets[index]) {
                targetFilter = nil
                message = "filter cleared to show \(targets[index].name)"
            }
            if index != selectedTarget { select(target: index, &effects) }
        case .search:
            // In the Targets pane `/` filters the list instead of jumping between matches.
            if focus == .targets {
                filterTargets(text, &effects)
            } else {
                search = text
                find(forward: true, includingCurrent: true, &effects)
            }
        }
    }

    /// The target `text` names for `:`: its number as the Targets pane counts (from 1), else the
    /// target of that name (ignoring case), else the only one whose name starts with it, else
    /// the first whose name contains it.
    func jumpTarget(_ text: String) -> Int? {
        if let n = Int(text) { return targets.indices.contains(n - 1) ? n - 1 : nil }
        let lower = text.lowercased()
        let names = targets.map { $0.name.lowercased() }
        if let exact = names.firstIndex(of: lower) { return exact }
        let prefixed = names.indices.filter { names[$0].hasPrefix(lower) }
        if prefixed.count == 1 { return prefixed[0] }
        return prefixed.first ?? names.firstIndex { $0.contains(lower) }
    }

    /// The texts of the focused pane's rows, in order, for searching.
    var searchableRows: [String] {
        switch focus {
        case .targets: return targets.map(\.name)
        case .chain: return chainRows.map { "\($0.certificate.displayName) \($0.source)" }
        case .steps:
            guard let e = evaluation else { return [] }
            if walk != nil {
                return walkOrder.prefix(walk ?? 0).map { "\(e.steps[$0].id.rawValue) \(e.steps[$0].title)" }
            }
            return stepOrder.map { "\(e.steps[$0].id.rawValue) \(e.steps[$0].title)" }
        case .detail:
            return DetailContent.lines(self).map { line in
                if case .field(let label) = line.kind { return label + " " + line.text }
                return line.text
            }
        }
    }

    /// Moves the focused pane's selection (or the detail's scroll) to the next or previous row
    /// holding the search text, wrapping around.
    mutating func find(forward: Bool, includingCurrent: Bool = false, _ effects: inout [Effect]) {
        guard let query = search?.lowercased(), !query.isEmpty else {
            message = "no search: / finds text in the focused pane"
            return
        }
        let rows = searchableRows
        guard !rows.isEmpty else { return }
        let current: Int
        switch focus {
        case .targets: current = selectedTarget
        case .chain: current = selectedCertificate
        case .steps: current = walk.map { $0 - 1 } ?? selectedStep
        case .detail: current = detailScroll
        }
        let count = rows.count
        for k in (includingCurrent ? 0 : 1)...count {
            let i = ((current + (forward ? k : -k)) % count + count) % count
            guard rows[i].lowercased().contains(query) else { continue }
            switch focus {
            case .targets:
                if i != selectedTarget { select(target: i, &effects) }
            case .chain: selectedCertificate = i
            case .steps: if walk == nil { selectedStep = i }
            case .detail: detailScroll = i
            }
            message = "\"\(search ?? "")\": row \(i + 1) of \(count)"
            return
        }
        message = "\"\(search ?? "")\" is not in the \(focus.title) pane"
    }

    /// `c`: a new target joins the list and is selected. It gets the session's start-up settings:
    /// the command line's anchors and its connection options (timeout, proxy, client identity),
    /// else it is reached the way the selected server is, or with the defaults (D292).
    mutating func connect(to text: String, _ effects: inout [Effect]) {
        guard let (probeTarget, startTLS) = try? ExplorerTarget.parseURL(text) else { return }
        var options = startOptions ?? target?.server?.options ?? ProbeOptions()
        if startOptions == nil && target?.server == nil { options.proxy = .environment }
        options.startTLS = startTLS
        let new = ExplorerTarget(
            name: ExplorerTarget.serverName(probeTarget), location: text, host: probeTarget.host,
            source: .server(probeTarget, options), anchors: startAnchors, password: target?.password)
        targets.append(new)
        select(target: targets.count - 1, &effects)
        focus(.chain)
    }

    /// `y`: the command line that reproduces the current state, written to the clipboard and
    /// shown; certificates that exist only in the session are written beside it.
    mutating func copyCommand(_ effects: inout [Effect]) {
        guard let target else {
            message = "nothing to reproduce yet"
            return
        }
        if let why = target.unavailable {
            message = "\(target.name) is not served (\(why)): nothing to reproduce"
            return
        }
        let repro = ReproCommand.make(
            target: target, toggles: toggles, anchors: effectiveAnchors, now: now, program: commandName,
            anchorDirectory: anchorDirectory, workingDirectory: workingDirectory, ctLogsFile: ctLogsFile)
        var paragraphs = [repro.command]
        if !repro.files.isEmpty {
            paragraphs.append(
                "Certificates that exist only in this session, written for it: "
                    + repro.files.map(\.path).joined(separator: ", "))
        }
        if isLab {
            paragraphs.append("The lab's servers and files live as long as this explorer does.")
        }
        paragraphs.append("Copied to the clipboard with OSC 52, where the terminal allows it.")
        paragraphs.append("q, Esc or any other key closes.")
        overlay = TextOverlay(title: "Reproduce with trustx check", paragraphs: paragraphs)
        if !repro.files.isEmpty {
            effects.append(
                .writeFiles(repro.files, message: "wrote " + repro.files.map(\.path).joined(separator: ", ")))
        }
        effects.append(.copyToClipboard(repro.command))
    }

    /// A file-name-safe rendering of a certificate's name.
    static func fileName(for certificate: Certificate) -> String { fileName(for: certificate.displayName) }

    /// Letters, digits, `.` and `-` kept; anything else becomes `-`; at most 40 characters.
    static func fileName(for text: String) -> String {
        var out = ""
        for ch in text.lowercased().unicodeScalars.prefix(40) {
            let ok = (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9") || ch == "." || ch == "-"
            out.append(ok ? Character(ch) : "-")
        }
        while out.hasPrefix("-") || out.hasPrefix(".") { out.removeFirst() }
        return out.isEmpty ? "certificate" : out
    }
}
