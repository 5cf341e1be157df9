import CTModel
import PathRules
import TrustCore
import TrustSupport
import TrustX509

/// The built-in candidate instants of an evaluation: the dates of its certificates (those
/// presented and the built path's, anchor included), the end of the leaf's allowed lifetime,
/// the date constraints on the path's CAs, the SCTs' timestamps and the states of the logs that
/// signed them, and Safari's early anchor expiry. Each is read from the evaluation and its
/// settings, never from the clock.
public enum TimelineBoundaries {
    /// One day.
    static let day: Int64 = 86_400

    /// Every built-in boundary of `e`, and those of `extra`, in no particular order; duplicates
    /// (the same rule at the same instant about the same thing) appear once.
    public static func collect(_ e: Evaluation, extra: [any TimelineBoundarySource] = []) -> [TimelineBoundary] {
        var out = certificateDates(e) + validityMaximum(e) + dateConstraints(e) + transparency(e)
        out += revocationDates(e) + earlyAnchorExpiry(e)
        for source in extra { out += source.boundaries(of: e) }
        var seen = Set<TimelineBoundary>()
        return out.filter { seen.insert($0).inserted }
    }

    /// Each certificate's notBefore and notAfter: the presented ones (a certificate no path uses
    /// today may be the one a later path needs) and the built path's, anchor included.
    static func certificateDates(_ e: Evaluation) -> [TimelineBoundary] {
        var certificates: [Certificate] = []
        // A server chooses how many certificates it sends: the candidates' own bound (64) is
        // reached long before this one, which keeps the pass over them short.
        for c in (e.presented + e.path.certificates).prefix(128) where !certificates.contains(c) {
            certificates.append(c)
        }
        var out: [TimelineBoundary] = []
        for c in certificates {
            let role = role(of: c, in: e)
            out.append(
                TimelineBoundary(
                    .notBefore, instant: c.notBefore, what: "\(role) \(c.displayName) becomes valid (notBefore)"))
            // RFC 5280 4.1.2.5: "The validity period for a certificate is the period of time
            // from notBefore through notAfter, inclusive": expired from the next second.
            out.append(
                TimelineBoundary(
                    .notAfter, instant: c.notAfter, changesAt: c.notAfter.adding(seconds: 1),
                    what: "\(role) \(c.displayName) expires (notAfter \(c.notAfter.rfc3339))"))
        }
        return out
    }

    /// `leaf`, `anchor`, `intermediate` or `presented` (a certificate outside the path).
    static func role(of c: Certificate, in e: Evaluation) -> String {
        guard let i = e.path.certificates.firstIndex(of: c) else { return "presented" }
        if i == 0 { return "leaf" }
        return i == e.path.certificates.count - 1 && e.path.isAnchored ? "anchor" : "intermediate"
    }

    /// The end of the lifetime Apple allows the leaf (SecPolicy.c, set_ssl_validity_periods:
    /// 398 days below a system root for leaves issued from 2020-09-01, 825 days and an hour
    /// otherwise from Apple's cut-offs). The rule judges the leaf's own dates, so this instant
    /// should change nothing; it is evaluated so that the timeline says so from the engine.
    static func validityMaximum(_ e: Evaluation) -> [TimelineBoundary] {
        guard e.settings.policy.isSSL, let leaf = e.path.certificates.first else { return [] }
        let system = e.path.anchorClass == .system
        let days: Int64 =
            system && leaf.notBefore >= Timestamp(year: 2020, month: 9, day: 1)! ? 398 * day : 825 * day + 3600
        let end = leaf.notBefore.adding(seconds: days)
        return [
            TimelineBoundary(
                .validityMaximum, instant: end, changesAt: end.adding(seconds: 1),
                what: "the leaf's allowed lifetime (\(days / day) days from notBefore) ends")
        ]
    }

    /// The not-after bound of a date constraint on a CA of the path: from the next second the
    /// path needs CT (DateConstraintRules: the bound is compared as `bound < time`).
    static func dateConstraints(_ e: Evaluation) -> [TimelineBoundary] {
        let table = e.settings.dateConstraints ?? DateConstraint.apple
        guard !table.isEmpty else { return [] }
        var out: [TimelineBoundary] = []
        for c in e.path.certificates.dropFirst() {
            guard let constraint = table[c.identity], let bound = constraint.notAfter else { continue }
            out.append(
                TimelineBoundary(
                    .dateConstraint, instant: bound, changesAt: bound.adding(seconds: 1),
                    what: "the date constraint on \(constraint.name) (\(constraint.rule)) asks for CT from then on"))
        }
        return out
    }

