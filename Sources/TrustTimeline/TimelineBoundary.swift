import TrustCore
import TrustSupport

/// An instant at which a rule the evaluation applies may judge differently: one side of it
/// judged as before, the other as after. A candidate only: the timeline evaluates on both sides
/// and lists it only when the verdict or its code changes there (D460).
public struct TimelineBoundary: Hashable, Sendable {
    /// Which rule's date it is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A certificate's notBefore: valid from this instant on (RFC 5280 4.1.2.5, inclusive).
        case notBefore = "not-before"
        /// A certificate's notAfter: still valid at this instant, expired one second later
        /// (RFC 5280 4.1.2.5: the period includes notAfter; Apple's TemporalValidity alike).
        case notAfter = "not-after"
        /// The end of the lifetime Apple allows the leaf (SecPolicy.c, set_ssl_validity_periods):
        /// judged on the leaf's own dates, so evaluated here rather than assumed to change nothing.
        case validityMaximum = "validity-maximum"
        /// The not-after bound of a date constraint on a CA of the path (trustd's Valid
        /// database): once past, the path needs CT (SecRVCProcessValidDateConstraints).
        case dateConstraint = "date-constraint"
        /// An SCT's timestamp: dated after the evaluation time, trustd does not count it.
        case sctTimestamp = "sct-timestamp"
        /// The end of a CT log's usable state for the SCTs the chain carries: its retirement or
        /// read-only date in the log list.
        case ctLogState = "ct-log-state"
        /// A CRL's or an OCSP response's thisUpdate or nextUpdate: outside them the revocation
        /// information is not used (RFC 5280 6.3.3; RFC 6960 4.2.2.1, with trustd's leeway).
        case revocationDates = "revocation-dates"
        /// Safari's early anchor expiry: a system anchor valid for more than 120 days judged 60
        /// days ahead for Apple's own clients (SecPolicyServer.c, EarlyAnchorExpiration).
        case earlyAnchorExpiry = "early-anchor-expiry"
    }

    /// The rule.
    public var kind: Kind
    /// The instant the rule names (a certificate's notAfter, a log's retirement date).
    public var instant: Timestamp
    /// The first instant judged on the rule's other side: `instant` where the rule includes it
    /// in the new state, one second later where the old state includes it (notAfter).
    public var changesAt: Timestamp
    /// What changes there, in words (certificate names as the certificate gives them: escape
    /// before a terminal).
    public var what: String

    /// Creates a boundary.
    public init(_ kind: Kind, instant: Timestamp, changesAt: Timestamp? = nil, what: String) {
        self.kind = kind
        self.instant = instant
        self.changesAt = changesAt ?? instant
        self.what = what
    }
}

/// Where candidate instants come from besides the built-in rules: a rule another part of
/// trustx adds (a client's own expiry rules) registers one and the timeline evaluates its
/// instants as any other (D461).
public protocol TimelineBoundarySource: Sendable {
    /// The candidate instants `evaluation` suggests.
    func boundaries(of evaluation: Evaluation) -> [TimelineBoundary]
}
