/// What the `budget` step found, and what a check reports when the budget stopped it.
enum BudgetFinding: RuleFinding {
    case budgetExhausted(budget: BudgetKind, limit: Int)

    var storage: Finding.Storage { .budget(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        // trustd gives up building after a bound and reports its best partial path (D35).
        case .budgetExhausted: AppleFailure("MissingIntermediate", .trust, -25318)
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .budgetExhausted(let budget, let limit):
            switch budget {
            case .signatureChecks: "Evaluation stopped: more than \(limit) signature checks"
            case .candidateIssuers: "Evaluation stopped: more than \(limit) candidate issuers"
            case .paths: "Evaluation stopped: more than \(limit) candidate paths"
            case .nameConstraintComparisons: "Evaluation stopped: more than \(limit) name-constraint comparisons"
            case .time: "Evaluation stopped at its \(Self.seconds(milliseconds: limit)) deadline"
            }
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .budgetExhausted(let budget, _):
            Self.budgetDetail(budget)
        }
    }

    /// Why running out of `budget` makes the certificate set suspicious.
    static func budgetDetail(_ budget: BudgetKind) -> String {
        let verdict =
            "Evaluation ends here, not trusted: trustx bounds the work of one evaluation whatever it is sent, as Apple's trustd bounds path building (MissingIntermediate, errSecCreateChainFailed)."
        return switch budget {
        case .signatureChecks:
            "Real chains need a few signature checks; this certificate set offers so many same-name issuers that path building kept asking for more, which is how a sender makes a verifier spend its time on public-key operations. \(verdict)"
        case .candidateIssuers:
            "Real chains offer one or two issuers per certificate; this set offers so many candidates under the same names that trying them all would take unbounded time. \(verdict)"
        case .paths:
            "Real chains build one or a few paths; this set's cross-signed certificates combine into more candidate paths than any deployment needs, each of which would be checked in full. \(verdict)"
        case .nameConstraintComparisons:
            "Comparing every name against every name-constraint subtree, on every path, would take more comparisons than real constrained CAs ever need: many subjectAltNames under many subtrees is a known way to make verifiers work quadratically. \(verdict)"
        case .time:
            "The caller's deadline passed before evaluation finished; a certificate set that takes this long is either pathological or hostile. \(verdict)"
        }
    }

    /// `1.5 s`, for deadlines given in milliseconds.
    static func seconds(milliseconds: Int) -> String {
        "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }
}
