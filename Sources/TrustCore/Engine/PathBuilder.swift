import TrustX509

/// A candidate issuer that path building discarded, and why.
public struct RejectedIssuer: Hashable, Sendable {
    /// Index in the path of the certificate whose issuer was sought.
    public var childIndex: Int
    /// The candidate.
    public var candidate: Certificate
    /// Why it was discarded.
    public var reason: SignatureCheckResult
}

/// A path from the leaf towards an anchor, as path building produced it.
public struct BuiltPath: Sendable {
    /// Leaf first.
    public var certificates: [Certificate]
    /// Where each certificate came from.
    public var sources: [CertificateSource]
    /// The anchor class, when the last certificate is a trusted anchor.
    public var anchorClass: AnchorClass?
    /// Whether the last certificate is self-signed (checked only when it is not an anchor).
    public var endsSelfSigned: Bool
    /// Whether building stopped at the depth bound.
    public var depthExceeded: Bool
    /// Candidates discarded along this path (bad or unverifiable signatures).
    public var rejected: [RejectedIssuer]

    /// Whether the path ends at a trusted anchor.
    public var isAnchored: Bool { anchorClass != nil }
}

/// Builds candidate paths in Apple's order of preference: anchors first, then issuers whose
/// subjectKeyIdentifier matches the child's authorityKeyIdentifier, then presented order.
/// Order of presentation does not matter; extra and duplicate certificates are ignored; loops
/// and the depth bound end a path; a bad signature discards the candidate.
struct PathBuilder {
    let leaf: Certificate
    let pool: [Certificate]
    let settings: TrustSettings
    let cache: SignatureCache
    let anchorSet: Set<DigestKey>
    /// Whether self-issued intermediates count towards the depth bound (the policy's).
    let selfIssuedCountTowardsDepth: Bool
    static let defaultMaximumIntermediates = 16

    init(
        leaf: Certificate, presented: [Certificate], settings: TrustSettings, cache: SignatureCache,
        selfIssuedCountTowardsDepth: Bool
    ) {
        self.leaf = leaf
        self.settings = settings
        self.cache = cache
        self.selfIssuedCountTowardsDepth = selfIssuedCountTowardsDepth
        var seen = Set<DigestKey>([leaf.identity])
        var pool: [Certificate] = []
        for cert in presented where seen.insert(cert.identity).inserted { pool.append(cert) }
        self.pool = pool
        self.anchorSet = Set(settings.anchors.map(\.identity))
    }

    func anchorClass(of cert: Certificate) -> AnchorClass? {
        if anchorSet.contains(cert.identity) { return settings.customAnchorClass.anchorClass }
        if settings.trustsSystemAnchors, let store = settings.systemStore, store.contains(cert) { return .system }
        return nil
    }

    /// Candidate issuers of `child`, best first, with their source; the system store is searched
    /// only when `includeStore` is set.
    func candidates(for child: Certificate, includeStore: Bool) -> [(Certificate, CertificateSource)] {
        var out: [(Certificate, CertificateSource, Int)] = []
        let aki = child.authorityKeyIdentifier?.keyIdentifier
        func rank(_ c: Certificate, _ base: Int) -> Int {
            var r = base
            if let aki, let ski = c.subjectKeyIdentifier { r += aki == ski ? 0 : 50 }
            if anchorClass(of: c) != nil { r -= 100 }
            return r
        }
        for a in settings.anchors where a.subject.matches(child.issuer) {
            out.append((a, .anchor, rank(a, 0)))
        }
        for (i, c) in pool.enumerated() where c.subject.matches(child.issuer) {
            out.append((c, .presented, rank(c, 10 + i)))
        }
        for (i, c) in settings.fetchedIssuers.enumerated() where c.subject.matches(child.issuer) {
            out.append((c, .aia, rank(c, 1000 + i)))
        }
        if includeStore, let store = settings.systemStore {
            for c in store.certificates(withSubject: child.issuer) {
                out.append((c, .systemStore, rank(c, 5)))
            }
        }
        // Cheap before expensive: a candidate whose key cannot check the child's signature
        // algorithm (an RSA key under an ECDSA signature) would only be rejected, so it goes last;
        // nothing here costs a public-key operation. One candidate needs no ranking.
        if out.count > 1, let family = SignatureScheme(child.signatureAlgorithm)?.family {
            for i in out.indices where !SignatureScheme.family(family, fits: out[i].0.publicKey.type) {
                out[i].2 += 10_000
            }
        }
        // Stable sort by rank, then drop duplicates (the same certificate from two sources).
        let sorted = out.enumerated().sorted { ($0.element.2, $0.offset) < ($1.element.2, $1.offset) }
        var seen = Set<DigestKey>()
        var result: [(Certificate, CertificateSource)] = []
        for (_, item) in sorted where seen.insert(item.0.identity).inserted { result.append((item.0, item.1)) }
        return result
    }

