/// One way a path trustd's code qualifies falls short of Apple's published CT policy: advice,
/// never a different verdict (trustx follows trustd's code, D164).
public struct CTPolicyAdvice: Hashable, Sendable {
    /// What the published policy asks that the path lacks.
    public enum Kind: String, Hashable, Sendable {
        /// Every SCT that counted is from a static-ct-api (tiled) log: the policy wants one from
        /// an RFC 6962 log.
        case noRFC6962Log = "no-rfc6962-log"
        /// With at most so many SCTs per log operator counted, the embedded SCTs are too few.
        case operatorCap = "operator-cap"
    }

    /// What is lacking.
    public var kind: Kind
    /// One line for people, citing the policy.
    public var message: String

    /// Creates advice.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Apple's Certificate Transparency policy as Apple publishes it (support.apple.com/103214, read
/// 2026-12-06), where it asks more than trustd's code (Security, trust/trustd/
/// CertificateTransparency.m), which counts distinct logs and neither operators nor the logs' API:
/// "At least one SCT must be issued from a log compliant with RFC 6962", and of the embedded SCTs
/// a certificate of 180 days or less needs 2 from distinct logs with at most 1 per log operator
/// counting, one of 181 to 398 days 3 with at most 2 per operator. The number required is taken
/// from trustd's count (`CTAssessment.requiredEmbedded`), so that the advice is about the cap
/// alone: 2 logs take the page's first row's cap, more take its second's.
public enum CTPublishedPolicy {
    /// The page the rules come from.
    public static let source = "Apple's published CT policy, support.apple.com/103214"

    /// How many embedded SCTs of one log operator count toward `required`, by the page's table.
    public static func perOperatorCap(required: Int) -> Int { required <= 2 ? 1 : 2 }

    /// The advice for a path trustd's code found CT-qualified (`a.qualified`); empty when the
    /// published policy is met too, or when the path is not qualified.
    public static func advice(_ a: CTAssessment, logs: CTLogList) -> [CTPolicyAdvice] {
        guard a.qualified else { return [] }
        // The logs whose SCTs qualified the path: every counted SCT when delivered ones did,
        // the embedded ones otherwise; each log once.
        var seen: Set<[UInt8]> = []
        var qualifying: [CTLog] = []
        for s in a.scts where s.counted && (a.qualifiedBy != .embedded || s.source == .embedded) {
            guard seen.insert(s.logID).inserted, let log = logs.log(withID: s.logID) else { continue }
            qualifying.append(log)
        }
        var out: [CTPolicyAdvice] = []
        if !qualifying.isEmpty, qualifying.allSatisfy(\.tiled) {
            let names = qualifying.map(\.description).joined(separator: ", ")
            out.append(
                CTPolicyAdvice(
                    kind: .noRFC6962Log,
                    message:
                        "Apple's published CT policy wants at least one SCT from an RFC 6962 log; every SCT that counted is from a static-ct-api (tiled) log (\(names)). trustd's code does not tell them apart and accepts the path (\(source))."
                ))
        }
        // The per-operator caps are the page's table for embedded SCTs; leaves issued before
        // 2021-04-21 followed an earlier table and have expired since.
        if a.qualifiedBy == .embedded, a.era == .fromApril2021 {
            let required = a.requiredEmbedded
            let cap = perOperatorCap(required: required)
            var perOperator: [String: Int] = [:]
            for log in qualifying { perOperator[log.operatorName, default: 0] += 1 }
            let counted = perOperator.values.reduce(0) { $0 + min($1, cap) }
            if counted < required {
                let byOperator = perOperator.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                out.append(
                    CTPolicyAdvice(
                        kind: .operatorCap,
                        message:
                            "Apple's published CT policy counts at most \(cap) embedded SCT\(cap == 1 ? "" : "s") per log operator toward the \(required) a certificate of this lifetime needs: these logs count as \(counted) (\(byOperator.joined(separator: ", "))). trustd's code counts logs, not operators, and accepts the path (\(source))."
                    ))
            }
        }
        return out
    }
}
