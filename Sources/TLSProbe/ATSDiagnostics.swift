import ATSModel
import TrustCore

/// One ATS configuration `trustx ats` tries against a server: the default policy, arbitrary
/// loads, or an NSExceptionDomains entry for the host with some exception keys, in the order
/// `nscurl --ats-diagnostics` tries them.
public struct ATSCombination: Hashable, Sendable {
    /// The group the combination is listed under.
    public enum Group: String, Hashable, Sendable, CaseIterable {
        /// ATS's defaults: no Info.plist key at all.
        case defaultPolicy = "default"
        /// NSAllowsArbitraryLoads: ATS off.
        case arbitraryLoads = "arbitrary-loads"
        /// NSExceptionMinimumTLSVersion alone.
        case tlsVersion = "tls-version"
        /// NSExceptionRequiresForwardSecrecy NO.
        case forwardSecrecy = "forward-secrecy"
        /// NSExceptionRequiresForwardSecrecy NO and NSExceptionAllowsInsecureHTTPLoads.
        case forwardSecrecyInsecureHTTP = "forward-secrecy-insecure-http"
        /// Each minimum version with forward secrecy not required.
        case tlsVersionForwardSecrecy = "tls-version-forward-secrecy"
        /// Each minimum version with forward secrecy not required and insecure HTTP loads.
        case tlsVersionForwardSecrecyInsecureHTTP = "tls-version-forward-secrecy-insecure-http"

        /// The heading, as nscurl words it.
        public var title: String {
            switch self {
            case .defaultPolicy: "Default ATS policy"
            case .arbitraryLoads: "Allowing arbitrary loads"
            case .tlsVersion: "TLS version exceptions"
            case .forwardSecrecy: "Forward secrecy exception"
            case .forwardSecrecyInsecureHTTP: "Forward secrecy exception and insecure HTTP loads"
            case .tlsVersionForwardSecrecy: "TLS version exceptions with forward secrecy not required"
            case .tlsVersionForwardSecrecyInsecureHTTP:
                "TLS version exceptions with forward secrecy not required and insecure HTTP loads"
            }
        }
    }

    /// The group.
    public var group: Group
    /// NSAllowsArbitraryLoads YES.
    public var allowsArbitraryLoads: Bool
    /// NSExceptionMinimumTLSVersion, when set.
    public var minimumTLSVersion: TLSVersion?
    /// NSExceptionRequiresForwardSecrecy NO.
    public var waivesForwardSecrecy: Bool
    /// NSExceptionAllowsInsecureHTTPLoads YES.
    public var allowsInsecureHTTPLoads: Bool

    /// Creates a combination.
    public init(
        _ group: Group, allowsArbitraryLoads: Bool = false, minimumTLSVersion: TLSVersion? = nil,
        waivesForwardSecrecy: Bool = false, allowsInsecureHTTPLoads: Bool = false
    ) {
        self.group = group
        self.allowsArbitraryLoads = allowsArbitraryLoads
        self.minimumTLSVersion = minimumTLSVersion
        self.waivesForwardSecrecy = waivesForwardSecrecy
        self.allowsInsecureHTTPLoads = allowsInsecureHTTPLoads
    }

    /// The sixteen combinations, in nscurl's order: default; arbitrary loads; minimum TLS 1.3 down
    /// to 1.0; forward secrecy off; forward secrecy off with insecure HTTP loads; each minimum
    /// with forward secrecy off; each with forward secrecy off and insecure HTTP loads.
    public static let all: [ATSCombination] = {
        let versions: [TLSVersion] = [.tls1_3, .tls1_2, .tls1_1, .tls1_0]
        var out = [ATSCombination(.defaultPolicy), ATSCombination(.arbitraryLoads, allowsArbitraryLoads: true)]
        out += versions.map { ATSCombination(.tlsVersion, minimumTLSVersion: $0) }
        out.append(ATSCombination(.forwardSecrecy, waivesForwardSecrecy: true))
        out.append(
            ATSCombination(.forwardSecrecyInsecureHTTP, waivesForwardSecrecy: true, allowsInsecureHTTPLoads: true))
        out += versions.map {
            ATSCombination(.tlsVersionForwardSecrecy, minimumTLSVersion: $0, waivesForwardSecrecy: true)
        }
        out += versions.map {
            ATSCombination(
                .tlsVersionForwardSecrecyInsecureHTTP, minimumTLSVersion: $0, waivesForwardSecrecy: true,
                allowsInsecureHTTPLoads: true)
        }
        return out
    }()

