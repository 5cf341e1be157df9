/// Apple's system pinning rules (security_certificates' Pinning/CertificatePinning.plist), which
/// trustd adds to SSL evaluations of Apple's own hosts. The data is generated into
/// `ApplePinningData.policies`; the engine decides what it means.
public enum ApplePinningData {}

/// One pinning policy: the hosts it covers and the rules a chain for them must meet (any one).
public struct ApplePinningPolicy: Sendable {
    /// Apple's name for the policy (`MMCS`, `IDS`, ...), which trustd gives the pinned policy.
    public let name: String
    /// Whether trustd adds a device's Transparent Connection pins as a further alternative.
    public let transparentConnection: Bool
    /// The hosts covered: a suffix and a pattern for the first label.
    public let domains: [ApplePinningDomain]
    /// The alternatives: a chain meeting every check of one of them passes.
    public let rules: [ApplePinningRule]

    /// Creates a policy (generated code only).
    public init(name: String, transparentConnection: Bool, domains: [ApplePinningDomain], rules: [ApplePinningRule]) {
        self.name = name
        self.transparentConnection = transparentConnection
        self.domains = domains
        self.rules = rules
    }
}

/// A host pattern: everything after the host's first dot equals `suffix`, and `labelPattern`, a
/// regular expression, finds a match in the first label.
public struct ApplePinningDomain: Sendable {
    /// The host without its first label.
    public let suffix: String
    /// The regular expression searched for in the first label (case-insensitively, unanchored).
    public let labelPattern: String

    /// Creates a host pattern (generated code only).
    public init(suffix: String, labelPattern: String) {
        self.suffix = suffix
        self.labelPattern = labelPattern
    }
}

/// An extension a certificate must carry: `oid` with a DER NULL value, or, when `value` is set,
/// `oid` whose value is that string.
public struct ApplePinningMarker: Sendable {
    /// The extension's OID, dotted.
    public let oid: String
    /// The string the extension must hold, or nil for a NULL-valued marker.
    public let value: String?

    /// Creates a marker (generated code only).
    public init(oid: String, value: String?) {
        self.oid = oid
        self.value = value
    }
}

/// One alternative of a pinning policy: each non-nil field is a check the chain must pass.
public struct ApplePinningRule: Sendable {
    /// The anchor must be one of Apple's own roots (AnchorApple).
    public let anchorApple: Bool
    /// The anchor's certificate SHA-256 must be one of these (hex; AnchorSHA256); empty for no check.
    public let anchorSHA256: [String]
    /// The number of certificates in the path, anchor included (ChainLength).
    public let chainLength: Int?
    /// An intermediate must carry this NULL-valued marker extension (IntermediateMarkerOid).
    public let intermediateMarkerOID: String?
    /// Every intermediate's subject has exactly one C, equal to this (IntermediateCountry).
    public let intermediateCountry: String?
    /// Every intermediate's subject has exactly one O, equal to this (IntermediateOrganization).
    public let intermediateOrganization: String?
    /// The leaf must carry one of these markers (LeafMarkerOid).
    public let leafMarkerOID: [ApplePinningMarker]?
    /// The leaf must carry one of these production markers (LeafMarkersProdAndQA).
    public let leafMarkersProduction: [ApplePinningMarker]?
    /// The leaf's subject has exactly one O, equal to this (SubjectOrganization).
    public let subjectOrganization: String?
    /// Some certificate of the path asserts this policy OID (CertificatePolicy).
    public let certificatePolicy: String?
    /// The revocation method trustd asks for (Revocation); it sets how revocation is checked, it
    /// fails nothing by itself.
    public let revocation: String?

    /// Creates a rule (generated code only).
    public init(
        anchorApple: Bool, anchorSHA256: [String], chainLength: Int?, intermediateMarkerOID: String?,
        intermediateCountry: String?, intermediateOrganization: String?, leafMarkerOID: [ApplePinningMarker]?,
        leafMarkersProduction: [ApplePinningMarker]?, subjectOrganization: String?, certificatePolicy: String?,
        revocation: String?
    ) {
        self.anchorApple = anchorApple
        self.anchorSHA256 = anchorSHA256
        self.chainLength = chainLength
        self.intermediateMarkerOID = intermediateMarkerOID
        self.intermediateCountry = intermediateCountry
        self.intermediateOrganization = intermediateOrganization
        self.leafMarkerOID = leafMarkerOID
        self.leafMarkersProduction = leafMarkersProduction
        self.subjectOrganization = subjectOrganization
        self.certificatePolicy = certificatePolicy
        self.revocation = revocation
    }
}
