import ATSModel
import TrustSupport
import TrustX509

/// The policy a trust object is created with.
public enum TrustPolicy: Hashable, Sendable {
    /// SecPolicyCreateSSL(true, host): server trust, with a host-name check when `host` is non-nil.
    case ssl(host: String?)
    /// SecPolicyCreateBasicX509(): chain, signatures, validity and compliance only.
    case basicX509

    /// Whether this is an SSL policy (with or without host).
    public var isSSL: Bool { if case .ssl = self { true } else { false } }

    /// The host the SSL policy checks, if any.
    public var host: String? { if case .ssl(let h) = self { h } else { nil } }

    /// How Apple's API spells it.
    public var appleName: String {
        switch self {
        case .ssl(let host?): "SecPolicyCreateSSL(true, \"\(host)\")"
        case .ssl(nil): "SecPolicyCreateSSL(true, nil)"
        case .basicX509: "SecPolicyCreateBasicX509()"
        }
    }

    /// The command-line name: `ssl`, `ssl-no-host` or `basic`.
    public var identifier: String {
        switch self {
        case .ssl(let h): h == nil ? "ssl-no-host" : "ssl"
        case .basicX509: "basic"
        }
    }
}

/// Which rule set the checks follow.
public enum RuleProfile: String, Hashable, Sendable, CaseIterable {
    /// Apple's SecTrust rules (the default everywhere).
    case apple
    /// RFC 5280 and CA/Browser Forum rules, as x509-limbo expects.
    case webpki
}

/// Where a certificate of the evaluated path came from.
public enum CertificateSource: String, Hashable, Sendable {
    /// Presented by the server, or given as the chain.
    case presented = "server"
    /// A custom anchor.
    case anchor = "anchor"
    /// The system trust store.
    case systemStore = "anchor-store"
    /// Fetched through the AIA caIssuers URL.
    case aia = "aia"
    /// Read from a file.
    case file = "file"
}

/// How the custom anchors (`TrustSettings.anchors`) come to be trusted on an Apple device.
public enum CustomAnchorClass: String, Hashable, Sendable, CaseIterable {
    /// The app sets them (SecTrustSetAnchorCertificates); the app's delegate decides trust.
    case app
    /// A configuration profile installed them and the user trusted them in Settings (trustd's user
    /// anchor source); URLSession's default handling decides trust. Apple relaxes some rules for
    /// these (docs/steps.md, "Anchor classes").
    case device

    /// The class of a path that ends at one of these anchors.
    public var anchorClass: AnchorClass { self == .app ? .custom : .device }
}

/// A set of SPKI SHA-256 pins.
public struct PinSet: Hashable, Sendable {
    /// The pinned SHA-256 digests of DER SubjectPublicKeyInfo.
    public var digests: [[UInt8]]

    /// Creates a pin set.
    public init(digests: [[UInt8]] = []) { self.digests = digests }

    /// Whether no pins are set.
    public var isEmpty: Bool { digests.isEmpty }

    /// Parses `sha256//BASE64` or bare base64 of a 32-byte digest; nil when it is neither.
    public static func parse(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        if body.hasPrefix("sha256//") { body = body.dropFirst(8) }
        guard let bytes = Base64.decode(Array(body.utf8)), bytes.count == 32 else { return nil }
        return bytes
    }
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
    /// The rule profile.
    public var profile: RuleProfile
    /// A bound on the number of intermediates between leaf and anchor (x509-limbo's max_chain_depth).
    public var maximumIntermediates: Int?
    /// The extended key usage required of the leaf under the webpki profile (serverAuth by default).
    public var requiredLeafPurpose: OID?
    /// Log IDs of SCTs delivered by the connection (TLS extension or stapled OCSP), which count
    /// towards the Certificate Transparency requirement beside the leaf's embedded ones.
    public var connectionSCTLogIDs: [[UInt8]] = []
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

/// Where the hostname check finds the Public Suffix List, which decides whether a wildcard sits
/// directly before a public suffix. An input like the issuer sources, so an evaluation reads no
/// file it was not given and tests can pass a list made from text.
public enum PublicSuffixSource: Sendable {
    /// Debian's `publicsuffix` file, read once per process on the first wildcard name: its ICANN
    /// section under the `apple` profile, the whole list (PRIVATE section too) under `webpki`.
    case debian
    /// This list under every profile; nil for none, leaving only the built-in single-label rule.
    case list(PublicSuffixList?)
}