    /// The keys this combination writes, as `Key = value` (empty for the default policy).
    public var keys: [(key: String, value: String)] {
        if allowsArbitraryLoads { return [("NSAllowsArbitraryLoads", "YES")] }
        var out: [(String, String)] = []
        if let v = minimumTLSVersion { out.append(("NSExceptionMinimumTLSVersion", Self.plistSpelling(v))) }
        if waivesForwardSecrecy { out.append(("NSExceptionRequiresForwardSecrecy", "NO")) }
        if allowsInsecureHTTPLoads { out.append(("NSExceptionAllowsInsecureHTTPLoads", "YES")) }
        return out
    }

    /// `ATS default connection`, or the keys joined: `NSExceptionMinimumTLSVersion = TLSv1.1`.
    public var name: String {
        keys.isEmpty ? "ATS default connection" : keys.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
    }

    /// `TLSv1.2`: the only spellings NSExceptionMinimumTLSVersion honours.
    public static func plistSpelling(_ v: TLSVersion) -> String {
        switch v {
        case .tls1_0: "TLSv1.0"
        case .tls1_1: "TLSv1.1"
        case .tls1_2: "TLSv1.2"
        case .tls1_3: "TLSv1.3"
        }
    }

    /// How much the combination relaxes ATS, to find the smallest set a server needs: each
    /// version below 1.2 counts once per step down, waiving forward secrecy and allowing insecure
    /// HTTP once each; arbitrary loads (ATS off for every host) outweighs any exception.
    public var relaxation: Int {
        if allowsArbitraryLoads { return 100 }
        var n = 0
        if let v = minimumTLSVersion, v < .tls1_2 { n += v == .tls1_1 ? 1 : 2 }
        if waivesForwardSecrecy { n += 1 }
        if allowsInsecureHTTPLoads { n += 1 }
        return n
    }

    /// The app's NSAppTransportSecurity for this combination, the exception keyed by `host`.
    public func configuration(host: String) -> ATSConfiguration {
        if allowsArbitraryLoads { return ATSConfiguration(allowsArbitraryLoads: true) }
        guard !keys.isEmpty else { return ATSConfiguration() }
        return ATSConfiguration(exceptionDomains: [
            ATSExceptionDomain(
                domain: host, allowsInsecureHTTPLoads: allowsInsecureHTTPLoads ? true : nil,
                minimumTLSVersionText: minimumTLSVersion.map(Self.plistSpelling),
                requiresForwardSecrecy: waivesForwardSecrecy ? false : nil)
        ])
    }

    /// The policy whose offer the probe makes: taken from the combination itself, not from the
    /// host's resolution, so that a local host (which ATS exempts) still meets each offer. Nil for
    /// arbitrary loads, where the probe offers everything.
    public func offerPolicy(host: String) -> ATSHostPolicy? {
        if allowsArbitraryLoads { return nil }
        return ATSHostPolicy(
            reason: name, matchedException: keys.isEmpty ? nil : host, minimumTLSVersion: minimumTLSVersion ?? .tls1_2,
            requiresForwardSecrecy: !waivesForwardSecrecy, allowsInsecureHTTP: allowsInsecureHTTPLoads)
    }

    /// The Info.plist fragment that configures this combination for `host` (XML, tab-indented
    /// as Xcode writes it); nil for the default policy, which needs no key.
    public func infoPlistFragment(host: String) -> String? {
        keys.isEmpty ? nil : configuration(host: host).infoPlistFragment()
    }
}

