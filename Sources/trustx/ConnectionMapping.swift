import TLSProbe
import TrustCore

/// Turns the probe's handshake facts into the report's plain values.
enum ConnectionMapping {
    static func target(_ t: ProbeTarget, options: ProbeOptions) -> ConnectionReport.Target {
        var proxy: String?
        if case .http(let address) = options.proxy { proxy = address.description }
        return ConnectionReport.Target(
            host: t.host, port: Int(t.port), sni: t.serverName, connectTo: t.connectTo?.description,
            startTLS: options.startTLS?.rawValue, proxy: proxy)
    }

    static func report(_ h: Handshake, options: ProbeOptions) -> ConnectionReport {
        var target = target(h.target, options: options)
        target.sni = h.sni
        target.proxy = h.proxy?.description ?? target.proxy
        var r = ConnectionReport(target: target)
        r.peerAddress = h.peerAddress
        r.protocolVersion = h.version.description
        r.cipher = h.cipher.ianaName
        r.group = h.group
        r.alpn = h.alpn
        r.ocsp = h.ocsp.map { $0.certificateStatus ?? $0.responseStatus }
        r.scts = h.scts.count
        r.clientCertificateRequested = h.clientCertificateRequested
        r.clientCertificateCANames = h.acceptableClientCANames
        r.connectMs = h.timings.connectMs
        r.handshakeMs = h.timings.handshakeMs
        return r
    }

    static func fetch(_ a: AIAAttempt) -> ConnectionReport.Fetch {
        let outcome: String
        switch a.outcome {
        case .fetched(let n):
            outcome = "fetched \(n) certificate\(n == 1 ? "" : "s") in \(ConnectionReport.formatMs(a.milliseconds)) ms"
        case .failed(let why): outcome = "failed: \(why)"
        case .skipped(let why): outcome = "not fetched: \(why)"
        }
        return ConnectionReport.Fetch(url: a.url, outcome: outcome)
    }
}
