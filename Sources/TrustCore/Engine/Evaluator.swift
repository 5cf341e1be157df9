import ATSModel
import TrustX509

/// Re-enacts SecTrustEvaluateWithError: builds candidate paths, runs every check on them, picks
/// the trusted path or the best failed one, and derives Apple's codes. A pure function of
/// (chain, settings) apart from the signature cache, which only remembers results.
public final class Evaluator: Sendable {
    /// The signature cache shared by evaluations from this evaluator.
    public let cache: SignatureCache

    /// Creates an evaluator with its own (or a shared) signature cache.
    public init(cache: SignatureCache = SignatureCache()) { self.cache = cache }

    /// Evaluates `chain` (leaf first, as a server presents it); nil when the chain is empty.
    /// - Parameters:
    ///   - chain: The certificates, leaf first.
    ///   - settings: What to evaluate under, including the work limits.
    ///   - deadline: When the evaluation must end, whatever it has found; running past it ends
    ///     it with the `budget` step. Nil for no deadline (the count limits still apply).
    public func evaluate(
        chain: [Certificate], settings: TrustSettings, deadline: EvaluationDeadline? = nil
    ) -> Evaluation? {
        guard let leaf = chain.first else { return nil }
        return evaluate(
            leaf: leaf, presented: Array(chain.dropFirst()), settings: settings, original: chain, deadline: deadline)
    }

    /// Evaluates `leaf` with the other presented certificates in any order, within `deadline`.
    public func evaluate(
        leaf: Certificate, presented: [Certificate], settings: TrustSettings, deadline: EvaluationDeadline? = nil
    ) -> Evaluation {
        evaluate(leaf: leaf, presented: presented, settings: settings, original: [leaf] + presented, deadline: deadline)
    }

    private func evaluate(
        leaf: Certificate, presented: [Certificate], settings: TrustSettings,
        original: [Certificate], deadline: EvaluationDeadline?
    ) -> Evaluation {
        var meter = WorkMeter(limits: settings.limits, deadline: deadline)
        let policy = PolicyBuilder.policy(for: settings)
        let builder = PathBuilder(
            leaf: leaf, presented: presented, settings: settings, cache: cache,
            selfIssuedCountTowardsDepth: policy.selfIssuedCountTowardsDepth)
        var best: (path: BuiltPath, steps: [Step], score: Int, failures: Int)?
        // The path whose checks the budget interrupted, reported as it stands.
        var interrupted: (path: BuiltPath, steps: [Step])?
        var examined = 0
        // Every complete path that loses, with its failures; bounded by the paths budget.
        var rejected: [RejectedPath] = []
        func reject(_ path: BuiltPath, _ steps: [Step]) {
            rejected.append(RejectedPath(path: path, failures: steps.filter { $0.status == .failed }))
        }
        builder.build(budget: &meter) { path, budget in
            guard budget.chargePath() else { return true }
            examined += 1
            var steps: [Step] = []
            steps.reserveCapacity(16 * path.certificates.count)
            let context = CheckContext(
                path: path, settings: settings, cache: cache,
                understoodExtensions: policy.agreesWithDecoding ? nil : policy.understoodExtensions,
                otherCertificates: presented)
            policy.run(context, budget: &budget, into: &steps)
            if budget.exhausted != nil {
                interrupted = (path, steps)
                return true
            }
            var failures = 0
            var datesOK = true
            var hashOK = true
            var keyOK = true
            for s in steps where s.status == .failed {
                failures += 1
                switch s.id {
                case .validity: datesOK = false
                case .signatureAlgorithm: hashOK = false
                case .keySize: keyOK = false
                default: break
                }
            }
            // SecCertificateServer.c's path score.
            var score = 0
            if path.isAnchored { score += 10_000 }
            if path.endsSelfSigned { score += 1_000 }
            if datesOK { score += 100 }
            if hashOK { score += 10 }
            if keyOK { score += 10 }
            if best == nil || score > best!.score || (score == best!.score && failures < best!.failures) {
                if let previous = best { reject(previous.path, previous.steps) }
                best = (path, steps, score, failures)
            } else {
                reject(path, steps)
            }
            return failures == 0
        }
        var path: BuiltPath
        var steps: [Step]
        if let exhausted = meter.exhausted {
            // The work bound ran out: report what was found so far (the interrupted path, the best
            // complete one, or the leaf alone) and the budget step, which decides the verdict.
            if let interrupted {
                (path, steps) = interrupted
                if let best { reject(best.path, best.steps) }
            } else if let best {
                (path, steps) = (best.path, best.steps)
            } else {
                path = BuiltPath(
                    certificates: [leaf], sources: [.presented], anchorClass: nil, endsSelfSigned: false,
                    depthExceeded: false, rejected: [])
                steps = []
            }
            steps.append(
                Step(
                    .budget, nil, .failed,
                    BudgetFinding.budgetExhausted(budget: exhausted, limit: meter.limit(of: exhausted))))
        } else {
            // build always visits at least one path (the leaf alone) unless the budget ran out.
            (path, steps) = (best!.path, best!.steps)
        }
        let evaluationPassed = !steps.contains { $0.status == .failed }
        var atsPolicy: ATSHostPolicy?
        if let ats = settings.ats {
            let policy = ats.policy(forHost: ATSChecks.host(settings))
            atsPolicy = policy
            ATSChecks.run(path: path, settings: settings, ats: ats, policy: policy, into: &steps)
        }
        // The app's delegate is asked only once the TLS layer accepted the connection.
        let atsRefused = steps.contains { $0.status == .failed && $0.finding.atsFailure != nil }
        steps.append(
            pinStep(path: path, settings: settings, evaluationPassed: evaluationPassed, atsRefused: atsRefused))
        var verdict = Evaluator.verdict(steps: steps, path: path, settings: settings)
        verdict.certificateTransparency = Evaluator.isCertificateTransparent(steps)
        let ev = ExtendedValidation.assess(
            path: path, steps: steps, settings: settings, transparent: verdict.certificateTransparency)
        (verdict.extendedValidation, verdict.extendedValidationFailure) = (ev.isEV, ev.failure)
        var evaluation = Evaluation(
            presented: original, path: path, steps: steps, verdict: verdict, settings: settings,
            candidatePaths: examined)
        evaluation.rejectedPaths = rejected
        evaluation.atsPolicy = atsPolicy
        evaluation.pinAdvice = PinAdvice.advise(path: path, presented: original, settings: settings)
        return evaluation
    }