/// What one combination gave.
public struct ATSCombinationResult: Sendable {
    /// PASS, FAIL, or not tried because the run's deadline had passed.
    public enum Outcome: String, Hashable, Sendable {
        /// The handshake completed and the evaluation trusted the server.
        case pass = "PASS"
        /// The handshake or the evaluation failed.
        case fail = "FAIL"
        /// The deadline passed before this combination's turn.
        case notTried = "NOT TRIED"
    }

    /// The combination.
    public var combination: ATSCombination
    /// The outcome.
    public var outcome: Outcome
    /// The URLError the app would see, nil on PASS.
    public var urlError: Int?
    /// What failed: `handshake`, or the evaluation step that decided the verdict (its id).
    public var step: String?
    /// Why, in one line (server text sanitised by the renderer, not here).
    public var reason: String
    /// What the handshake negotiated, when it completed.
    public var negotiated: NegotiatedTLS?
    /// The connection's failure kind, when the handshake failed.
    public var failureKind: ConnectionReport.Failure.Kind?
}

/// Every combination's result for one server, and what they add up to.
public struct ATSDiagnosis: Sendable {
    /// The host the app would load (the exception domain's key and the name checked).
    public var host: String
    /// The port.
    public var port: Int
    /// The address actually dialled, when `--connect-to` redirected it.
    public var connectTo: String?
    /// The platform whose rules the evaluation follows.
    public var platform: ATSPlatform
    /// The results, in `ATSCombination.all` order; empty when the server was unreachable.
    public var results: [ATSCombinationResult]
    /// Why the server could not be diagnosed at all (the first handshake could not reach it).
    public var unreachable: ConnectionReport.Failure?
    /// When ATS does not apply to this host at all (a local host): the policy's reason.
    public var exemption: String?
    /// What the server does when offered everything, when the default policy's handshake failed.
    public var explanation: String?

    /// Whether the default policy passed.
    public var defaultPasses: Bool { results.first?.outcome == .pass }

    /// The passing combination that relaxes ATS least (ties: fewer keys, then nscurl's order);
    /// nil when none passed.
    public var smallest: ATSCombinationResult? {
        var best: ATSCombinationResult?
        for r in results where r.outcome == .pass {
            guard let b = best else {
                best = r
                continue
            }
            let (c, d) = (r.combination, b.combination)
            if (c.relaxation, c.keys.count) < (d.relaxation, d.keys.count) { best = r }
        }
        return best
    }
}

