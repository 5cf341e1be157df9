import ATSModel
import TrustCore
import TrustSupport
import TrustX509

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
    ///   - atsPolicy: What ATS requires of this host, when the app's ATS configuration is being
    ///     judged. When it is enforced, the first handshake offers what an ATS client offers;
    ///     if the server refuses that offer, a second handshake offering everything (TLS 1.0 to
    ///     1.3, every suite) learns what the server does, and the result carries both. Nil, or
    ///     not enforced: one handshake with `options`, as without ATS.
    ///   - deadline: The run's deadline, when the caller has one (`trustx check --timeout`): the
    ///     handshakes and AIA fetches all end by it. Nil: `options.timeout` from now.
    /// - Returns: The presented chain and the handshake facts; on failure, an empty chain (or the
    ///   chain seen before a client-certificate failure) and the report's `failure`. With
    ///   `options.sendsAppleClientHello`, the report also says what the server answered to iOS 26's
    ///   ClientHello, sent afterwards on a connection of its own, when the server was reached.
    public static func connect(
        _ target: ProbeTarget, options: ProbeOptions, fetchAIA: Bool, anchors: [Certificate],
        systemStore: (any IssuerSource)?, atsPolicy: ATSHostPolicy? = nil, deadline: EvaluationDeadline? = nil
    ) -> ConnectionResult {
        let deadline = deadline ?? EvaluationDeadline(after: options.timeout)
        var result = observe(
            target, options: options, fetchAIA: fetchAIA, anchors: anchors, systemStore: systemStore,
            atsPolicy: atsPolicy, deadline: deadline)
        if options.sendsAppleClientHello && result.failure?.kind.reachedTheServer ?? true {
            result.report.appleClientHello = AppleHelloProbe.run(target, options: options, deadline: deadline)
        }
        return result
    }

    /// The real handshake (two under a refused ATS offer) and the chain completed through AIA.
    static func observe(
        _ target: ProbeTarget, options: ProbeOptions, fetchAIA: Bool, anchors: [Certificate],
        systemStore: (any IssuerSource)?, atsPolicy: ATSHostPolicy?, deadline: EvaluationDeadline
    ) -> ConnectionResult {
        guard let atsPolicy, atsPolicy.enforced else {
            return connectOnce(
                target, options: options.within(deadline), fetchAIA: fetchAIA, anchors: anchors,
                systemStore: systemStore, deadline: deadline)
        }
        let atsOptions = options.offeringATS(atsPolicy)
        let first = connectOnce(
            target, options: atsOptions.within(deadline), fetchAIA: fetchAIA, anchors: anchors,
            systemStore: systemStore, deadline: deadline)
        guard let refusal = first.failure, refusal.kind.refusesOffer else { return first }
        let offered = ATSHandshakeFailure.describe(atsOptions)
        // One deadline for both handshakes: the observer gets what the first one left.
        let observing = options.observingEverything().within(deadline)
        guard !deadline.hasPassed else {
            var result = first
            result.atsHandshakeFailure = ATSHandshakeFailure(failure: refusal, offered: offered, explanation: nil)
            return result
        }
        var observed = connectOnce(
            target, options: observing, fetchAIA: fetchAIA, anchors: anchors, systemStore: systemStore,
            deadline: deadline)
        observed.atsHandshakeFailure = ATSHandshakeFailure(
            failure: refusal, offered: offered,
            explanation: observed.failure == nil
                ? ATSHandshakeFailure.explain(observed: observed.negotiated, policy: atsPolicy) : nil)
        var why = "refused (\(offered)): \(refusal.message)"
        if let explanation = observed.atsHandshakeFailure?.explanation {
            why += "; \(explanation); the facts shown are from that handshake"
        } else {
            why += "; a second handshake offering everything showed what the server speaks"
        }
        observed.report.atsRefusal = why
        return observed
    }

    /// One handshake with `options`, the chain decoded and completed through AIA.
    static func connectOnce(
        _ target: ProbeTarget, options: ProbeOptions, fetchAIA: Bool, anchors: [Certificate],
        systemStore: (any IssuerSource)?, deadline: EvaluationDeadline
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
                    message:
                        "the server's certificate \(i) is malformed: byte \(error.offset): \(InputExcerpt.quote(error.reason))",
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
            // What the handshake left of the run's time, not a fresh timeout.
            let result = AIAFetcher().completeChain(
                presented: chain, anchors: anchors, issuers: systemStore, deadline: deadline)
            fetched = result.fetched
            report.aiaFetches = result.attempts.map(fetchFact)
        }
        let presentedSCTs = handshake.scts.filter { $0.source == .tlsExtension }.map(\.encoded)
        var result = ConnectionResult(
            chain: chain, report: report, fetchedIssuers: fetched, presentedSCTs: presentedSCTs)
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
            outcome = "fetched \(n) certificate\(n == 1 ? "" : "s") in \(formatMilliseconds(a.milliseconds)) ms"
        case .failed(let why): outcome = "failed: \(why)"
        case .skipped(let why): outcome = "not fetched: \(why)"
        }
        return ConnectionReport.Fetch(url: HTTPGet.quoted(a.url), outcome: outcome)
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
    /// The SCTs of the TLS extension, each TLS-encoded (those of the OCSP staple are in `ocspResponse`).
    public var presentedSCTs: [[UInt8]]
    /// The OCSP response the server stapled (DER), for the evaluator to verify.
    public var ocspResponse: [UInt8]?
    /// What the handshake negotiated (version, cipher suite, group), for ATS's connection rules.
    public var negotiated: NegotiatedTLS?
    /// When ATS was enforced and the server refused ATS's offer: that refusal. The chain,
    /// `report` and `negotiated` then come from the second, observing handshake.
    public var atsHandshakeFailure: ATSHandshakeFailure?

    /// Creates a result.
    public init(
        chain: [Certificate], report: ConnectionReport, fetchedIssuers: [Certificate] = [],
        presentedSCTs: [[UInt8]] = []
    ) {
        self.chain = chain
        self.report = report
        self.fetchedIssuers = fetchedIssuers
        self.presentedSCTs = presentedSCTs
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
        guard let failure else {
            guard let ats = atsHandshakeFailure else { return evaluation }
            // The app's own handshake (ATS's offer) failed; the chain came from the observer.
            var e = evaluation
            let why = e.verdict.trusted ? "the chain is trusted, but " : ""
            e.verdict.trusted = false
            e.verdict.urlError = -1200
            e.verdict.summary =
                "Not trusted: \(why)the server refused ATS's offer (\(ats.offered)): \(ats.failure.message)"
                + (ats.explanation.map { "; \($0)" } ?? "")
                + "; URLSession reports \(URLErrorNames.name(-1200)) (-1200)."
            return e
        }
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

/// The refusal of ATS's offer by a server, and what an observing handshake learnt about why.
public struct ATSHandshakeFailure: Sendable {
    /// The ATS handshake's failure (URLError -1200).
    public var failure: ConnectionReport.Failure
    /// What was offered, e.g. `TLS 1.2-1.3 with ATS's cipher suites (forward secrecy required)`.
    public var offered: String
    /// Why, from what the server chose when offered everything, e.g. `the server speaks at most
    /// TLS 1.1, below ATS's minimum TLS 1.2`; nil when the observing handshake failed too.
    public var explanation: String?

    /// Creates a refusal record.
    public init(failure: ConnectionReport.Failure, offered: String, explanation: String?) {
        self.failure = failure
        self.offered = offered
        self.explanation = explanation
    }

    /// `TLS 1.2-1.3 with ATS's cipher suites (forward secrecy required)`.
    static func describe(_ o: ProbeOptions) -> String {
        let versions =
            o.minimumVersion == o.maximumVersion
            ? o.minimumVersion.description : "\(o.minimumVersion)-\(o.maximumVersion.description.dropFirst(4))"
        return "\(versions) with \(o.cipherOffer)"
    }

    /// Why a server that completed a handshake offering everything refused ATS's offer, read
    /// from what it chose: its version (a server picks the highest it speaks), or its suite.
    /// - Parameters:
    ///   - observed: What the observing handshake negotiated.
    ///   - policy: The ATS policy whose offer was refused.
    /// - Returns: One clause for a person, nil without an observation.
    public static func explain(observed: NegotiatedTLS?, policy: ATSHostPolicy) -> String? {
        guard let observed else { return nil }
        if observed.version < policy.minimumTLSVersion {
            return "offered everything, the server chose \(observed.version): it speaks at most \(observed.version), "
                + "below ATS's minimum \(policy.minimumTLSVersion) (NSExceptionMinimumTLSVersion)"
        }
        let id = observed.cipherSuite
        if ATSCipherSuite.tls13IDs.contains(id) || ATSCipherSuite.forwardSecret.contains(where: { $0.id == id }) {
            return "offered everything, the server chose \(observed.version) with \(observed.cipherName), "
                + "which ATS offers too: the refusal lies elsewhere (key-exchange group or signature algorithm)"
        }
        if ATSCipherSuite.withoutForwardSecrecy.contains(where: { $0.id == id }) {
            return policy.requiresForwardSecrecy
                ? "offered everything, the server chose \(observed.cipherName): RSA key exchange, no forward "
                    + "secrecy, which ATS offers only with NSExceptionRequiresForwardSecrecy NO"
                : "offered everything, the server chose \(observed.cipherName), which ATS offers here: "
                    + "the refusal lies elsewhere (key-exchange group or signature algorithm)"
        }
        return "offered everything, the server chose \(observed.version) with \(observed.cipherName), "
            + "a suite ATS never offers (no exception adds it)"
    }
}

extension ProbeOptions {
    /// These options with the timeout cut to what is left before `deadline`. Once it has passed,
    /// a millisecond: the probe then fails as timed out rather than refusing a zero timeout as
    /// an invalid option.
    func within(_ deadline: EvaluationDeadline) -> ProbeOptions {
        var o = self
        o.timeout = min(timeout, max(.milliseconds(1), deadline.instant - ContinuousClock.now))
        return o
    }
}

extension ConnectionReport.Failure.Kind {
    /// Whether the server refused what was offered (version, suite, an alert, a close during the
    /// handshake), as opposed to being unreachable or asking for a client certificate: only then
    /// can a wider offer learn more.
    var refusesOffer: Bool {
        switch self {
        case .noCommonVersion, .noCommonCipher, .tlsAlert, .closedDuringHandshake: true
        default: false
        }
    }

    /// Whether a handshake that failed so had reached the server's TLS (the Apple hello would
    /// learn something), as opposed to failing before: no name, no connection, no time, no tunnel.
    var reachedTheServer: Bool {
        switch self {
        case .invalidTarget, .invalidOption, .unknownHost, .connectionRefused, .cannotConnect, .timedOut,
            .proxyFailed, .startTLSFailed:
            false
        default: true
        }
    }
}
