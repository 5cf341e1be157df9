import TrustSupport
import TrustX509

/// trustd's certificate rules for Extended Validation: `SecPolicyCheckEV` and the two helpers it
/// calls (`SecPolicySubordinateCACertificateCouldBeEV`, `SecPolicyRootCACertificateIsEV`, in
/// Security's trust/trustd/SecPolicyServer.c), on the certificates alone. The engine's
/// `ExtendedValidation` adds what the evaluation's result must show (D344).
package enum ExtendedValidationRules {
    /// 2016-07-01, after which a root may not sign a subscriber certificate directly.
    static let july2016 = Timestamp(year: 2016, month: 7, day: 1)!
    /// trustd's "october2006" constant, whose value is 2006-09-01.
    static let october2006 = Timestamp(year: 2006, month: 9, day: 1)!
    static let january2011 = Timestamp(year: 2011, month: 1, day: 1)!
    static let january2014 = Timestamp(year: 2014, month: 1, day: 1)!
    static let january2016 = Timestamp(year: 2016, month: 1, day: 1)!

    /// trustd's per-certificate EV rules, in its order.
    package static func pathFailure(_ certs: [Certificate], rootPolicies: Set<String>) -> String? {
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
