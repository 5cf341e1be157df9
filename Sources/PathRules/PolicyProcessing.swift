import TrustX509

/// The inputs of RFC 5280 6.1.1 (c), (e)-(g) besides the path. The user-initial-policy-set is
/// always {anyPolicy}, as for every Apple policy.
package struct PolicyInputs: Hashable, Sendable {
    /// initial-explicit-policy.
    package var explicitPolicy = false
    /// initial-policy-mapping-inhibit.
    package var inhibitPolicyMapping = false
    /// initial-any-policy-inhibit.
    package var inhibitAnyPolicy = false

    /// What trustd passes: any policy, explicit policy not required, mapping and anyPolicy allowed.
    package static let apple = PolicyInputs()
}

/// Why policy processing rejected a path.
public enum PolicyFailure: Hashable, Sendable {
    /// explicit_policy reached 0 while no policy was valid: on certificate `certificate` (path
    /// index) during processing, or at the wrap-up (index 0).
    case explicitPolicyRequired(certificate: Int)
    /// A policyMappings entry maps to or from anyPolicy (RFC 5280 6.1.4 (a)).
    case anyPolicyMapped(certificate: Int)
    /// The policy set outgrew trustx's bound (attacker-sized input).
    case tooLarge(limit: Int)
}

/// The outcome of RFC 5280 6.1 policy processing.
public enum PolicyOutcome: Hashable, Sendable {
    /// The path is acceptable; `policies` are the valid policies at the leaf's depth (empty
    /// when none is, which is acceptable while explicit policy is not required).
    case valid(policies: [OID])
    /// The path is rejected.
    case failed(PolicyFailure)
}

