/// The bounds on the work of one evaluation: whatever certificates arrive, evaluating them costs
/// at most this much (in the manner of rustls-webpki's `Budget`). docs/steps.md (`budget`) gives
/// each default and the reason for it.
public struct EvaluationLimits: Hashable, Sendable {
    /// Signature checks requested during path building, failed ones and cache hits included, so
    /// that a warm cache gives the same verdict as a cold one; and the signatures of CRLs and OCSP
    /// responses, each (CRL or response, key) pair once per evaluation.
    public var signatureChecks: Int
    /// Candidate issuers considered during path building, over all certificates and paths.
    public var candidateIssuers: Int
    /// Complete candidate paths run through the checks.
    public var paths: Int
    /// Name-by-subtree comparisons, summed over every path and charged before comparing.
    public var nameConstraintComparisons: Int

    /// Creates limits; the defaults are far above what real chains need.
    public init(
        signatureChecks: Int = 256, candidateIssuers: Int = 1024, paths: Int = 64,
        nameConstraintComparisons: Int = 1_000_000
    ) {
        self.signatureChecks = signatureChecks
        self.candidateIssuers = candidateIssuers
        self.paths = paths
        self.nameConstraintComparisons = nameConstraintComparisons
    }

    /// The defaults.
    public static let standard = EvaluationLimits()

    /// The limit of one kind of budget; nil for time, which the caller's deadline bounds.
    public func limit(of kind: BudgetKind) -> Int? {
        switch kind {
        case .signatureChecks: signatureChecks
        case .candidateIssuers: candidateIssuers
        case .paths: paths
        case .nameConstraintComparisons: nameConstraintComparisons
        case .time: nil
        }
    }
}
