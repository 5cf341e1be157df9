import TrustX509

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

/// A point on the monotonic clock by which an evaluation must end, given by the caller (the
/// command's `--timeout`, or an interactive session that wants an answer in time).
public struct EvaluationDeadline: Hashable, Sendable {
    /// The instant.
    public var instant: ContinuousClock.Instant
    /// The whole allowance, for messages.
    public var allowance: Duration

    /// A deadline `allowance` from now.
    public init(after allowance: Duration) {
        self.instant = ContinuousClock.now.advanced(by: allowance)
        self.allowance = allowance
    }

    /// A deadline at `instant`; `allowance` is what the caller granted in total, for messages.
    public init(at instant: ContinuousClock.Instant, allowance: Duration) {
        self.instant = instant
        self.allowance = allowance
    }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { ContinuousClock.now >= instant }
}

/// What one evaluation has spent. Not shared between evaluations or threads: each evaluation
/// keeps its own on the stack and lends it `inout` to path building and to every check (as
/// rustls-webpki passes `&mut Budget`), so nothing outlives the evaluation.
struct WorkMeter {
    let limits: EvaluationLimits
    let deadline: EvaluationDeadline?
    private(set) var signatureChecks = 0
    private(set) var candidateIssuers = 0
    private(set) var paths = 0
    private(set) var nameConstraintComparisons = 0
    /// The first budget that ran out; once set, every charge fails.
    private(set) var exhausted: BudgetKind?
    /// The CRL and OCSP signatures already charged in this evaluation, by (key, object): each is
    /// charged once however many paths and certificates meet it. Empty, and so unallocated,
    /// unless revocation information is checked.
    private var revocationSignatures: Set<SignatureCache.Key> = []

    init(limits: EvaluationLimits, deadline: EvaluationDeadline?) {
        self.limits = limits
        self.deadline = deadline
    }

    /// The limit of `kind` for messages: the count, or the deadline's allowance in milliseconds.
    func limit(of kind: BudgetKind) -> Int {
        limits.limit(of: kind) ?? deadline.map { Int($0.allowance / .milliseconds(1)) } ?? 0
    }

    /// How much of `kind` was spent.
    func spent(_ kind: BudgetKind) -> Int {
        switch kind {
        case .signatureChecks: signatureChecks
        case .candidateIssuers: candidateIssuers
        case .paths: paths
        case .nameConstraintComparisons: nameConstraintComparisons
        case .time: 0
        }
    }

    private mutating func exhaust(_ kind: BudgetKind) -> Bool {
        if exhausted == nil { exhausted = kind }
        return false
    }

    /// False once the deadline has passed (or another budget ran out).
    mutating func withinTime() -> Bool {
        guard exhausted == nil else { return false }
        if let deadline, deadline.hasPassed { return exhaust(.time) }
        return true
    }

    /// Charges one signature check; false when the budget is spent.
    mutating func chargeSignatureCheck() -> Bool {
        guard withinTime() else { return false }
        guard signatureChecks < limits.signatureChecks else { return exhaust(.signatureChecks) }
        signatureChecks += 1
        return true
    }

    /// Charges the verification of a CRL's or an OCSP response's signature with one key, once per
    /// evaluation (later requests for the same pair are free, as its result is cached); false when
    /// the budget or the time is spent.
    mutating func chargeRevocationSignature(object: DigestKey, key: DigestKey) -> Bool {
        guard withinTime() else { return false }
        let pair = SignatureCache.Key(issuerSPKI: key, certificate: object)
        if revocationSignatures.contains(pair) { return true }
        guard signatureChecks < limits.signatureChecks else { return exhaust(.signatureChecks) }
        signatureChecks += 1
        revocationSignatures.insert(pair)
        return true
    }

    /// Charges one candidate issuer; false when the budget is spent.
    mutating func chargeCandidateIssuer() -> Bool {
        guard withinTime() else { return false }
        guard candidateIssuers < limits.candidateIssuers else { return exhaust(.candidateIssuers) }
        candidateIssuers += 1
        return true
    }

    /// Charges one complete path; false when the budget is spent.
    mutating func chargePath() -> Bool {
        guard withinTime() else { return false }
        guard paths < limits.paths else { return exhaust(.paths) }
        paths += 1
        return true
    }

    /// Charges `count` name-constraint comparisons before they are made; false (and nothing
    /// charged) when they would overrun the budget.
    mutating func chargeNameConstraintComparisons(_ count: Int) -> Bool {
        guard withinTime() else { return false }
        guard count <= limits.nameConstraintComparisons - nameConstraintComparisons else {
            return exhaust(.nameConstraintComparisons)
        }
        nameConstraintComparisons += count
        return true
    }
}
