/// Which budget of an evaluation ran out.
public enum BudgetKind: String, Hashable, Sendable, CaseIterable {
    /// Signature checks.
    case signatureChecks = "signature-checks"
    /// Candidate issuers.
    case candidateIssuers = "candidate-issuers"
    /// Complete candidate paths.
    case paths
    /// Name-constraint comparisons.
    case nameConstraintComparisons = "name-constraint-comparisons"
    /// The caller's deadline.
    case time
}
