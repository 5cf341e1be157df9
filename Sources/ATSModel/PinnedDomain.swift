/// One entry of NSPinnedDomains.
public struct PinnedDomain: Hashable, Sendable {
    /// The domain key as written.
    public var domain: String
    /// NSIncludesSubdomains.
    public var includesSubdomains: Bool
    /// NSPinnedLeafIdentities; nil when the key is absent (an empty array is present and always fails).
    public var leafIdentities: [PinnedIdentity]?
    /// NSPinnedCAIdentities; nil when the key is absent (an empty array is present and always fails).
    public var caIdentities: [PinnedIdentity]?

    /// Creates an entry.
    public init(
        domain: String, includesSubdomains: Bool = false, leafIdentities: [PinnedIdentity]? = nil,
        caIdentities: [PinnedIdentity]? = nil
    ) {
        self.domain = domain
        self.includesSubdomains = includesSubdomains
        self.leafIdentities = leafIdentities
        self.caIdentities = caIdentities
    }
}