    func pinStep(path: BuiltPath, settings: TrustSettings, evaluationPassed: Bool, atsRefused: Bool = false) -> Step {
        let pins = settings.pins
        if pins.isEmpty { return Step(.pin, nil, .notApplicable, PinFinding.noPins) }
        guard evaluationPassed else {
            return Step(.pin, nil, .skipped("pins are checked only after evaluation passes"), PinFinding.pinNotChecked)
        }
        guard !atsRefused else {
            return Step(
                .pin, nil, .skipped("ATS refused the connection before the app's delegate was asked"),
                PinFinding.pinNotChecked)
        }
        for (i, cert) in path.certificates.enumerated() where pins.digests.contains(cert.spkiSHA256) {
            return Step(.pin, i, .passed, PinFinding.pinMatched(pin: cert.spkiPin))
        }
        return Step(.pin, nil, .failed, PinFinding.pinNotMatched(count: pins.digests.count))
    }

    /// The verdict, in the order a load meets its obstacles (docs/ats.md, D62): an http:// URL
    /// ATS refuses (-1022, nothing is connected); then a handshake ATS's client cannot complete
    /// (version, cipher, forward secrecy: -1200, no chain is evaluated); then SecTrust's
    /// evaluation, NSPinnedDomains included (-1202, or -1200 when NSPinnedDomains decides); then
    /// ATS's certificate requirements on an evaluation that passed (-1200).
    static func verdict(steps: [Step], path: BuiltPath, settings: TrustSettings) -> Verdict {
        let ats = steps.filter { $0.status == .failed && $0.finding.atsFailure != nil }
        if let step = ats.first(where: { $0.finding.atsFailure?.phase == .beforeConnection }) {
            return Verdict(
                trusted: false, osstatus: 0, resultType: .unspecified, urlError: -1022, decisiveStep: step,
                summary:
                    "Not trusted: \(step.title); URLSession refuses the URL before connecting and reports \(URLErrorNames.name(-1022)) (-1022)."
            )
        }
        if let step = ats.first(where: { $0.finding.atsFailure?.phase == .handshake }) {
            return atsVerdict(step, "the handshake never completes, so no certificate is evaluated")
        }
        // Without an ATS failure (every evaluation without ATS) the steps are passed as they are:
        // filtering copies every step, which re-evaluation after a toggle would pay each time.
        let trustSteps = ats.isEmpty ? steps : steps.filter { $0.finding.atsFailure == nil }
        var trust = trustVerdict(steps: trustSteps, path: path, settings: settings)
        if !trust.trusted {
            if let step = trust.decisiveStep, step.id == .pinnedDomains, !settings.delegateDecides {
                // NSPinnedDomains failures surface as a failed secure connection, not an untrusted certificate.
                trust.urlError = -1200
                trust.summary =
                    "Not trusted: \(step.title) — NSPinnedDomains, \(OSStatusNames.name(trust.osstatus)) (\(trust.osstatus)); URLSession reports \(URLErrorNames.name(-1200)) (-1200) with stream error -9802 (\(OSStatusNames.name(-9802)))."
            }
            return trust
        }
        if let step = ats.first(where: { $0.finding.atsFailure?.phase == .certificate }) {
            return atsVerdict(step, "evaluation passed, but ATS's minimums for the server's certificates do not")
        }
        return trust
    }

