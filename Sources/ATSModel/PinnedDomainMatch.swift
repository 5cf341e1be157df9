/// The NSPinnedDomains entries that apply to one host, and their pins per category.
public struct PinnedDomainMatch: Sendable {
    /// The pins of one category, unioned over every matching entry that has the key.
    public struct Category: Sendable {
        /// The matching entries' keys that contribute (have the category's key).
        public var domains: [String]
        /// Every identity listed, valid or not.
        public var identities: [PinnedIdentity]
        /// The usable digests (32 bytes of base64).
        public var digests: Set<[UInt8]>
        /// How many identities are listed.
        public var count: Int { identities.count }
    }

    /// The keys of every matching entry.
    public var domains: [String] = []
    /// NSPinnedLeafIdentities, nil when no matching entry has the key.
    public var leaf: Category?
    /// NSPinnedCAIdentities, nil when no matching entry has the key.
    public var ca: Category?

    /// Matches `host` as Apple's SSL policy does: one trailing dot removed from the host, the key
    /// compared case-insensitively with the host, or, when the entry's NSIncludesSubdomains is
    /// true, with the host minus its first label (one level only).
    public init(_ entries: [PinnedDomain], host: String) {
        var h = Substring(host)
        if h.hasSuffix(".") { h = h.dropLast() }
        let name = h.lowercased()
        var parent: String?
        if let dot = name.firstIndex(of: "."), name.index(after: dot) < name.endIndex {
            parent = String(name[name.index(after: dot)...])
        }
        for e in entries {
            let key = e.domain.lowercased()
            guard key == name || (e.includesSubdomains && parent != nil && key == parent) else { continue }
            domains.append(e.domain)
            if let ids = e.leafIdentities { leaf = Self.add(ids, from: e.domain, to: leaf) }
            if let ids = e.caIdentities { ca = Self.add(ids, from: e.domain, to: ca) }
        }
    }

    private static func add(_ ids: [PinnedIdentity], from domain: String, to category: Category?) -> Category {
        var c = category ?? Category(domains: [], identities: [], digests: [])
        c.domains.append(domain)
        c.identities += ids
        for id in ids { if let d = id.digest { c.digests.insert(d) } }
        return c
    }
}
