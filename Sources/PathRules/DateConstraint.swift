import AppleTrustData
import TrustSupport
import TrustX509

/// A CA whose certificates Apple trusts only when issued within a range: one entry of trustd's
/// Valid database date constraints (docs/apple-trust-data.md), keyed by the CA certificate's
/// SHA-256. The bounds apply to the certificates that CA issues, not to the CA itself.
public struct DateConstraint: Hashable, Sendable {
    /// SHA-256 (uppercase hex) of the constrained CA's certificate.
    public var sha256: String
    /// The CA's name as Apple gives it.
    public var name: String
    /// Issued before this: not trusted (applied to a leaf the CA issued only); nil for no bound.
    public var notBefore: Timestamp?
    /// Issued after this: not trusted; nil for no bound.
    public var notAfter: Timestamp?
    /// The calendar date Apple announced (YYYY-MM-DD).
    public var cutoffDate: String
    /// Whether a failure is recoverable; nil when Apple has not said (treated as not overridable).
    public var overridable: Bool?
    /// Where the entry comes from (the announcement's URL, or the Valid snapshot).
    public var source: String
    /// Whether every value was read from Apple's text or table.
    public var confirmed: Bool

    /// Creates a constraint.
    public init(
        sha256: String, name: String, notBefore: Timestamp? = nil, notAfter: Timestamp? = nil, cutoffDate: String,
        overridable: Bool? = nil, source: String, confirmed: Bool = true
    ) {
        self.sha256 = sha256.uppercased()
        self.name = name
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.cutoffDate = cutoffDate
        self.overridable = overridable
        self.source = source
        self.confirmed = confirmed
    }

    /// Whether a failure is recoverable: only when the entry says so (an unknown flag is not).
    public var isOverridable: Bool { overridable == true }

    /// The rule in a few words, e.g. "issued after 2024-11-15: not trusted".
    public var rule: String {
        var parts: [String] = []
        if notBefore != nil { parts.append("issued before \(cutoffDate): not trusted") }
        if let notAfter {
            parts.append(
                "issued after \(notBefore == nil ? cutoffDate : String(notAfter.rfc3339.prefix(10))): not trusted")
        }
        return parts.joined(separator: "; ")
    }

    /// The rule with its exact bounds, its source and what is ours rather than Apple's.
    public var provenance: String {
        var parts: [String] = []
        if let notBefore { parts.append("not before \(notBefore.rfc3339)") }
        if let notAfter { parts.append("not after \(notAfter.rfc3339)") }
        var text = "\(parts.joined(separator: ", ")); source: \(source)"
        if !confirmed { text += "; UNCONFIRMED: inferred, not read in Apple's text" }
        if overridable == nil { text += "; overridability not published (treated as not overridable)" }
        return text
    }

    /// The constraint of a compiled-in entry; nil when its bounds do not parse.
    init?(_ entry: AppleDateConstraint) {
        let notBefore = entry.notBefore.map { Timestamp(rfc3339: $0) }
        let notAfter = entry.notAfter.map { Timestamp(rfc3339: $0) }
        if notBefore == .some(nil) || notAfter == .some(nil) { return nil }
        self.init(
            sha256: entry.sha256, name: entry.name, notBefore: notBefore ?? nil, notAfter: notAfter ?? nil,
            cutoffDate: entry.cutoffDate, overridable: entry.overridable, source: entry.source,
            confirmed: entry.confirmed)
    }

    /// The constraint `table` holds for `ca`, looked up by its SHA-256 as trustd does, whatever anchors it.
    public static func of(_ ca: Certificate, in table: [String: DateConstraint]) -> DateConstraint? {
        table.isEmpty ? nil : table[hexString(ca.sha256).uppercased()]
    }

    /// Apple's constraints as compiled in, by CA SHA-256.
    public static let apple: [String: DateConstraint] = Dictionary(
        AppleDateConstraints.entries.compactMap { DateConstraint($0) }.map { ($0.sha256, $0) },
        uniquingKeysWith: { first, _ in first })
}
