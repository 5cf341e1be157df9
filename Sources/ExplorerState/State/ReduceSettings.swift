import TLSProbe
import TrustCore
import TrustLab
import TrustOptions
import TrustSupport

// Setting changes, with undo: the policy, anchors, pins and the evaluation time.
extension AppState {
    /// Connection commands mean nothing for files: say so rather than do nothing.
    mutating func requireServer(_ what: String) -> Bool {
        if targetIsServer { return true }
        if let why = target?.unavailable {
            message = "\(what); \(target?.name ?? "this target") is not served: \(why)"
            return false
        }
        message = "\(what); this target is files, so there is nothing to connect to"
        return false
    }

    /// Changes the settings, remembers the previous ones for undo, and re-evaluates (or
    /// reconnects when a connection setting changed).
    mutating func change(
        _ cause: String, _ effects: inout [Effect], message: String? = nil, _ mutate: (inout Toggles) -> Void
    ) {
        var next = toggles
        mutate(&next)
        guard next != toggles else {
            self.message = message ?? "\(cause): no change"
            return
        }
        undoStack.append((toggles, cause))
        if undoStack.count > 200 { undoStack.removeFirst() }
        redoStack.removeAll()
        apply(toggles: next, cause: cause, &effects)
        if let message { self.message = message }
    }

    /// Puts `next` in force: a connection setting reconnects, anything else re-evaluates the
    /// chain at hand (the evaluator's cache makes this cost microseconds).
    mutating func apply(toggles next: Toggles, cause: String, _ effects: inout [Effect]) {
        let reconnects = !next.sameConnection(as: toggles) && targetIsServer
        toggles = next
        if reconnects {
            reconnect(cause: cause, &effects)
        } else {
            addCause(cause)
            if pendingConnect == nil { requestEvaluation(&effects) }
        }
    }

    /// `a`: the selected certificate becomes a custom anchor, or stops being one.
    mutating func toggleAnchor(_ effects: inout [Effect]) {
        guard let row = selectedChainRow else {
            message = "select a certificate in the Chain pane (2) first"
            return
        }
        let cert = row.certificate
        let name = cert.displayName
        let own = target?.anchors.contains(cert) == true
        if effectiveAnchors.contains(where: { $0.certificate == cert }) {
            change("anchor - \(name)", &effects) { t in
                if let i = t.addedAnchors.firstIndex(where: { $0.certificate == cert }) {
                    t.addedAnchors.remove(at: i)
                }
                if own { t.removedAnchors.insert(cert) }
            }
        } else {
            change("anchor + \(name)", &effects) { t in
                if own {
                    t.removedAnchors.remove(cert)
                } else {
                    t.addedAnchors.append(AnchorEntry(cert))
                }
            }
        }
    }

    /// `P`: pins the selected certificate's key, or unpins it.
    mutating func togglePin(_ effects: inout [Effect]) {
        guard let row = selectedChainRow else {
            message = "select a certificate in the Chain pane (2) first"
            return
        }
        let digest = row.certificate.spkiSHA256
        let short = String(row.certificate.spkiPin.prefix(12))
        if toggles.pins.contains(digest) {
            change("pin - \(short)...", &effects) { $0.pins.removeAll { $0 == digest } }
        } else {
            change("pin + \(short)... (\(row.certificate.displayName))", &effects) { $0.pins.append(digest) }
        }
    }

    mutating func setTime(_ time: Timestamp, _ cause: String, _ effects: inout [Effect]) {
        let value = time == now ? nil : time
        change("\(cause) -> \(time.rfc3339)", &effects) { $0.time = value }
    }

    /// The instants at which some certificate of the path changes state: its notBefore (it
    /// becomes valid) and one second after its notAfter (it has expired; notAfter itself is
    /// still inside the validity period, RFC 5280 4.1.2.5).
    var boundaries: [(time: Timestamp, what: String)] {
        guard let e = evaluation else { return [] }
        var out: [(Timestamp, String)] = []
        for (i, c) in e.path.certificates.enumerated() {
            out.append((c.notBefore, "[\(i)] notBefore"))
            out.append((c.notAfter.adding(seconds: 1), "1 s after [\(i)] notAfter"))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    mutating func jumpToBoundary(forward: Bool, _ effects: inout [Effect]) {
        let current = evaluationTime
        let candidates = boundaries
        let pick = forward ? candidates.first { $0.time > current } : candidates.last { $0.time < current }
        guard let pick else {
            message =
                forward ? "no certificate of the path changes after this time" : "nothing changes before this time"
            return
        }
        let value = pick.time == now ? nil : pick.time
        change("time -> \(pick.time.rfc3339) (\(pick.what))", &effects) { $0.time = value }
    }
}
