import Synchronization
import TrustX509

/// Remembers signature results by (issuer key, signed object), so re-evaluating after a settings
/// change verifies nothing again, and a certificate reached on several paths (cross-signed
/// issuers) is verified under each key once. CRLs and OCSP responses are remembered the same
/// way, by the digest of their encoding: a CRL that several paths meet costs one verification.
/// Shared by every evaluation of one session.
public final class SignatureCache: Sendable {
    struct Key: Hashable {
        var issuerSPKI: DigestKey
        /// The SHA-256 of the signed object's whole encoding (certificate, CRL or basic response).
        var certificate: DigestKey
    }

    private let results = Mutex<[Key: SignatureCheckResult]>([:])
    private let verifications = Atomic<Int>(0)
    private let revocationVerifications = Atomic<Int>(0)

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

    /// The result of checking the signature of a CRL or an OCSP response (`object`) with the key
    /// `issuer`, verified at most once per (object, key); an SCT's too, when `isRevocation` is false.
    func check(
        _ object: DetachedSignature, signedBy issuer: PublicKeyInfo, keyIdentity: DigestKey, isRevocation: Bool = true
    ) -> SignatureCheckResult {
        let key = Key(issuerSPKI: keyIdentity, certificate: object.identity)
        if let hit = results.withLock({ $0[key] }) { return hit }
        let result = SignatureVerifier.verify(
            algorithm: object.algorithm, signed: object.signed, signature: object.signature, key: issuer)
        if case .refused = result {
        } else {
            verifications.add(1, ordering: .relaxed)
            if isRevocation { revocationVerifications.add(1, ordering: .relaxed) }
        }
        results.withLock { $0[key] = result }
        return result
    }

    /// The remembered result for (`object`, `key`), if any, without verifying anything.
    func result(of object: DigestKey, signedBy key: DigestKey) -> SignatureCheckResult? {
        results.withLock { $0[Key(issuerSPKI: key, certificate: object)] }
    }

    /// How many signatures were actually verified (not served from the cache).
    public var verificationCount: Int { verifications.load(ordering: .relaxed) }

    /// How many of them were signatures of CRLs and OCSP responses.
    public var revocationVerificationCount: Int { revocationVerifications.load(ordering: .relaxed) }

    /// Forgets every result (for cold benchmarks).
    public func removeAll() { results.withLock { $0.removeAll() } }
}
