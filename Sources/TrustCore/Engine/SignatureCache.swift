import Synchronization

/// Remembers signature results by (issuer key, signed certificate), so re-evaluating after a
/// settings change verifies nothing again, and a certificate reached on several paths (cross-
/// signed issuers) is verified under each key once. Shared by every evaluation of one session.
public final class SignatureCache: Sendable {
    struct Key: Hashable {
        var issuerSPKI: DigestKey
        var certificate: DigestKey
    }

    private let results = Mutex<[Key: SignatureCheckResult]>([:])
    private let verifications = Atomic<Int>(0)

    /// Creates an empty cache.
    public init() {}

    /// The result of checking that `issuerKey` signed `certificate`, verified at most once.
    public func check(_ certificate: Certificate, signedBy issuer: Certificate) -> SignatureCheckResult {
        let key = Key(issuerSPKI: issuer.keyIdentity, certificate: certificate.identity)
        if let hit = results.withLock({ $0[key] }) { return hit }
        let result = SignatureVerifier.verify(certificate, signedBy: issuer.publicKey)
        // A key refused before verification cost no public-key operation.
        if case .refused = result {} else { verifications.add(1, ordering: .relaxed) }
        results.withLock { $0[key] = result }
        return result
    }

    /// How many signatures were actually verified (not served from the cache).
    public var verificationCount: Int { verifications.load(ordering: .relaxed) }

    /// Forgets every result (for cold benchmarks).
    public func removeAll() { results.withLock { $0.removeAll() } }
}
