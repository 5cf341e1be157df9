import ATSModel
import CTModel
import PathRules
import TrustSupport
import TrustX509

/// Where an evaluation's time comes from.
public enum EvaluationTimeMode: String, Hashable, Sendable {
    /// The clock at the evaluation: each evaluation of a lasting run reads it again.
    case now
    /// A time given by the user, the same for every evaluation.
    case fixed
}

/// Everything that shapes one evaluation besides the presented chain.
public struct TrustSettings: Sendable {
    /// Custom anchors (SecTrustSetAnchorCertificates). Any certificate can be one.
    public var anchors: [Certificate]
    /// SecTrustSetAnchorCertificatesOnly: when custom anchors are set and this is true (Apple's
    /// default once anchors are set), system roots are not trusted.
    public var anchorsOnly: Bool
    /// How every certificate of `anchors` is trusted: set by the app (the default) or trusted on the
    /// device through a configuration profile.
    public var customAnchorClass: CustomAnchorClass = .app
    /// The system trust store; nil for none at all.
    public var systemStore: (any IssuerSource)?
    /// The policy.
    public var policy: TrustPolicy
    /// SPKI pins checked by the app's delegate after evaluation (a pinning URLSession delegate).
    public var pins: PinSet
    /// The evaluation time.
    public var time: Timestamp
    /// Whether `time` is a time the caller fixed (`--at`, the explorer's `t`) or the moment of
    /// the evaluation, which a run that lasts (a watch) takes again for every evaluation.
    public var timeMode: EvaluationTimeMode = .fixed
    /// The rule profile.
    public var profile: RuleProfile
    /// Who evaluates: an app, or Safari and Apple's other programs, whose roots expire early (`--client`).
    public var client: TrustClient = .app
    /// A bound on the number of intermediates between leaf and anchor (x509-limbo's max_chain_depth).
    public var maximumIntermediates: Int?
    /// The extended key usage required of the leaf under the webpki profile (serverAuth by default).
    public var requiredLeafPurpose: OID?
    /// Issuers fetched through AIA caIssuers URLs (Apple's SSL policy fetches missing
    /// intermediates; Basic X.509 does not, so callers fetch only for SSL).
    public var fetchedIssuers: [Certificate] = []
    /// Under `webpki`, whether the CA/Browser Forum Baseline Requirements' subscriber-certificate
    /// rules apply beside RFC 5280 (the default). Off, `webpki` is RFC 5280 path validation
    /// alone, as x509-limbo's RFC 5280 cases expect.
    public var caBrowserForumRules = true
    /// CRLs to check the path against (`--crl`); none means revocation is not checked.
    public var revocationLists: [RevocationList] = []
    /// The OCSP response the server stapled (DER), checked for the leaf.
    public var stapledOCSPResponse: [UInt8]?
    /// OCSP responses fetched over the network (`--revocation`), for any certificate of the path.
    public var fetchedOCSPResponses: [[UInt8]] = []
    /// Whether revocation information was fetched over the network, as
    /// SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod) would (`--revocation`).
    public var revocationFetched = false
    /// A host the app holds while its policy ignores it (Basic X.509): the hostname step
    /// reports whether it would have matched, and checks nothing.
    public var hostIgnoredByPolicy: String?
    /// Bounds on the work of one evaluation; exhausting one ends it with the `budget` step.
    public var limits: EvaluationLimits = .standard
    /// The Public Suffix List the hostname check refuses wildcards against (Debian's by default).
    public var publicSuffixes: PublicSuffixSource = .debian
    /// App Transport Security and NSPinnedDomains, when the app's configuration is evaluated
    /// (`--ats`, `--ats-plist`); nil leaves both out.
    public var ats: ATSSettings?
    /// What the connection negotiated, for ATS's connection rules; nil for chains from files.
    public var negotiated: NegotiatedTLS?
    /// Whether every certificate of the path below the anchor needs a positive, verified
    /// revocation answer (an OCSP response or an applicable CRL), as SecPolicyCreateRevocation
    /// with kSecRevocationRequirePositiveResponse asks (`--require-revocation`).
    public var requireRevocation = false
    /// The Certificate Transparency logs SCTs are checked against (SecTrustSetTrustedLogs):
    /// nil for Apple's list, which is decoded only when an SCT needs it (most paths have none,
    /// and decoding its 132 keys was 7% of a short run's instructions).
    public var ctLogs: CTLogList?
    /// The SCTs the server sent in its TLS extension, each TLS-encoded
    /// (SecTrustSetSignedCertificateTimestamps); those of a stapled OCSP response are read from
    /// `stapledOCSPResponse`.
    public var presentedSCTs: [[UInt8]] = []
    /// The Extended Validation table: root SHA-256 (uppercase hex) -> the EV policy OIDs it may
    /// assert; nil for Apple's EVRoots.json (kSecTrustExtendedValidation, docs/steps.md).
    public var evRoots: [String: [String]]?
    /// trustd's Valid date constraints by CA SHA-256 (`DateConstraint.table`); nil for `DateConstraint.apple`.
    public var dateConstraints: [DigestKey: DateConstraint]?

    /// Creates settings; by default SSL without host, system anchors, the `apple` profile.
    public init(
        anchors: [Certificate] = [], anchorsOnly: Bool = true, customAnchorClass: CustomAnchorClass = .app,
        systemStore: (any IssuerSource)? = nil, policy: TrustPolicy = .ssl(host: nil), pins: PinSet = PinSet(),
        time: Timestamp,
        profile: RuleProfile = .apple, maximumIntermediates: Int? = nil, requiredLeafPurpose: OID? = nil
    ) {
        self.anchors = anchors
        self.anchorsOnly = anchorsOnly
        self.customAnchorClass = customAnchorClass
        self.systemStore = systemStore
        self.policy = policy
        self.pins = pins
        self.time = time
        self.profile = profile
        self.maximumIntermediates = maximumIntermediates
        self.requiredLeafPurpose = requiredLeafPurpose
    }

    /// Whether system roots are trusted as anchors in this configuration.
    public var trustsSystemAnchors: Bool { systemStore != nil && (anchors.isEmpty || !anchorsOnly) }

    /// Whether the app decides trust in a delegate (anchors the app sets, or pins), which is what
    /// turns a rejection into URLError -999 instead of -1202. Device-trusted anchors need no
    /// delegate: URLSession's default handling trusts them.
    public var delegateDecides: Bool { (!anchors.isEmpty && customAnchorClass == .app) || !pins.isEmpty }
}