/// The `nscurl --ats-diagnostics` equivalent: each combination's offer in a fresh handshake, the
/// chain evaluated with that combination's ATS configuration, all under one deadline.
public enum ATSDiagnostics {
    /// Runs every combination against `target`.
    /// - Parameters:
    ///   - target: The server.
    ///   - options: How to connect; `timeout` bounds the whole run, every handshake, AIA fetch and
    ///     evaluation included. Versions and suites are replaced by each combination's offer.
    ///   - settings: The trust settings (anchors, system store, policy, time); `ats` and
    ///     `negotiated` are set per combination.
    ///   - platform: The platform whose ATS rules apply.
    ///   - fetchAIA: Whether missing intermediates are fetched (as Apple's SSL policy does).
    /// - Returns: The diagnosis.
    public static func run(
        _ target: ProbeTarget, options: ProbeOptions, settings: TrustSettings, platform: ATSPlatform,
        fetchAIA: Bool = true
    ) -> ATSDiagnosis {
        let host = target.host.lowercased()
        let deadline = ContinuousClock.now.advanced(by: options.timeout)
        var diagnosis = ATSDiagnosis(
            host: host, port: Int(target.port), connectTo: target.connectTo?.description, platform: platform,
            results: [])
        let defaultPolicy = ATSSettings(platform: platform).policy(forHost: host)
        if !defaultPolicy.enforced { diagnosis.exemption = defaultPolicy.reason }
        let evaluator = Evaluator()
        for combination in ATSCombination.all {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                diagnosis.results.append(
                    ATSCombinationResult(
                        combination: combination, outcome: .notTried, urlError: nil, step: nil,
                        reason: "not tried: the deadline had passed"))
                continue
            }
            var offer = options
            offer.timeout = left
            let policy = combination.offerPolicy(host: host)
            offer = policy.map { offer.offeringATS($0) } ?? offer.observingEverything()
            // Arbitrary loads leave the minimum unset: the SDK's default applies (TLS 1.2 from the 26 SDKs).
            if policy == nil { offer.minimumVersion = platform.defaultMinimumTLSVersion }
            let connection = ServerConnection.connect(
                target, options: offer, fetchAIA: fetchAIA && settings.policy.isSSL, anchors: settings.anchors,
                systemStore: settings.systemStore,
                deadline: EvaluationDeadline(at: deadline, allowance: options.timeout))
            if let failure = connection.failure, connection.chain.isEmpty {
                if diagnosis.results.isEmpty && !failure.kind.refusesOffer {
                    diagnosis.unreachable = failure
                    return diagnosis
                }
                diagnosis.results.append(
                    ATSCombinationResult(
                        combination: combination, outcome: .fail, urlError: failure.urlError ?? -1200,
                        step: "handshake", reason: failure.message, failureKind: failure.kind))
                continue
            }
            var chosen = settings
            chosen.ats = ATSSettings(configuration: combination.configuration(host: host), platform: platform)
            chosen.negotiated = connection.negotiated
            chosen.fetchedIssuers = connection.fetchedIssuers
            chosen.presentedSCTs = connection.presentedSCTs
            chosen.stapledOCSPResponse = connection.ocspResponse
            let evaluationDeadline = EvaluationDeadline(at: deadline, allowance: options.timeout)
            guard
                let raw = evaluator.evaluate(chain: connection.chain, settings: chosen, deadline: evaluationDeadline)
            else {
                diagnosis.results.append(
                    ATSCombinationResult(
                        combination: combination, outcome: .fail, urlError: -1200, step: "handshake",
                        reason: "the server sent no certificate"))
                continue
            }
            let evaluation = connection.finalVerdict(raw)
            let verdict = evaluation.verdict
            if verdict.trusted {
                diagnosis.results.append(
                    ATSCombinationResult(
                        combination: combination, outcome: .pass, urlError: nil, step: nil,
                        reason: "trusted", negotiated: connection.negotiated))
            } else {
                let step = verdict.decisiveStep ?? evaluation.failures.first
                let what = step.map { "\($0.title) (\(OSStatusNames.name(verdict.osstatus)))" } ?? verdict.summary
                diagnosis.results.append(
                    ATSCombinationResult(
                        combination: combination, outcome: .fail, urlError: verdict.urlError,
                        step: step?.id.rawValue ?? (connection.failure == nil ? nil : "handshake"),
                        reason: connection.failure?.message ?? what, negotiated: connection.negotiated,
                        failureKind: connection.failure?.kind))
            }
        }
        // Arbitrary loads offer everything: what the server chose there explains a refusal. From a 26
        // SDK they offer TLS 1.2 and up, and the most relaxed exception (TLS 1.0, every suite) does.
        let observing =
            diagnosis.results.first { $0.combination.allowsArbitraryLoads && $0.negotiated != nil }
            ?? diagnosis.results.last { $0.combination.relaxation == 4 }
        if let first = diagnosis.results.first, first.outcome == .fail, first.step == "handshake",
            let observed = observing?.negotiated
        {
            diagnosis.explanation = ATSHandshakeFailure.explain(
                observed: observed, policy: ATSCombination(.defaultPolicy).offerPolicy(host: host) ?? ATSHostPolicy())
        }
        return diagnosis
    }
}
