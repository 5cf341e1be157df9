import RevocationRules
import TrustSupport
import TrustX509

/// `revocation`: the leaf against the OCSP response the server stapled (RFC 6960), and the
/// certificates of the path against the CRLs supplied (RFC 5280 6.3), as Apple's Revocation check
/// reports a revoked one (errSecCertificateRevoked, -67820, fatal). The step appears only when
/// there is revocation information.
///
/// Every signature of a CRL or an OCSP response is charged to the evaluation's budget, once per
/// (CRL or response, key) whatever the number of paths and certificates that meet it, and its
/// result comes from the evaluator's signature cache; the deadline is checked before each. When
/// either runs out, the certificate's step says so and the evaluation ends with the `budget` step.
struct RevocationCheck: PathCheck {
    /// Whether revocation information that cannot be used fails the certificate (RFC 5280
    /// 6.3.3) instead of being ignored, as Apple's fail-soft checking does.
    let unusableInformationFails: Bool

    // The CRLs fetched from the distribution points are judged here.
    var enforcedExtensions: Set<OID> { [.crlDistributionPoints] }

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        let crls = c.settings.revocationLists
        let staple = c.settings.stapledOCSPResponse
        let fetched = c.settings.fetchedOCSPResponses
        let fetching = c.settings.revocationFetched
        guard c.settings.requireRevocation || !crls.isEmpty || staple != nil || !fetched.isEmpty || fetching
        else { return }
        outer: for i in 0..<c.count where !c.isAnchor(i) {
            var ocspProblem: String?
            guard budget.withinTime() else { return stopped(c, i, budget, into: &steps) }
            if i == 0, let staple, c.count > 1 {
                switch stapled(staple, leaf: c.certificates[0], issuer: c.certificates[1], context: c, budget: &budget)
                {
                case .success(let step):
                    steps.append(step)
                    continue
                case .failure(.budget): return stopped(c, i, budget, into: &steps)
                case .failure(.unusable(let why)): ocspProblem = why
                }
            }
            // Responses fetched over the network (--revocation), about this certificate.
            if i + 1 < c.count {
                for der in fetched {
                    guard let response = try? OCSPResponse(der: der),
                        response.response(for: c.certificates[i], issuer: c.certificates[i + 1]) != nil
                    else { continue }
                    switch judge(
                        response, leaf: c.certificates[i], issuer: c.certificates[i + 1], context: c, budget: &budget,
                        source: "The OCSP response fetched from the responder", index: i)
                    {
                    case .success(let step):
                        steps.append(step)
                        continue outer
                    case .failure(.budget): return stopped(c, i, budget, into: &steps)
                    case .failure(.unusable(let why)): ocspProblem = ocspProblem ?? why
                    }
                }
            }
            guard judgeCRLs(c, i, ocspProblem: ocspProblem, budget: &budget, into: &steps) else { return }
        }
    }

    /// The certificate's step from the CRLs (RFC 5280 6.3), when OCSP did not decide it; false
    /// when the budget or the deadline stopped it.
    func judgeCRLs(
        _ c: CheckContext, _ i: Int, ocspProblem: String?, budget: inout WorkMeter, into steps: inout [Step]
    ) -> Bool {
        let crls = c.settings.revocationLists
        let require = c.settings.requireRevocation
        let cert = c.certificates[i]
        var outcome: CRLValidation.Outcome?
        if i + 1 < c.count, !crls.isEmpty {
            var work = EvaluationWork(cache: c.cache, budget: budget)
            let o = CRLValidation(
                certificates: c.certificates, otherCertificates: c.otherCertificates, crls: crls, time: c.settings.time,
                requirePositive: require
            )
            .validate(cert, issuerIndex: i + 1, work: &work)
            budget = work.budget
            if o.stopped {
                stopped(c, i, budget, into: &steps)
                return false
            }
            outcome = o
        }
        let evidence = outcome?.evidence ?? []
        switch outcome?.status {
        case .revoked(let date, let reason, let signer)?:
            let why = reason.map { " (reason \(RevocationFinding.reasonName($0)))" } ?? ""
            steps.append(
                Step(
                    .revocation, i, .failed,
                    RevocationFinding.certificateRevoked(
                        date: date, source: "A current CRL signed by \(signer)\(why)", evidence: evidence)))
            return true
        case .unrevoked(let signers)?:
            let finding = RevocationFinding.notRevoked(issuer: signers.joined(separator: ", "), evidence: evidence)
            steps.append(Step(.revocation, i, .passed, finding))
            return true
        case .undetermined?, nil: break
        }
        let defective = (ocspProblem.map { ["OCSP response unusable: \($0)"] } ?? []) + (outcome?.defective ?? [])
        if require {
            let why: String
            if i + 1 >= c.count {
                why = "Its issuer is not on the path, so no CRL or OCSP response about it can be verified."
            } else if crls.isEmpty && ocspProblem == nil {
                why = "No OCSP response or CRL about it was at hand."
            } else {
                why = "No OCSP response or CRL at hand gives a positive, verified answer about it."
            }
            steps.append(
                Step(
                    .revocation, i, .failed,
                    RevocationFinding.responseRequired(
                        reason: why, evidence: (ocspProblem.map { ["OCSP response unusable: \($0)"] } ?? []) + evidence)
                ))
            return true
        }
        if outcome == nil, let ocspProblem, !require {
            steps.append(
                unusableInformationFails
                    ? Step(
                        .revocation, i, .failed,
                        ComplianceFinding.nonCompliant(detail: "stapled OCSP response unusable: \(ocspProblem)"))
                    : Step(
                        .revocation, i, .skipped("the stapled OCSP response cannot be used"),
                        RevocationFinding.revocationNotChecked(
                            reason:
                                "Stapled OCSP response unusable: \(ocspProblem). Apple's revocation checking fails soft: information it cannot use is ignored."
                        )))
            return true
        }
        if !defective.isEmpty {
            if unusableInformationFails {
                // RFC 5280 6.3.3: without usable information the status cannot be determined.
                for p in defective {
                    steps.append(Step(.revocation, i, .failed, ComplianceFinding.nonCompliant(detail: p)))
                }
            } else {
                // Apple's revocation checking fails soft: information it cannot use is ignored.
                steps.append(
                    Step(
                        .revocation, i,
                        .skipped(
                            outcome == nil ? "the stapled OCSP response cannot be used" : "the CRL cannot be used"),
                        RevocationFinding.revocationNotChecked(
                            reason: defective.joined(separator: "; ")
                                + ". Apple's revocation checking fails soft: information it cannot use is ignored.",
                            evidence: evidence)))
            }
            return true
        }
        if i + 1 >= c.count, !crls.isEmpty {
            steps.append(
                Step(
                    .revocation, i, .skipped("its issuer is not on the path"),
                    RevocationFinding.revocationNotChecked(
                        reason: "A CRL is checked with its issuer's key; this issuer was not found.")))
        } else if !crls.isEmpty {
            steps.append(
                Step(
                    .revocation, i, .skipped("no CRL from its issuer"),
                    RevocationFinding.revocationNotChecked(
                        reason:
                            "None of the CRLs supplied covers this certificate (issued by \(InputExcerpt.quote(cert.issuer.description))).",
                        evidence: evidence)))
        } else if c.settings.revocationFetched {
            steps.append(
                Step(
                    .revocation, i, .skipped("no revocation information could be fetched"),
                    RevocationFinding.revocationNotChecked(
                        reason:
                            "Neither an OCSP responder nor a CRL distribution point of this certificate answered; Apple's revocation checking fails soft and accepts it."
                    )))
        }
        return true
    }

    /// Why revocation information did not decide a certificate's status.
    enum Unusable: Error, Equatable {
        /// It cannot be used, for this reason.
        case unusable(String)
        /// The evaluation's budget or deadline ran out before its signature could be checked.
        case budget
    }

    /// The certificate's step when the budget or the deadline stopped its revocation check; the
    /// evaluator then ends the evaluation with the `budget` step.
    func stopped(_ c: CheckContext, _ i: Int, _ budget: WorkMeter, into steps: inout [Step]) {
        let kind = budget.exhausted ?? .time
        steps.append(
            Step(
                .revocation, i, .skipped("the evaluation's budget ran out before its revocation was checked"),
                BudgetFinding.budgetExhausted(budget: kind, limit: budget.limit(of: kind))))
    }

    /// `key` checks `object`'s signature: charged to the budget (once per evaluation), served from
    /// the signature cache when it was verified before; nil when the budget or deadline ran out.
    func verify(
        _ object: DetachedSignature, key: PublicKeyInfo, keyIdentity: DigestKey, _ c: CheckContext,
        budget: inout WorkMeter
    ) -> SignatureCheckResult? {
        guard budget.chargeRevocationSignature(object: object.identity, key: keyIdentity) else { return nil }
        return c.cache.check(object, signedBy: key, keyIdentity: keyIdentity)
    }

    /// The leaf's step from the stapled response, or why the response cannot decide it.
    func stapled(
        _ der: [UInt8], leaf: Certificate, issuer: Certificate, context c: CheckContext, budget: inout WorkMeter,
        source: String = "The stapled OCSP response", index: Int = 0
    ) -> Result<Step, Unusable> {
        let response: OCSPResponse
        do {
            response = try OCSPResponse(der: der)
        } catch {
            return .failure(.unusable("it does not decode (byte \(error.offset): \(error.reason))"))
        }
        return judge(
            response, leaf: leaf, issuer: issuer, context: c, budget: &budget, source: source, index: index)
    }

    /// The certificate's step from a decoded response, or why the response cannot decide it.
    func judge(
        _ response: OCSPResponse, leaf: Certificate, issuer: Certificate, context c: CheckContext,
        budget: inout WorkMeter, source: String,
        index: Int
    ) -> Result<Step, Unusable> {
        let time = c.settings.time
        guard let single = response.response(for: leaf, issuer: issuer) else {
            return .failure(.unusable("it holds no response whose CertID names this certificate and its issuer"))
        }
        let search = response.signer(
            issuer: issuer,
            verifyResponse: { key, identity in
                verify(response.detachedSignature, key: key, keyIdentity: identity, c, budget: &budget)
            },
            verifyCertificate: { responder in
                guard budget.chargeRevocationSignature(object: responder.identity, key: issuer.keyIdentity)
                else { return nil }
                return c.cache.check(responder, signedBy: issuer)
            })
        let signer: String
        switch search {
        case .signer(let name): signer = name
        case .stopped: return .failure(.budget)
        case .none(let refusal?):
            return .failure(.unusable("a signer's key is refused before verifying its signature: \(refusal)"))
        case .none(nil):
            return .failure(
                .unusable(
                    "its signature verifies neither with the issuer's key nor with a responder certificate the issuer delegated (RFC 6960 4.2.2.2)"
                ))
        }
        // trustd allows 1 h 15 min either way for time zones and clock skew (TRUST_TIME_LEEWAY).
        let leeway: Int64 = 4500
        if time.adding(seconds: leeway) < single.thisUpdate {
            return .failure(.unusable("its thisUpdate \(single.thisUpdate.rfc3339) is after the evaluation time"))
        }
        if let next = single.nextUpdate, next.adding(seconds: leeway) < time {
            return .failure(.unusable("its nextUpdate \(next.rfc3339) has passed"))
        }
        switch single.status {
        case .good: return .success(Step(.revocation, index, .passed, RevocationFinding.ocspGood(signer: signer)))
        case .revoked(let date):
            return .success(
                Step(
                    .revocation, index, .failed,
                    RevocationFinding.certificateRevoked(date: date, source: "\(source), signed by \(signer),")))
        case .unknown:
            return .failure(.unusable("the responder does not know this certificate (status unknown)"))
        }
    }
}
