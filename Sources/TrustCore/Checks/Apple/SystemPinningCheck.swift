import AppleTrustData
import PathRules
import TrustSupport
import TrustX509

/// `system-pinning`: Apple's own hosts are pinned to Apple's CAs. For an SSL evaluation with a
/// host that one of Apple's pinning policies covers (`SystemPinning.match`), trustd replaces the
/// SSL policy by one SSL policy per rule of that pinning policy, each with the rule's checks added
/// (SecPathBuilderAddPinningPolicies, SecTrustServer.c), and accepts the chain when any of them
/// passes; when none does, it reports the first one's failures (SecPathBuilderGetResultPVC). The
/// other checks of the SSL policy are the same in every alternative, so this check is the
/// difference: it passes when one rule holds and otherwise reports what the first rule found.
///
/// Only Apple's SSL policy holds this check (PolicyBuilder); Basic X.509 and the webpki profile
/// look no host up.
struct SystemPinningCheck: PathCheck {
    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        guard let host = c.settings.policy.host, let match = SystemPinning.match(host: host),
            !match.rules.isEmpty
        else { return }
        var firstFailures: [Step]?
        for (n, rule) in match.rules.enumerated() {
            let failures = Self.failures(of: rule, policy: match.policyName, c)
            if failures.isEmpty {
                steps.append(
                    Step(
                        .systemPinning, nil, .passed,
                        SystemPinningFinding.pinnedRuleMet(
                            policy: match.policyName, rule: n + 1, rules: match.rules.count)
                    ))
                return
            }
            if firstFailures == nil { firstFailures = failures }
        }
        steps += firstFailures ?? []
    }

    /// The failed steps of one rule, each at the certificate trustd records it on (SecPolicyServer.c:
    /// the anchor's SHA-256 on the anchor, an intermediate's subject on that intermediate, the rest
    /// on the leaf). The anchor checks come first: among failures of one subtype on one certificate
    /// Apple's choice follows a hash table's order, and the anchor is what a pin is about (D171).
    static func failures(of rule: ApplePinningRule, policy: String, _ c: CheckContext) -> [Step] {
        var out: [Step] = []
        func fail(_ index: Int, _ finding: SystemPinningFinding) {
            out.append(Step(.systemPinning, index, .failed, finding))
        }
        let certificates = c.certificates
        let root = certificates[certificates.count - 1]
        let rootDigest = hexString(root.sha256)
        let intermediates = certificates.indices.dropFirst().dropLast()
        if rule.anchorApple && !SystemPinning.appleAnchors.contains(rootDigest) {
            fail(0, .anchorNotApple(policy: policy, anchor: root.displayName))
        }
        if !rule.anchorSHA256.isEmpty && !rule.anchorSHA256.contains(rootDigest) {
            fail(certificates.count - 1, .anchorNotListed(policy: policy, anchor: root.displayName))
        }
        if let length = rule.chainLength, length != certificates.count {
            fail(0, .chainLengthMismatch(policy: policy, expected: length, actual: certificates.count))
        }
        if let oid = rule.intermediateMarkerOID,
            !intermediates.contains(where: { hasMarker(certificates[$0], ApplePinningMarker(oid: oid, value: nil)) })
        {
            fail(0, .intermediateMarkerMissing(policy: policy, oid: oid))
        }
        if let country = rule.intermediateCountry {
            for i in intermediates where certificates[i].subject.values(of: .countryName) != [country] {
                fail(i, .intermediateCountryMismatch(policy: policy, expected: country))
            }
        }
        if let organization = rule.intermediateOrganization {
            for i in intermediates where certificates[i].subject.values(of: .organizationName) != [organization] {
                fail(i, .intermediateOrganizationMismatch(policy: policy, expected: organization))
            }
        }
        let leaf = certificates[0]
        if let markers = rule.leafMarkerOID, !markers.contains(where: { hasMarker(leaf, $0) }) {
            fail(0, .leafMarkerMissing(policy: policy, oids: markers.map(\.oid)))
        }
        if let markers = rule.leafMarkersProduction, !markers.contains(where: { hasMarker(leaf, $0) }) {
            fail(0, .leafProductionMarkerMissing(policy: policy, oids: markers.map(\.oid)))
        }
        if let organization = rule.subjectOrganization, leaf.subject.values(of: .organizationName) != [organization] {
            fail(0, .subjectOrganizationMismatch(policy: policy, expected: organization))
        }
        if let policyOID = rule.certificatePolicy, let oid = OID(dotted: policyOID),
            !certificates.contains(where: { $0.policyExtensions.policies?.contains(oid) ?? false })
        {
            fail(0, .certificatePolicyMissing(policy: policy, oid: policyOID))
        }
        return out
    }

    /// Whether `certificate` carries `marker` as trustd reads one (SecCertificateHasMarkerExtension
    /// and matches_expected in SecCertificate.c): the extension is present and its value starts
    /// with a DER NULL, or, for a marker with a value, with a UTF8String or IA5String holding it.
    static func hasMarker(_ certificate: Certificate, _ marker: ApplePinningMarker) -> Bool {
        guard let oid = OID(dotted: marker.oid), let ext = certificate.extension(oid) else { return false }
        var reader = DERReader(ext.value)
        guard let node = try? reader.readNode() else { return false }
        guard let expected = marker.value else { return node.tag == DERTag.null && node.contentLength == 0 }
        guard node.tag == DERTag.utf8String || node.tag == DERTag.ia5String else { return false }
        return ext.value[node.contentRange].elementsEqual(expected.utf8)
    }
}
