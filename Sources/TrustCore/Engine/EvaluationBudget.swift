import TrustX509

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
