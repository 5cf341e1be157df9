/// One policyMappings entry (RFC 5280 4.2.1.5): the issuer's policy is taken as equivalent to
/// the subject's.
public struct PolicyMapping: Hashable, Sendable {
    /// The policy in the issuer's domain.
    public var issuerDomainPolicy: OID
    /// The equivalent policy in the subject's domain.
    public var subjectDomainPolicy: OID

    /// Creates a mapping.
    public init(issuerDomainPolicy: OID, subjectDomainPolicy: OID) {
        self.issuerDomainPolicy = issuerDomainPolicy
        self.subjectDomainPolicy = subjectDomainPolicy
    }
}

/// The four extensions RFC 5280 6.1 policy processing reads, decoded the way Apple's parser
/// reads them: a policy listed twice counts once, a skip count too large for 32 bits is as good
/// as unlimited, and an extension whose value does not parse counts as absent (Apple's parser
/// marks it not present and goes on).
public struct PolicyExtensions: Hashable, Sendable {
    /// certificatePolicies' policy identifiers in encoded order; nil when the extension is absent.
    public var policies: [OID]?
    /// policyMappings; nil when absent.
    public var mappings: [PolicyMapping]?
    /// policyConstraints requireExplicitPolicy (SkipCerts), when present.
    public var requireExplicitPolicy: Int?
    /// policyConstraints inhibitPolicyMapping (SkipCerts), when present.
    public var inhibitPolicyMapping: Int?
    /// inhibitAnyPolicy's SkipCerts, when present.
    public var inhibitAnyPolicy: Int?

    /// Apple's parser reads at most this many policies or mappings per extension (SecCertificate.c).
    static let maximumEntries = 1024

    /// Reads the policy extensions among `extensions`; the first of each type counts.
    init(_ extensions: [Extension]) {
        var seen = Set<OID>()
        for ext in extensions where seen.insert(ext.oid).inserted {
            switch ext.oid {
            case .certificatePolicies: policies = try? PolicyExtensions.policies(ext.value)
            case .policyMappings: mappings = try? PolicyExtensions.mappings(ext.value)
            case .policyConstraints:
                if let (explicit, inhibit) = try? PolicyExtensions.constraints(ext.value) {
                    requireExplicitPolicy = explicit
                    inhibitPolicyMapping = inhibit
                }
            case .inhibitAnyPolicy:
                var r = DERReader(ext.value)
                if let node = try? r.read(DERTag.integer, "SkipCerts"), r.isAtEnd {
                    inhibitAnyPolicy = try? PolicyExtensions.skipCerts(r, node)
                }
            default: break
            }
        }
    }

    /// SkipCerts ::= INTEGER (0..MAX); values beyond 32 bits are as good as unlimited.
    private static func skipCerts(_ r: DERReader, _ node: DERNode) throws(DecodingError) -> Int {
        let raw = try r.integerBytes(node)
        guard raw[0] & 0x80 == 0 else { throw r.fail("negative SkipCerts", at: node.start) }
        if raw.count > 4 { return Int(Int32.max) }
        return raw.reduce(0) { $0 << 8 | Int($1) }
    }

    private static func policies(_ value: [UInt8]) throws(DecodingError) -> [OID] {
        var r = DERReader(value)
        let seq = try r.read(DERTag.sequence, "certificatePolicies")
        try r.expectEnd("certificatePolicies")
        var s = r.reader(inside: seq)
        var out: [OID] = []
        var seen = Set<OID>()
        while !s.isAtEnd {
            guard out.count < maximumEntries else { throw s.fail("more than \(maximumEntries) policies") }
            let info = try s.read(DERTag.sequence, "a PolicyInformation")
            var p = s.reader(inside: info)
            let oid = try p.objectIdentifier(try p.read(DERTag.oid, "policyIdentifier"))
            if seen.insert(oid).inserted { out.append(oid) }
        }
        if out.isEmpty { throw r.fail("empty certificatePolicies", at: seq.start) }
        return out
    }

    private static func mappings(_ value: [UInt8]) throws(DecodingError) -> [PolicyMapping] {
        var r = DERReader(value)
        let seq = try r.read(DERTag.sequence, "PolicyMappings")
        try r.expectEnd("PolicyMappings")
        var s = r.reader(inside: seq)
        var out: [PolicyMapping] = []
        while !s.isAtEnd {
            guard out.count < maximumEntries else { throw s.fail("more than \(maximumEntries) mappings") }
            let pair = try s.read(DERTag.sequence, "a policy mapping")
            var p = s.reader(inside: pair)
            let issuer = try p.objectIdentifier(try p.read(DERTag.oid, "issuerDomainPolicy"))
            let subject = try p.objectIdentifier(try p.read(DERTag.oid, "subjectDomainPolicy"))
            try p.expectEnd("a policy mapping")
            out.append(PolicyMapping(issuerDomainPolicy: issuer, subjectDomainPolicy: subject))
        }
        if out.isEmpty { throw r.fail("empty PolicyMappings", at: seq.start) }
        return out
    }

    private static func constraints(_ value: [UInt8]) throws(DecodingError) -> (Int?, Int?) {
        var r = DERReader(value)
        let seq = try r.read(DERTag.sequence, "PolicyConstraints")
        try r.expectEnd("PolicyConstraints")
        var s = r.reader(inside: seq)
        var explicit: Int?
        var inhibit: Int?
        if let n = try s.readOptional(DERTag.contextSpecific(0, constructed: false)) {
            explicit = try skipCerts(s, n)
        }
        if let n = try s.readOptional(DERTag.contextSpecific(1, constructed: false)) {
            inhibit = try skipCerts(s, n)
        }
        try s.expectEnd("PolicyConstraints")
        return (explicit, inhibit)
    }
}
