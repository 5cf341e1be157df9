/// An app's NSAppTransportSecurity dictionary. A key that is absent is nil.
public struct ATSConfiguration: Hashable, Sendable {
    /// NSAllowsArbitraryLoads.
    public var allowsArbitraryLoads: Bool?
    /// NSAllowsArbitraryLoadsForMedia.
    public var allowsArbitraryLoadsForMedia: Bool?
    /// NSAllowsArbitraryLoadsInWebContent.
    public var allowsArbitraryLoadsInWebContent: Bool?
    /// NSAllowsLocalNetworking.
    public var allowsLocalNetworking: Bool?
    /// NSExceptionDomains, in the order written.
    public var exceptionDomains: [ATSExceptionDomain]
    /// NSPinnedDomains, in the order written.
    public var pinnedDomains: [PinnedDomain]
    /// What Apple's reader would ignore or read otherwise than written (misspelt keys, wrong
    /// types), from `decode`; empty for configurations made in code.
    public var notes: [ATSConfigurationNote] = []

    /// Creates a configuration; with no arguments, ATS's defaults (an Info.plist without the key).
    public init(
        allowsArbitraryLoads: Bool? = nil, allowsArbitraryLoadsForMedia: Bool? = nil,
        allowsArbitraryLoadsInWebContent: Bool? = nil, allowsLocalNetworking: Bool? = nil,
        exceptionDomains: [ATSExceptionDomain] = [], pinnedDomains: [PinnedDomain] = []
    ) {
        self.allowsArbitraryLoads = allowsArbitraryLoads
        self.allowsArbitraryLoadsForMedia = allowsArbitraryLoadsForMedia
        self.allowsArbitraryLoadsInWebContent = allowsArbitraryLoadsInWebContent
        self.allowsLocalNetworking = allowsLocalNetworking
        self.exceptionDomains = exceptionDomains
        self.pinnedDomains = pinnedDomains
    }
}