    /// Walks paths depth first in preference order, handing each finished one to `visit` with
    /// the budget, which returns true to stop. Candidates, signature checks and time are charged
    /// to `budget`, and building stops the moment one runs out.
    func build(budget: inout WorkMeter, _ visit: (BuiltPath, inout WorkMeter) -> Bool) {
        let limit = settings.maximumIntermediates ?? PathBuilder.defaultMaximumIntermediates
        var path = BuiltPath(
            certificates: [leaf], sources: [.presented], anchorClass: nil, endsSelfSigned: false,
            depthExceeded: false, rejected: [])
        path.anchorClass = anchorClass(of: leaf)
        if path.anchorClass != nil {
            path.sources[0] = .presented
            _ = visit(path, &budget)
            return
        }
        var stop = false
        extend(&path, limit: limit, stop: &stop, budget: &budget, visit)
    }

    private func extend(
        _ path: inout BuiltPath, limit: Int, stop: inout Bool, budget: inout WorkMeter,
        _ visit: (BuiltPath, inout WorkMeter) -> Bool
    ) {
        guard !stop else { return }
        let child = path.certificates[path.certificates.count - 1]
        var extended = false
        do {
            var intermediates = path.certificates.count - 1
            if !selfIssuedCountTowardsDepth {
                // RFC 5280 6.1.4 (l): "If the certificate was not self-issued, verify that
                // max_path_length is greater than zero and decrement max_path_length by 1": as for
                // pathLenConstraint, self-issued intermediates (key rollover) do not count towards
                // the depth bound. The budget still bounds the work.
                intermediates = path.certificates.dropFirst().filter { !$0.isSelfIssued }.count
            }
            // When system roots are not trusted (custom anchors only), the store is a source of
            // parents of last resort: it is searched only if the other sources did not already
            // end the search, which spares a process the store's index in the common case.
            let storeFirst = settings.trustsSystemAnchors
            var list = candidates(for: child, includeStore: storeFirst)
            var storeSearched = storeFirst || settings.systemStore == nil
            var next = 0
            while true {
                if next == list.count {
                    guard !storeSearched, !stop else { break }
                    storeSearched = true
                    let known = Set(list.map(\.0.identity))
                    list += candidates(for: child, includeStore: true).filter { !known.contains($0.0.identity) }
                    if next == list.count { break }
                }
                let (candidate, source) = list[next]
                next += 1
                if stop { return }
                guard budget.chargeCandidateIssuer() else {
                    stop = true
                    return
                }
                if path.certificates.contains(where: { $0.identity == candidate.identity }) { continue }
                let cls = anchorClass(of: candidate)
                // The bound counts certificates between leaf and anchor.
                let counts = selfIssuedCountTowardsDepth || !candidate.isSelfIssued
                if cls == nil && counts && intermediates >= limit {
                    path.depthExceeded = true
                    continue
                }
                if cls != nil && intermediates > limit {
                    path.depthExceeded = true
                    continue
                }
                guard budget.chargeSignatureCheck() else {
                    stop = true
                    return
                }
                let sig = cache.check(child, signedBy: candidate)
                guard sig == .valid else {
                    path.rejected.append(
                        RejectedIssuer(
                            childIndex: path.certificates.count - 1, candidate: candidate,
                            reason: sig))
                    continue
                }
                extended = true
                path.certificates.append(candidate)
                path.sources.append(source)
                if let cls {
                    path.anchorClass = cls
                    if visit(path, &budget) { stop = true }
                    path.anchorClass = nil
                } else {
                    extend(&path, limit: limit, stop: &stop, budget: &budget, visit)
                }
                path.certificates.removeLast()
                path.sources.removeLast()
                let depth = path.certificates.count - 1
                path.rejected.removeAll { $0.childIndex > depth }
            }
        }
        if !extended && !stop {
            var finished = path
            if child.isSelfIssued {
                guard budget.chargeSignatureCheck() else {
                    stop = true
                    return
                }
                finished.endsSelfSigned = cache.check(child, signedBy: child) == .valid
            }
            if visit(finished, &budget) { stop = true }
        }
    }
}