    /// The SCTs of the path's CT step: each one's timestamp (counted from the second that
    /// reaches it: trustd refuses an SCT dated after the evaluation time, to the millisecond),
    /// and the retirement and read-only dates of the logs that signed them.
    static func transparency(_ e: Evaluation) -> [TimelineBoundary] {
        guard let assessment = e.steps.lazy.compactMap({ $0.finding.certificateTransparency }).first else {
            return []
        }
        let logs = e.settings.ctLogs ?? .apple
        var out: [TimelineBoundary] = []
        for sct in assessment.scts.prefix(SignedCertificateTimestampList.maximumEntries) {
            let name = sct.logName ?? "an unknown log"
            if let t = sct.timestamp {
                out.append(
                    TimelineBoundary(.sctTimestamp, instant: t, what: "the SCT from \(name) is dated \(t.rfc3339)"))
                // Whole seconds: an SCT dated within a second counts only from the next one.
                out.append(
                    TimelineBoundary(
                        .sctTimestamp, instant: t, changesAt: t.adding(seconds: 1),
                        what: "the SCT from \(name) is dated \(t.rfc3339)"))
            }
            guard let log = logs.log(withID: sct.logID) else { continue }
            if let retired = log.retiredFrom {
                out.append(TimelineBoundary(.ctLogState, instant: retired, what: "the log \(name) is retired"))
            }
            if let frozen = log.readOnlyFrom {
                out.append(TimelineBoundary(.ctLogState, instant: frozen, what: "the log \(name) becomes read-only"))
            }
        }
        return out
    }

    /// trustd's leeway on OCSP dates, 1 h 15 min either way (TRUST_TIME_LEEWAY), as the
    /// revocation step applies it.
    static let ocspLeeway: Int64 = 4500

    /// The dates of the revocation information the evaluation has: each CRL's thisUpdate and
    /// nextUpdate (RFC 5280 6.3.3 (a)(2): a CRL whose nextUpdate has passed is not used), and each
    /// OCSP single response's, widened by trustd's leeway. At most 16 CRLs and 16 responses of
    /// 16 entries each are read: the candidates' own bound applies after.
    static func revocationDates(_ e: Evaluation) -> [TimelineBoundary] {
        var out: [TimelineBoundary] = []
        for crl in e.settings.revocationLists.prefix(16) {
            let name = "the CRL from \(crl.issuer.description)"
            out.append(
                TimelineBoundary(.revocationDates, instant: crl.thisUpdate, what: "\(name) is issued (thisUpdate)"))
            if let next = crl.nextUpdate {
                out.append(
                    TimelineBoundary(
                        .revocationDates, instant: next, changesAt: next.adding(seconds: 1),
                        what: "\(name) is stale (nextUpdate \(next.rfc3339))"))
            }
        }
        let responses = (e.settings.stapledOCSPResponse.map { [$0] } ?? []) + e.settings.fetchedOCSPResponses
        for der in responses.prefix(16) {
            guard let response = try? OCSPResponse(der: der) else { continue }
            for single in response.responses.prefix(16) {
                out.append(
                    TimelineBoundary(
                        .revocationDates, instant: single.thisUpdate,
                        changesAt: single.thisUpdate.adding(seconds: -ocspLeeway),
                        what:
                            "an OCSP response becomes current (thisUpdate \(single.thisUpdate.rfc3339), less trustd's leeway)"
                    ))
                if let next = single.nextUpdate {
                    out.append(
                        TimelineBoundary(
                            .revocationDates, instant: next, changesAt: next.adding(seconds: ocspLeeway + 1),
                            what: "an OCSP response is stale (nextUpdate \(next.rfc3339), with trustd's leeway)"))
                }
            }
        }
        return out
    }

    /// Safari's early anchor expiry (PathRules' `AnchorExpiryRules`, after SecPolicyServer.c's
    /// _ShouldApplyEarlyExpirationCheck): under `--client safari` the path's root (its anchor, or
    /// an untrusted self-signed root), valid for more than 120 days and not a device-trusted
    /// anchor, is judged 60 days later, so it fails from one second after notAfter less 60 days.
    static func earlyAnchorExpiry(_ e: Evaluation) -> [TimelineBoundary] {
        guard e.settings.client == .safari, e.path.anchorClass != .device,
            e.path.isAnchored || e.path.endsSelfSigned, let root = e.path.certificates.last,
            let early = AnchorExpiryRules.earlyExpiry(of: root)
        else { return [] }
        return [
            TimelineBoundary(
                .earlyAnchorExpiry, instant: early, changesAt: early.adding(seconds: 1),
                what:
                    "\(role(of: root, in: e)) \(root.displayName) is 60 days from its notAfter (Safari's early anchor expiry)"
            )
        ]
    }
}
