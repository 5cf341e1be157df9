import TrustCore
import TrustSupport
import TrustX509

/// The chain a server should send instead (D442): the leaf and the intermediates of the built
/// path, in path order, without the anchor; made only once that chain, evaluated alone and
/// without AIA, gives the verdict the evaluation gave, so what is written is what was judged.
public struct ChainToServe: Sendable {
    /// Why no chain to serve was made, in words for an error line.
    public struct Refusal: Error, Sendable, Equatable {
        /// One line.
        public var message: String
    }

    /// The certificates, leaf first.
    public var certificates: [Certificate]
    /// What the chain alone evaluates to: the evaluation's verdict.
    public var verdict: Verdict

    /// The certificates as concatenated PEM blocks, leaf first: what `ssl_certificate`,
    /// `SSLCertificateFile` and most servers take.
    public var pem: String { certificates.map { PEM.encode($0.der) }.joined() }

    /// One line for the user: what was made and what it evaluates to.
    public var summary: String {
        let n = certificates.count
        let what = n == 1 ? "1 certificate (the leaf)" : "\(n) certificates (the leaf, then its issuers)"
        let verdictText = verdict.trusted ? "trusted" : "not trusted, \(verdict.osstatus) \(verdict.osstatusName)"
        return "\(what), without the anchor; alone and without AIA it evaluates as served: \(verdictText)"
    }

    /// The chain to serve for `e`, or why there is none: a path the budget cut short, a path
    /// that stops below any root (its issuer was neither sent, fetched nor trusted), or a chain
    /// that alone evaluates otherwise.
    /// - Parameters:
    ///   - e: The evaluation, with its settings.
    ///   - deadline: When the second evaluation must end (the run's).
    public static func make(for e: Evaluation, deadline: EvaluationDeadline? = nil) -> Result<ChainToServe, Refusal> {
        let path = e.path.certificates
        guard let leaf = path.first else { return .failure(Refusal(message: "there is no path")) }
        if e.steps.contains(where: { $0.id == .budget }) {
            return .failure(Refusal(message: "the evaluation ran out of its budget before its path was complete"))
        }
        var chain = path
        if path.count > 1 {
            if e.path.isAnchored || path[path.count - 1].isSelfIssued {
                // The anchor, or a root: a client has it already or trusts it not at all.
                chain.removeLast()
            } else {
                let last = path.count - 1
                return .failure(
                    Refusal(
                        message:
                            "the path stops at [\(last)] \(path[last].subject.description): its issuer was neither sent, fetched nor trusted, so there is no complete chain to write"
                    ))
            }
        } else if !e.path.isAnchored && !e.path.endsSelfSigned && !leaf.isSelfIssued {
            return .failure(
                Refusal(
                    message:
                        "the path is the leaf alone: its issuer was neither sent, fetched nor trusted, so there is no complete chain to write"
                ))
        }
        var settings = e.settings
        settings.fetchedIssuers = []
        guard let alone = Evaluator().evaluate(chain: chain, settings: settings, deadline: deadline) else {
            return .failure(Refusal(message: "there is no path"))
        }
        let (was, now) = (e.verdict, alone.verdict)
        guard was.trusted == now.trusted && was.osstatus == now.osstatus else {
            return .failure(
                Refusal(
                    message:
                        "alone and without AIA the chain evaluates to \(words(now)), not \(words(was)) as served"
                ))
        }
        return .success(ChainToServe(certificates: chain, verdict: now))
    }

    static func words(_ v: Verdict) -> String {
        v.trusted ? "trusted" : "not trusted (\(v.osstatus) \(v.osstatusName))"
    }
}
