import TrustSupport
import TrustX509

/// trustd's date-constraint rules on a built path (docs/steps.md, `revocation`): each certificate a
/// constrained CA issued, SecRVCProcessValidDateConstraints; under SSL, the path's issuance time
/// and the CT requirement of a passed bound, SecPVCCheckRequireCTConstraints.
public enum DateConstraintRules {
    /// What a rule found.
    public enum Kind: Hashable, Sendable {
        /// The certificate's notBefore lies within its issuer's range.
        case within
        /// Outside it (a not-before bound counts for the leaf only).
        case outside
        /// SSL: the path's issuance time is after the not-after bound of the certificate's issuer.
        case pathAfterCutoff
        /// SSL: a passed not-after bound requires CT and the path is not CT-qualified (on the leaf).
        case ctRequired
    }

    /// One finding: the position it is about, the constraint, and the time compared.
    public struct Outcome: Hashable, Sendable {
        /// The certificate's index in the path (0 = leaf).
        public var index: Int
        /// The constraint of that certificate's issuer.
        public var constraint: DateConstraint
        /// What the rule found.
        public var kind: Kind
        /// The certificate's notBefore, or the path's issuance time.
        public var issued: Timestamp
        /// Whether `issued` is the earliest embedded SCT rather than the leaf's notBefore.
        public var fromSCT = false

        /// Creates an outcome.
        public init(index: Int, constraint: DateConstraint, kind: Kind, issued: Timestamp, fromSCT: Bool = false) {
            (self.index, self.constraint, self.kind, self.issued, self.fromSCT) = (
                index, constraint, kind, issued, fromSCT
            )
        }
    }

    /// The outcomes for `path` (leaf first) under `table`; empty when no CA of the path is in it.
    /// `earliestSCT` is the earliest verified embedded SCT from a trusted, not retired log.
    public static func apply(
        path: [Certificate], table: [String: DateConstraint], ssl: Bool, earliestSCT: Timestamp?, ctQualified: Bool,
        time: Timestamp
    ) -> [Outcome] {
        guard path.count > 1, !table.isEmpty else { return [] }
        let constrained = (0..<(path.count - 1)).compactMap { i in
            table[hexString(path[i + 1].sha256).uppercased()].map { (i, $0) }
        }
        var out: [Outcome] = constrained.map { i, c in
            let issued = path[i].notBefore
            let early = c.notBefore.map { issued < $0 && i == 0 } ?? false
            let late = c.notAfter.map { issued > $0 } ?? false
            return Outcome(index: i, constraint: c, kind: early || late ? .outside : .within, issued: issued)
        }
        guard ssl else { return out }
        let issuance = earliestSCT ?? path[0].notBefore
        if let (i, c) = constrained.first(where: { $0.1.notAfter.map { issuance > $0 } ?? false }) {
            out.append(
                Outcome(index: i, constraint: c, kind: .pathAfterCutoff, issued: issuance, fromSCT: earliestSCT != nil))
        }
        if !ctQualified, let (_, c) = constrained.first(where: { $0.1.notAfter.map { $0 < time } ?? false }) {
            out.append(
                Outcome(index: 0, constraint: c, kind: .ctRequired, issued: issuance, fromSCT: earliestSCT != nil))
        }
        return out
    }

    /// The Apple check and its consequence trustd records for `outcome`.
    public static func appleCheck(_ outcome: Outcome) -> (check: String, code: String) {
        let overridable = outcome.constraint.isOverridable
        let notTrusted = "errSecNotTrusted; recoverable"
        return switch outcome.kind {
        case .within: ("", "")
        case .outside: overridable ? ("GrayListedKey", notTrusted) : ("Revocation", "errSecCertificateRevoked; fatal")
        case .pathAfterCutoff:
            overridable ? ("GrayListedLeaf", notTrusted) : ("BlackListedLeaf", "errSecCertificateRevoked; fatal")
        case .ctRequired: ("CTRequired", "errSecNotTrusted; \(overridable ? "recoverable" : "fatal")")
        }
    }

    /// One line, no newline.
    public static func title(_ o: Outcome) -> String {
        let c = o.constraint
        return switch o.kind {
        case .within: "Issued within \(c.name)'s date constraint (\(c.rule))"
        case .outside: "Issued outside \(c.name)'s date constraint (\(c.rule))"
        case .pathAfterCutoff: "Chain issued after \(c.name)'s cut-off (\(c.rule))"
        case .ctRequired: "CT required by \(c.name)'s date constraint"
        }
    }

    /// The rule in plain words, citing its source.
    public static func detail(_ o: Outcome) -> String {
        let c = o.constraint
        let rule = "Apple trusts the certificates \(c.name) issues only within a date constraint: \(c.provenance)."
        let (check, code) = appleCheck(o)
        let valid = "trustd's Valid database, keyed by the issuing CA's SHA-256"
        return switch o.kind {
        case .within:
            "\(rule) This certificate's notBefore, \(o.issued.rfc3339), lies within it (\(valid); SecRVCProcessValidDateConstraints)."
        case .outside:
            "\(rule) This certificate's notBefore, \(o.issued.rfc3339), lies outside it (\(valid); SecRVCProcessValidDateConstraints: \(check), \(code))."
        case .pathAfterCutoff:
            "\(rule) The chain's issuance time, \(o.issued.rfc3339) (\(o.fromSCT ? "the earliest embedded SCT from a trusted log" : "the leaf's notBefore")), is after it, which fails the certificate the constrained CA issued (\(valid); SecPVCCheckRequireCTConstraints: \(check), \(code))."
        case .ctRequired:
            "\(rule) Its not-after bound has passed, so trustd requires Certificate Transparency of any TLS chain through it, and this chain is not CT-qualified (SecRVCProcessValidInfoResults, SecPVCCheckRequireCTConstraints: \(check), \(code))."
        }
    }
}
