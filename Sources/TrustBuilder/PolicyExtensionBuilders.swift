import TrustX509

extension CertificateBuilder.RawExtension {
    /// certificatePolicies (RFC 5280 4.2.1.4) asserting `policies`, without qualifiers.
    public static func certificatePolicies(_ policies: [OID], critical: Bool = false) -> Self {
        let value = DERWriter.encode { w in
            w.sequence { w in
                for p in policies { w.sequence { $0.oid(p) } }
            }
        }
        return Self(oid: .certificatePolicies, critical: critical, value: value)
    }

    /// policyMappings (RFC 5280 4.2.1.5): each pair is (issuerDomainPolicy, subjectDomainPolicy).
    public static func policyMappings(_ pairs: [(OID, OID)], critical: Bool = true) -> Self {
        let value = DERWriter.encode { w in
            w.sequence { w in
                for (issuer, subject) in pairs {
                    w.sequence { w in
                        w.oid(issuer)
                        w.oid(subject)
                    }
                }
            }
        }
        return Self(oid: .policyMappings, critical: critical, value: value)
    }

    /// policyConstraints (RFC 5280 4.2.1.11) with the SkipCerts given; both nil writes the
    /// empty sequence RFC 5280 forbids.
    public static func policyConstraints(
        requireExplicitPolicy: Int? = nil, inhibitPolicyMapping: Int? = nil,
        critical: Bool = true
    ) -> Self {
        let value = DERWriter.encode { w in
            w.sequence { w in
                if let r = requireExplicitPolicy { w.element(tag: 0x80, content: integerContent(r)) }
                if let m = inhibitPolicyMapping { w.element(tag: 0x81, content: integerContent(m)) }
            }
        }
        return Self(oid: .policyConstraints, critical: critical, value: value)
    }

    /// inhibitAnyPolicy (RFC 5280 4.2.1.14).
    public static func inhibitAnyPolicy(_ skipCerts: Int, critical: Bool = true) -> Self {
        Self(oid: .inhibitAnyPolicy, critical: critical, value: DERWriter.encode { $0.integer(skipCerts) })
    }

    /// The content octets of a non-negative INTEGER (for IMPLICIT tags).
    private static func integerContent(_ value: Int) -> [UInt8] {
        Array(DERWriter.encode { $0.integer(value) }.dropFirst(2))
    }
}
