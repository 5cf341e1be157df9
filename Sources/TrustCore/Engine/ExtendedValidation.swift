import AppleTrustData
import TrustSupport
import TrustX509

/// kSecTrustExtendedValidation, as trustd decides it: `SecPolicyCheckEV` and the two helpers it
/// calls (`SecPolicySubordinateCACertificateCouldBeEV`, `SecPolicyRootCACertificateIsEV`, in
/// Security's trust/trustd/SecPolicyServer.c), the CT condition `SecPVCPathChecks` adds, and the
/// revocation answer `SecPathBuilderReportResult` (trust/trustd/SecTrustServer.c) asks for.
enum ExtendedValidation {
    /// The outcome: EV or not and, when the anchor is a root the EV table lists but the path is
    /// not EV, why not (nil when the anchor is no EV root at all: nothing to explain).
    struct Outcome: Equatable {
        var isEV: Bool
        var failure: String?
    }

    /// 2016-07-01, after which a root may not sign a subscriber certificate directly.
    static let july2016 = Timestamp(year: 2016, month: 7, day: 1)!
    /// trustd's "october2006" constant, whose value is 2006-09-01.
    static let october2006 = Timestamp(year: 2006, month: 9, day: 1)!
    static let january2011 = Timestamp(year: 2011, month: 1, day: 1)!
    static let january2014 = Timestamp(year: 2014, month: 1, day: 1)!
    static let january2016 = Timestamp(year: 2016, month: 1, day: 1)!

    /// Assesses `path`, whose `steps` are complete; `transparent` is the verdict's
    /// kSecTrustCertificateTransparency.
    static func assess(path: BuiltPath, steps: [Step], settings: TrustSettings, transparent: Bool) -> Outcome {
        let certs = path.certificates
        guard path.anchorClass == .system, certs.count >= 2, let root = certs.last else {
            return Outcome(isEV: false, failure: nil)
        }
        let table = settings.evRoots ?? AppleEVRoots.policies
        let rootKey = hexString(root.sha256).uppercased()
        guard let rootPolicies = table[rootKey].map(Set.init), !rootPolicies.isEmpty else {
            return Outcome(isEV: false, failure: nil)
        }
        if let why = pathFailure(certs, rootPolicies: rootPolicies)
            ?? resultFailure(
                certs, steps: steps, transparent: transparent)
        {
            return Outcome(isEV: false, failure: why)
        }
        return Outcome(isEV: true, failure: nil)
    }

    /// trustd's per-certificate EV rules, in its order.
    static func pathFailure(_ certs: [Certificate], rootPolicies: Set<String>) -> String? {
        let leaf = certs[0]
        if leaf.notBefore > july2016 && certs.count < 3 {
            return "the root signed the leaf directly, which EV forbids after June 2016"
        }
        // anyPolicy in the leaf leaves the valid set empty (trustd starts it only from real OIDs).
        let leafPolicies = leaf.policyExtensions.policies ?? []
        if leafPolicies.contains(.anyPolicy) || leafPolicies.isEmpty {
            return "the leaf asserts no certificate policy other than anyPolicy"
        }
        var valid = Set(leafPolicies.map(\.dotted))
        for (i, ca) in certs.enumerated().dropFirst().dropLast() {
            if let why = subordinateFailure(ca) { return "certificate \(i) \(why)" }
            let policies = ca.policyExtensions.policies ?? []
            // An intermediate with anyPolicy keeps the leaf's set (policy_set_intersect).
            if !policies.contains(.anyPolicy) { valid.formIntersection(policies.map(\.dotted)) }
            if valid.isEmpty { return "certificate \(i) asserts none of the leaf's policies" }
        }
        if valid.isDisjoint(with: rootPolicies) {
            return "the root is not listed as EV for any of the leaf's policies"
        }
        return rootFailure(certs[certs.count - 1])
    }

    /// `SecPolicySubordinateCACertificateCouldBeEV`: policies, a CRL distribution point, a CA's
    /// basic constraints and key usage, enough key, SHA-2 after 2015.
    static func subordinateFailure(_ ca: Certificate) -> String? {
        if (ca.policyExtensions.policies ?? []).isEmpty { return "has no certificate policies" }
        if (ca.distributionPoints ?? []).isEmpty { return "has no CRL distribution point" }
        if ca.basicConstraints?.isCA != true { return "is not a CA by its basic constraints" }
        if !signsCertificatesAndCRLs(ca) { return "lacks keyCertSign and cRLSign key usage" }
        let old = ca.notBefore < january2011 || ca.notAfter < january2014
        if !hasEnoughKey(ca, rsaBits: old ? 1024 : 2048) { return "has too small a key for EV" }
        if ca.notBefore > january2016 && usesSHA1(ca) { return "is signed with SHA-1 after 2015" }
        return nil
    }

    /// `SecPolicyRootCACertificateIsEV` beyond the table: a v3 CA issued since September 2006
    /// with keyCertSign and cRLSign, and RSA 2048 or EC P-256 at least.
    static func rootFailure(_ root: Certificate) -> String? {
        if root.notBefore >= october2006 {
            if root.version < 3 { return "the root is not X.509 v3" }
            if root.basicConstraints?.isCA != true { return "the root is not a CA by its basic constraints" }
            if !signsCertificatesAndCRLs(root) { return "the root lacks keyCertSign and cRLSign key usage" }
        }
        if !hasEnoughKey(root, rsaBits: 2048) { return "the root's key is too small for EV" }
        return nil
    }

    /// The conditions on the evaluation's result: trusted by SecTrust, CT-qualified, and a
    /// positive revocation answer for every certificate below the anchor. trustd waives the last
    /// only in its variants without network access; an iPhone has network, so a check without
    /// OCSP or CRLs is not EV.
    static func resultFailure(_ certs: [Certificate], steps: [Step], transparent: Bool) -> String? {
        let secTrustFailed = steps.contains { $0.status == .failed && $0.id != .pin && $0.finding.atsFailure == nil }
        if secTrustFailed { return "the evaluation failed" }
        if !transparent { return "the path is not CT-qualified" }
        for i in 0..<(certs.count - 1) {
            let positive = steps.contains { $0.id == .revocation && $0.certificate == i && $0.status == .passed }
            if !positive { return "certificate \(i) has no positive revocation answer (OCSP or CRL)" }
        }
        return nil
    }

    static func signsCertificatesAndCRLs(_ cert: Certificate) -> Bool {
        guard let ku = cert.keyUsage else { return false }
        return ku.keyCertSign && ku.has(6)
    }

    static func hasEnoughKey(_ cert: Certificate, rsaBits: Int) -> Bool {
        switch cert.publicKey.type {
        case .rsa: cert.publicKey.bits >= rsaBits
        case .ec: cert.publicKey.bits >= 256
        default: false
        }
    }

    static func usesSHA1(_ cert: Certificate) -> Bool {
        let oid = cert.signatureAlgorithm.oid
        return oid == .sha1WithRSA || oid == .ecdsaWithSHA1 || oid == .dsaWithSHA1
    }
}