/// RFC 5280 6.1.3 (d)-(f), 6.1.4 (a), (b), (h)-(j) and 6.1.5 (a), (b), (g) in the order trustd
/// runs them (SecCertificatePathVCVerifyPolicyTree).
///
/// With the user-initial-policy-set fixed at {anyPolicy}, 6.1.5 (g) leaves the tree as it is,
/// and every decision depends only on the deepest level of the valid_policy_tree: which
/// valid_policy values it holds and their expected_policy_set. So only that level is kept, one
/// entry per valid_policy. It holds at most the certificate's own policies plus the expected
/// values of the level above, which grow only through policyMappings entries: linear in the
/// input, never the tree's exponential blow-up. A work bound still ends pathological input
/// with a verdict.
package enum PolicyProcessor {
    /// Units of work (an entry created or an expected value written) one path may take.
    package static let maximumWork = 16_384

    /// One level of the tree: valid_policy values in creation order and their expected sets.
    package struct Level {
        var order: [OID] = []
        var expected: [OID: [OID]] = [:]
        var isEmpty: Bool { order.isEmpty }
        func has(_ oid: OID) -> Bool { expected[oid] != nil }
        mutating func add(_ oid: OID, _ set: [OID]) {
            if expected[oid] == nil { order.append(oid) }
            expected[oid] = set
        }
        mutating func remove(_ oid: OID) {
            guard expected.removeValue(forKey: oid) != nil else { return }
            order.removeAll { $0 == oid }
        }
    }

    /// Processes `certificates` (leaf first). A trusted anchor at the end is not processed
    /// (RFC 5280 6.1; trustd does the same); an unanchored path is processed whole.
    package static func process(_ certificates: [Certificate], anchored: Bool, inputs: PolicyInputs = .apple)
        -> PolicyOutcome
    {
        let n = anchored ? certificates.count - 1 : certificates.count
        var explicitPolicy = inputs.explicitPolicy ? 0 : n + 1
        var inhibitAnyPolicy = inputs.inhibitAnyPolicy ? 0 : n + 1
        var policyMapping = inputs.inhibitPolicyMapping ? 0 : n + 1
        var tree: Level? = Level(order: [.anyPolicy], expected: [.anyPolicy: [.anyPolicy]])
        var work = 0
        var i = 1
        while i <= n {
            let index = n - i
            let cert = certificates[index]
            let px = cert.policyExtensions
            if let level = tree {
                if let policies = px.policies {
                    // 6.1.3 (d)(1): a policy joins where a parent expects it, else under anyPolicy.
                    var expectedHere = Set<OID>()
                    for oid in level.order { expectedHere.formUnion(level.expected[oid]!) }
                    let parentIsAny = level.has(.anyPolicy)
                    var next = Level()
                    for p in policies where p != .anyPolicy && (expectedHere.contains(p) || parentIsAny) {
                        next.add(p, [p])
                        work += 2
                    }
                    // (d)(2): anyPolicy carries every expected policy not yet present down a level.
                    if policies.contains(.anyPolicy) && (inhibitAnyPolicy > 0 || (i < n && cert.isSelfIssued)) {
                        for oid in level.order {
                            for v in level.expected[oid]! where !next.has(v) {
                                next.add(v, [v])
                                work += 2
                            }
                        }
                    }
                    // (d)(3): parents left without children are pruned; with one level kept, an
                    // empty level is the NULL tree.
                    tree = next.isEmpty ? nil : next
                } else {
                    // (e): no certificatePolicies, no tree.
                    tree = nil
                }
            }
            if work > maximumWork { return .failed(.tooLarge(limit: maximumWork)) }
            // (f)
            if tree == nil && explicitPolicy == 0 { return .failed(.explicitPolicyRequired(certificate: index)) }
            if i == n { break }

            // 6.1.4 (a), (b)
            if let mappings = px.mappings {
                if mappings.contains(where: {
                    $0.issuerDomainPolicy == .anyPolicy || $0.subjectDomainPolicy == .anyPolicy
                }) {
                    return .failed(.anyPolicyMapped(certificate: index))
                }
                if var level = tree {
                    var issuerPolicies: [OID] = []
                    var mapped: [OID: [OID]] = [:]
                    for m in mappings {
                        if mapped[m.issuerDomainPolicy] == nil { issuerPolicies.append(m.issuerDomainPolicy) }
                        if !(mapped[m.issuerDomainPolicy, default: []].contains(m.subjectDomainPolicy)) {
                            mapped[m.issuerDomainPolicy, default: []].append(m.subjectDomainPolicy)
                        }
                        work += 1
                    }
                    for idp in issuerPolicies {
                        if policyMapping > 0 {
                            // (b)(1): the node's expected set becomes the mapped policies; with no
                            // node for it, anyPolicy at this depth stands in.
                            if level.has(idp) || level.has(.anyPolicy) {
                                level.add(idp, mapped[idp]!)
                                work += mapped[idp]!.count
                            }
                        } else {
                            // (b)(2): mapping inhibited, the mapped policy is deleted.
                            level.remove(idp)
                        }
                    }
                    tree = level.isEmpty ? nil : level
                    if work > maximumWork { return .failed(.tooLarge(limit: maximumWork)) }
                }
            }
            // (h): self-issued intermediates do not count.
            if !cert.isSelfIssued {
                if explicitPolicy > 0 { explicitPolicy -= 1 }
                if policyMapping > 0 { policyMapping -= 1 }
                if inhibitAnyPolicy > 0 { inhibitAnyPolicy -= 1 }
            }
            // (i), (j)
            if let r = px.requireExplicitPolicy, r < explicitPolicy { explicitPolicy = r }
            if let m = px.inhibitPolicyMapping, m < policyMapping { policyMapping = m }
            if let a = px.inhibitAnyPolicy, a < inhibitAnyPolicy { inhibitAnyPolicy = a }
            i += 1
        }
        // 6.1.5 (a), (b): the leaf's own requireExplicitPolicy of 0 applies to itself.
        if explicitPolicy > 0 { explicitPolicy -= 1 }
        if certificates[0].policyExtensions.requireExplicitPolicy == 0 { explicitPolicy = 0 }
        // (g) with {anyPolicy} changes nothing.
        if tree == nil && explicitPolicy == 0 { return .failed(.explicitPolicyRequired(certificate: 0)) }
        return .valid(policies: tree?.order ?? [])
    }
}
