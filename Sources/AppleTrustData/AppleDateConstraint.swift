/// One date constraint of trustd's Valid database: the CA whose SHA-256 it is keyed by and the
/// range within which the certificates that CA issues must have been issued (values as text, so
/// the generated data stays readable and its digest easy to recompute).
public struct AppleDateConstraint: Hashable, Sendable {
    /// SHA-256 (uppercase hex) of the constrained CA's certificate, the whole DER.
    public let sha256: String
    /// The CA's name, as Apple's announcement or the Valid snapshot gives it.
    public let name: String
    /// The earliest issuance accepted (RFC 3339, UTC); nil for no lower bound.
    public let notBefore: String?
    /// The latest issuance accepted (RFC 3339, UTC); nil for no upper bound.
    public let notAfter: String?
    /// The calendar date Apple announced (YYYY-MM-DD), which `notAfter` or `notBefore` turns into an instant.
    public let cutoffDate: String
    /// Whether a failure is recoverable (the Valid group's overridable bit); nil when Apple has
    /// not said.
    public let overridable: Bool?
    /// Whether the entry was read as requiring Certificate Transparency (its not-after bound has passed).
    public let requiresCT: Bool
    /// Where the entry comes from: the announcement's URL or the Valid snapshot.
    public let source: String
    /// When the source was read (YYYY-MM-DD).
    public let readOn: String
    /// Whether every value was read from Apple's own text or table (CONFIRMED), or inferred.
    public let confirmed: Bool
    /// Whether the CA is a root of the compiled-in store.
    public let inStore: Bool

    /// Creates an entry.
    public init(
        sha256: String, name: String, notBefore: String?, notAfter: String?, cutoffDate: String, overridable: Bool?,
        requiresCT: Bool, source: String, readOn: String, confirmed: Bool, inStore: Bool
    ) {
        self.sha256 = sha256
        self.name = name
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.cutoffDate = cutoffDate
        self.overridable = overridable
        self.requiresCT = requiresCT
        self.source = source
        self.readOn = readOn
        self.confirmed = confirmed
        self.inStore = inStore
    }

    /// The entry as the generator hashed it: fields joined by tabs, an absent value as an empty
    /// field. `AppleDateConstraints.dataSHA256` is the SHA-256 of these lines joined by newlines.
    public var canonicalLine: String {
        let flag = overridable.map { $0 ? "overridable" : "not-overridable" } ?? ""
        return [
            sha256, name, notBefore ?? "", notAfter ?? "", cutoffDate, flag, requiresCT ? "ct" : "", source, readOn,
            confirmed ? "confirmed" : "unconfirmed", inStore ? "in-store" : "",
        ].joined(separator: "\t")
    }
}

extension AppleDateConstraints {
    /// The entries by CA SHA-256 (uppercase hex).
    public static let bySHA256: [String: AppleDateConstraint] = Dictionary(
        entries.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
}
