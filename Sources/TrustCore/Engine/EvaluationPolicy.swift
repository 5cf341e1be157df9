import TrustX509

/// A rule set as a value: the configured checks in the order the evaluator runs them (which is
/// the order of their steps), and what they make of critical extensions. Apple's SSL policy,
/// Apple's Basic X.509 policy and the webpki profile are each one of these, built by
/// `PolicyBuilder` once per process, not per evaluation.
struct EvaluationPolicy: Sendable {
    /// The checks, in step order.
    let checks: [any PathCheck]
    /// Whether self-issued intermediates (key rollover) count towards the depth bound during
    /// path building: they do for Apple, not for RFC 5280 6.1.4 (l).
    let selfIssuedCountTowardsDepth: Bool
    /// Every extension one of `checks` enforces: a critical extension outside it is not
    /// understood (RFC 5280 4.2).
    let understoodExtensions: Set<OID>
    /// Whether `understoodExtensions` is `enforcedExtensions`, the set certificates are judged
    /// against when decoded; set for the policies `PolicyBuilder` hands out.
    private(set) var agreesWithDecoding = false

    init(checks: [any PathCheck], selfIssuedCountTowardsDepth: Bool) {
        self.checks = checks
        self.selfIssuedCountTowardsDepth = selfIssuedCountTowardsDepth
        self.understoodExtensions = checks.reduce(into: []) { $0.formUnion($1.enforcedExtensions) }
    }

    /// This policy, noting whether decoding already judged critical extensions as it would.
    func comparedWithDecoding() -> EvaluationPolicy {
        var policy = self
        policy.agreesWithDecoding = understoodExtensions == enforcedExtensions
        return policy
    }

    /// Runs every check on the path in `context`, in order.
    func run(_ context: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        for check in checks { check.run(context, budget: &budget, into: &steps) }
    }
}

/// Builds the policy for a set of settings, as swift-certificates' PolicyBuilder assembles a
/// verifier policy: the profile, the trust policy (SSL or Basic X.509) and, under `webpki`,
/// whether the CA/Browser Forum Baseline Requirements apply decide which checks run and how
/// each is configured. Everything else in the settings is an input the checks read.
struct PolicyBuilder: Hashable, Sendable {
    /// The rule profile.
    var profile: RuleProfile
    /// Whether the trust policy is SSL (with or without a host).
    var ssl: Bool
    /// Whether the CA/Browser Forum Baseline Requirements apply beside RFC 5280 (`webpki` only).
    var caBrowserForum: Bool

    /// The builder for `settings`.
    init(_ settings: TrustSettings) {
        self.init(
            profile: settings.profile, ssl: settings.policy.isSSL,
            caBrowserForum: settings.profile == .webpki && settings.caBrowserForumRules)
    }

    init(profile: RuleProfile, ssl: Bool, caBrowserForum: Bool) {
        self.profile = profile
        self.ssl = ssl
        self.caBrowserForum = profile == .webpki && caBrowserForum
    }

    /// The policy for `settings`, built once per process for each combination.
    static func policy(for settings: TrustSettings) -> EvaluationPolicy {
        switch settings.profile {
        case .apple: settings.policy.isSSL ? appleSSL : appleBasic
        case .webpki:
            switch (settings.policy.isSSL, settings.caBrowserForumRules) {
            case (true, true): webpkiSSL
            case (true, false): webpkiRFC5280SSL
            case (false, true): webpkiBasic
            case (false, false): webpkiRFC5280Basic
            }
        }
    }

    static let appleSSL = PolicyBuilder(profile: .apple, ssl: true, caBrowserForum: false).policy
    static let appleBasic = PolicyBuilder(profile: .apple, ssl: false, caBrowserForum: false).policy
    static let webpkiSSL = PolicyBuilder(profile: .webpki, ssl: true, caBrowserForum: true).policy
    static let webpkiRFC5280SSL = PolicyBuilder(profile: .webpki, ssl: true, caBrowserForum: false).policy
    static let webpkiBasic = PolicyBuilder(profile: .webpki, ssl: false, caBrowserForum: true).policy
    static let webpkiRFC5280Basic = PolicyBuilder(profile: .webpki, ssl: false, caBrowserForum: false).policy

    /// Every combination `policy(for:)` hands out a policy for.
    static let every: [PolicyBuilder] = [RuleProfile.apple, .webpki].flatMap { profile in
        [true, false].flatMap { ssl in
            (profile == .webpki ? [true, false] : [false]).map {
                PolicyBuilder(profile: profile, ssl: ssl, caBrowserForum: $0)
            }
        }
    }

    /// The built policy as `policy(for:)` hands it out.
    private var policy: EvaluationPolicy { build().comparedWithDecoding() }

    /// The policy: its checks in step order, each configured for this profile and trust policy.
    func build() -> EvaluationPolicy {
        let apple = profile == .apple
        let webpki = profile == .webpki
        // Apple relaxes some rules for device-trusted anchors under its SSL policy; the webpki
        // profile knows no such anchors.
        let appleSSL = apple && ssl
        var checks: [any PathCheck] = [
            ChainCheck(namesDateConstraints: apple),
            ValidityCheck(appleAdjustments: apple),
            BasicConstraintsCheck(leafMustNotBeCA: caBrowserForum, toleratesVersion1Issuers: apple),
            KeyUsageCheck(
                leafCertSignNeedsCA: webpki, leafNeedsSignatureUsage: caBrowserForum,
                issuersNeedKeyUsage: caBrowserForum),
            ExtendedKeyUsageCheck(
                enforced: ssl || webpki, appleAnchorRules: apple, subscriberRules: caBrowserForum,
                rootMustNotCarryEKU: webpki),
            NameConstraintsCheck(
                rejectsFormsAppleCannotProcess: apple, rfc5280Rules: webpki,
                mustBeCritical: webpki && !caBrowserForum),
            CertificatePoliciesCheck(),
            ExtensionsCheck(
                appleUnparseable: apple, rejectsMalformedEncoding: webpki, rfc5280ProfileRules: webpki,
                subscriberRules: caBrowserForum),
            HostnameCheck(rules: webpki ? .webpki : .apple),
            KeySizeCheck(
                weakMinimums: KeySizeCheck.weakMinimums, sslMinimums: ssl || webpki ? KeySizeCheck.sslMinimums : nil,
                requireWholeBytes: webpki, deviceAnchoredLeafExempt: appleSSL, comparesWholeBytes: apple,
                rsaModulusLimit: apple ? SignatureVerifier.maximumRSAModulusBits : nil),
            SignatureAlgorithmCheck(rejectsSHA1: ssl || webpki, deviceAnchorExempt: appleSSL),
            ValidityPeriodCheck(enforced: ssl, deviceAnchoredLeafExempt: apple),
            CertificateTransparencyCheck(required: appleSSL),
            RevocationCheck(unusableInformationFails: webpki),
        ]
        // trustd's Valid database date constraints; another root program's profile has none.
        if apple { checks.append(DateConstraintCheck(sslRules: ssl)) }
        // Apple's system pins are looked up by its SSL policy only; the other policies have no
        // such step at all.
        if appleSSL { checks.append(SystemPinningCheck()) }
        checks.append(PinnedDomainsCheck(consulted: ssl))
        return EvaluationPolicy(checks: checks, selfIssuedCountTowardsDepth: !webpki)
    }
}
