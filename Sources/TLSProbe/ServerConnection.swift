import TrustCore

/// Connects to a server and completes its chain through AIA for `trustx check` and the explorer,
/// returning values only (blocking: the explorer calls it off the UI thread).
public enum ServerConnection {
    /// Connects, records the handshake, and fetches missing intermediates.
    ///
    /// AIA is fetched whenever `fetchAIA` is on, whatever the policy: the explorer toggles the
    /// policy without reconnecting, and passes the fetched issuers to the evaluator only under
    /// the SSL policy (Apple's Basic X.509 policy fetches nothing).
    /// - Parameters:
    ///   - target: The server.
    ///   - options: How to connect (TLS versions, timeout, proxy, STARTTLS).
    ///   - fetchAIA: Whether to fetch missing intermediates.
    ///   - anchors: Custom anchors (AIA stops at an issuer among them).
    ///   - systemStore: The system roots (AIA stops at an issuer among them).
    /// - Returns: The presented chain and the handshake facts; on failure, an empty chain (or the
    ///   chain seen before a client-certificate failure) and the report's `failure`.
    public static func connect(
        _ target: ProbeTarget, options: ProbeOptions, fetchAIA: Bool, anchors: [Certificate],
        systemStore: (any IssuerSource)?
    ) -> ConnectionResult {
        let handshake: Handshake
        do {
            handshake = try Probe.handshake(with: target, options: options)
        } catch {
            var report = ConnectionReport(target: reportTarget(target, options: options))
            report.failure = ConnectionReport.Failure(
                kind: error.kind, message: error.message, urlError: error.urlError)
            var chain: [Certificate] = []
            if let partial = error.partial {
                report.peerAddress = partial.peerAddress
                report.protocolVersion = partial.version?.description
                report.clientCertificateRequested = partial.clientCertificateRequested
                report.clientCertificateCANames = partial.acceptableClientCANames
                // A server demanding a client certificate has already sent its chain, and
                // URLSession evaluates it before the handshake fails: keep it (as check does).
                if error.kind == .clientCertificateRequired || error.kind == .clientCertificateRejected {
                    chain = (try? partial.presentedChain.map { try Certificate(der: $0) }) ?? []
                }
            }
            return ConnectionResult(chain: chain, report: report)
        }
        var report = reportFacts(handshake, options: options)
        var chain: [Certificate] = []
        for (i, der) in handshake.presentedChain.enumerated() {
            do {
                chain.append(try Certificate(der: der))
            } catch {
                report.failure = ConnectionReport.Failure(
                    kind: .malformedCertificate,
                    message: "the server's certificate \(i) is malformed: byte \(error.offset): \(error.reason)",
                    urlError: -1200)
                return ConnectionResult(chain: [], report: report)
            }
        }
        if chain.isEmpty {
            report.failure = ConnectionReport.Failure(
                kind: .noCertificate, message: "the server sent no certificate", urlError: -1200)
        }
        var fetched: [Certificate] = []
        if fetchAIA && !chain.isEmpty {
            let result = AIAFetcher().completeChain(
                presented: chain, anchors: anchors, issuers: systemStore, timeout: options.timeout)
            fetched = result.fetched
            report.aiaFetches = result.attempts.map(fetchFact)
        }
        var result = ConnectionResult(
            chain: chain, report: report, fetchedIssuers: fetched, sctLogIDs: handshake.scts.map(\.logID))
        result.ocspResponse = handshake.ocsp?.der
        result.negotiated = NegotiatedTLS(
            version: handshake.version, cipherSuite: handshake.cipher.id, cipherName: handshake.cipher.ianaName,
            group: handshake.group)
        return result
    }

    static func reportTarget(_ t: ProbeTarget, options: ProbeOptions) -> ConnectionReport.Target {
        var proxy: String?
        if case .http(let address) = options.proxy { proxy = address.description }
        return ConnectionReport.Target(
            host: t.host, port: Int(t.port), sni: t.serverName, connectTo: t.connectTo?.description,
            startTLS: options.startTLS?.rawValue, proxy: proxy)
    }

    static func reportFacts(_ h: Handshake, options: ProbeOptions) -> ConnectionReport {
        var target = reportTarget(h.target, options: options)
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

    static func fetchFact(_ a: AIAAttempt) -> ConnectionReport.Fetch {
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

/// What a connection produced: the presented chain and the handshake facts, or why it failed.
public struct ConnectionResult: Sendable {
    /// The presented certificates, leaf first; empty when the handshake gave none.
    public var chain: [Certificate]
    /// The handshake facts (and the failure, when there was one).
    public var report: ConnectionReport
    /// Issuers fetched through AIA caIssuers URLs.
    public var fetchedIssuers: [Certificate]
    /// Log IDs of SCTs delivered in the handshake.
    public var sctLogIDs: [[UInt8]]
    /// The OCSP response the server stapled (DER), for the evaluator to verify.
    public var ocspResponse: [UInt8]?
    /// What the handshake negotiated (version, cipher suite, group), for ATS's connection rules.
    public var negotiated: NegotiatedTLS?

    /// Creates a result.
    public init(
        chain: [Certificate], report: ConnectionReport, fetchedIssuers: [Certificate] = [],
        sctLogIDs: [[UInt8]] = []
    ) {
        self.chain = chain
        self.report = report
        self.fetchedIssuers = fetchedIssuers
        self.sctLogIDs = sctLogIDs
    }

    /// The handshake's failure, if it failed (a chain may still have been presented, e.g. when
    /// the server then demanded a client certificate).
    public var failure: ConnectionReport.Failure? { report.failure }
}

extension ConnectionResult {
    /// The evaluation as URLSession ends it: a handshake that failed after the chain was
    /// presented (the server then demanded a client certificate) fails the connection whatever
    /// evaluation said, with the handshake's URLError. Unchanged when the handshake succeeded.
    /// - Parameter evaluation: The evaluation of `chain`.
    /// - Returns: The evaluation with its verdict rewritten when the handshake failed.
    public func finalVerdict(_ evaluation: Evaluation) -> Evaluation {
        guard let failure else { return evaluation }
        var e = evaluation
        let url = failure.urlError ?? -1200
        let why = e.verdict.trusted ? "the chain is trusted, but " : ""
        e.verdict.trusted = false
        e.verdict.urlError = url
        e.verdict.summary =
            "Not trusted: \(why)\(failure.message); URLSession reports \(URLErrorNames.name(url)) (\(url))."
        return e
    }
}