    /// A load ATS's TLS layer stops: -1200, with the errSSLATS code as the status.
    static func atsVerdict(_ step: Step, _ when: String) -> Verdict {
        let code = step.finding.atsFailure?.osstatus ?? -9880
        let index = step.certificate.map { " on certificate \($0)" } ?? ""
        return Verdict(
            trusted: false, osstatus: code, resultType: .unspecified, urlError: -1200, decisiveStep: step,
            summary:
                "Not trusted: \(step.title)\(index) — ATS refuses the connection (\(when)), \(OSStatusNames.name(code)) (\(code)); URLSession reports \(URLErrorNames.name(-1200)) (-1200) with stream error -9802 (\(OSStatusNames.name(-9802)))."
        )
    }

    /// Apple's priority rule: the highest-priority subtype anywhere wins; ties go to the lowest
    /// certificate index (SecTrust.c).
    static func trustVerdict(steps: [Step], path: BuiltPath, settings: TrustSettings) -> Verdict {
        var decisive: (Step, AppleFailure)?
        var anyFailure = false
        var fatal = false
        for step in steps where step.status == .failed {
            anyFailure = true
            guard let failure = step.appleFailure else { continue }
            if failure.fatal { fatal = true }
            let index = step.certificate ?? path.certificates.count
            if let (current, cf) = decisive {
                let currentIndex = current.certificate ?? path.certificates.count
                if failure.subtype > cf.subtype || (failure.subtype == cf.subtype && index < currentIndex) {
                    decisive = (step, failure)
                }
            } else {
                decisive = (step, failure)
            }
        }
        // An evaluation the budget ended has not finished: the budget step decides, whatever
        // the partial path's other failures (D35).
        // It is second to last (before the pin step), so it is looked for from the end, and only
        // when something failed.
        if anyFailure, let i = steps.lastIndex(where: { $0.id == .budget }), let f = steps[i].appleFailure {
            decisive = (steps[i], f)
        }
        let leafName = path.certificates[0].displayName
        if !anyFailure {
            let anchor = path.certificates[path.certificates.count - 1].displayName
            let via = path.anchorClass?.phrase ?? AnchorClass.custom.phrase
            return Verdict(
                trusted: true, osstatus: 0, resultType: .unspecified, urlError: nil, decisiveStep: nil,
                summary: "Trusted: \(leafName) chains to \(anchor) (\(via)).")
        }
        let urlError = settings.delegateDecides ? -999 : -1202
        guard let (step, failure) = decisive else {
            // Evaluation itself passed; only the app's pin check failed (every other failing
            // finding carries an Apple code).
            return Verdict(
                trusted: false, osstatus: 0, resultType: .unspecified, urlError: urlError,
                decisiveStep: steps.first { $0.status == .failed },
                summary:
                    "Not trusted: the chain evaluates, but no certificate in it has a pinned key; the delegate cancels (URLError -999)."
            )
        }
        let resultType: TrustResultType = fatal ? .fatalTrustFailure : .recoverableTrustFailure
        let name = OSStatusNames.name(failure.osstatus)
        let index = step.certificate.map { " on certificate \($0)" } ?? ""
        return Verdict(
            trusted: false, osstatus: failure.osstatus, resultType: resultType, urlError: urlError,
            decisiveStep: step,
            summary:
                "Not trusted: \(step.title)\(index) — \(failure.check), \(name) (\(failure.osstatus)); URLSession reports \(URLErrorNames.name(urlError)) (\(urlError))."
        )
    }
}
