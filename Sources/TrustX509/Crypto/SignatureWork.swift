/// The evaluation's side of the signatures a rule outside the engine checks (a CRL's, its signer's
/// certificate, an SCT's): the deadline, the work budget and the signature cache of the evaluation
/// it runs in. A rule written against this lives in a module of its own, below the engine, and
/// still charges and reuses what the engine's own checks do.
package protocol SignatureWork {
    /// False once the evaluation's deadline has passed or one of its budgets ran out.
    mutating func withinTime() -> Bool
    /// Charges the check of `object`'s signature with the key `key`, once per evaluation (later
    /// requests for the same pair are free); false when the budget or the time is spent.
    mutating func charge(object: DigestKey, key: DigestKey) -> Bool
    /// Whether `key` signed `object` (a CRL, an OCSP response, an SCT), verified at most once per
    /// pair; `isRevocation` says which count the verification adds to.
    func check(
        _ object: DetachedSignature, signedBy key: PublicKeyInfo, keyIdentity: DigestKey, isRevocation: Bool
    ) -> SignatureCheckResult
    /// Whether `issuer`'s key signed `certificate`, verified at most once per pair.
    func check(_ certificate: Certificate, signedBy issuer: Certificate) -> SignatureCheckResult
    /// The result remembered for (`object`, `key`), if any, without verifying anything.
    func cachedResult(of object: DigestKey, signedBy key: DigestKey) -> SignatureCheckResult?
}
