/// nameConstraints (RFC 5280 4.2.1.10).
public struct NameConstraints: Hashable, Sendable {
    /// Permitted subtrees; nil when the field is absent.
    public var permitted: [GeneralSubtree]?
    /// Excluded subtrees; nil when the field is absent.
    public var excluded: [GeneralSubtree]?
}

/// One subtree of nameConstraints.
public struct GeneralSubtree: Hashable, Sendable {
    /// The base name.
    public var base: GeneralName
}
