import TrustX509

/// The evaluation's budget and signature cache as the rules outside the engine take them
/// (`SignatureWork`, D342): they charge the same budget and find the same cached results as the
/// engine's own checks. The caller lends its budget and takes it back when the rule returns.
struct EvaluationWork: SignatureWork {
    let cache: SignatureCache
    var budget: WorkMeter

    mutating func withinTime() -> Bool { budget.withinTime() }

    mutating func charge(object: DigestKey, key: DigestKey) -> Bool {
        budget.chargeRevocationSignature(object: object, key: key)
    }

    func check(
        _ object: DetachedSignature, signedBy key: PublicKeyInfo, keyIdentity: DigestKey, isRevocation: Bool
    ) -> SignatureCheckResult {
        cache.check(object, signedBy: key, keyIdentity: keyIdentity, isRevocation: isRevocation)
    }

    func check(_ certificate: Certificate, signedBy issuer: Certificate) -> SignatureCheckResult {
        cache.check(certificate, signedBy: issuer)
    }

    func cachedResult(of object: DigestKey, signedBy key: DigestKey) -> SignatureCheckResult? {
        cache.result(of: object, signedBy: key)
    }
}
