import PathRules
import TrustX509

/// `certificate-policies`: RFC 5280 6.1 policy processing with Apple's inputs. trustd runs it
/// for every policy and reports a rejected path on the leaf (SecPolicyServer.c).
struct CertificatePoliciesCheck: PathCheck {
    // The policy tree consumes the mappings and both skip counters.
    var enforcedExtensions: Set<OID> {
        [.certificatePolicies, .policyConstraints, .inhibitAnyPolicy, .policyMappings]
    }

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        switch PolicyProcessor.process(c.certificates, anchored: c.path.isAnchored) {
        case .valid(let policies):
            let finding = CertificatePoliciesFinding.policySet(policies: policies.map(\.name))
            steps.append(Step(.certificatePolicies, nil, .passed, finding))
        case .failed(let failure):
            steps.append(Step(.certificatePolicies, 0, .failed, CertificatePoliciesFinding.policyFailed(failure)))
        }
    }

    /// The policy extensions' own encoding rules, for the `webpki` profile (Apple's parser
    /// accepts each of these).
    static func encodingFindings(_ cert: Certificate) -> [ComplianceFinding] {
        var out: [ComplianceFinding] = []
        if let pc = cert.extension(.policyConstraints) {
            // RFC 5280 4.2.1.11: "Conforming CAs MUST mark this extension as critical."
            if !pc.critical {
                out.append(.nonCompliant(detail: "policyConstraints is not critical (RFC 5280 4.2.1.11)"))
            }
            // "Conforming CAs MUST NOT issue certificates where policyConstraints is an empty
            // sequence."
            if cert.policyExtensions.requireExplicitPolicy == nil && cert.policyExtensions.inhibitPolicyMapping == nil
                && pc.decodeError == nil
            {
                out.append(.nonCompliant(detail: "policyConstraints is an empty sequence (RFC 5280 4.2.1.11)"))
            }
        }
        // RFC 5280 4.2.1.14: "Conforming CAs MUST mark this extension as critical."
        if let iap = cert.extension(.inhibitAnyPolicy), !iap.critical {
            out.append(.nonCompliant(detail: "inhibitAnyPolicy is not critical (RFC 5280 4.2.1.14)"))
        }
        return out
    }
}
