/// The bounds a property list is read within.
public struct PropertyListLimits: Hashable, Sendable {
    /// The largest input accepted, in bytes.
    public var maximumBytes: Int
    /// The deepest nesting of dictionaries and arrays.
    public var maximumDepth: Int
    /// The most values produced; in a binary list every visit of a shared object counts, so a
    /// graph that shares objects cannot expand into exponential work.
    public var maximumObjects: Int

    /// Creates limits.
    public init(maximumBytes: Int, maximumDepth: Int, maximumObjects: Int) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumObjects = maximumObjects
    }

    /// 4 MiB, 64 levels, 250,000 objects: far above any real Info.plist (tens of KB, a few
    /// levels, hundreds of keys), low enough that the worst input is read in milliseconds.
    public static let standard = PropertyListLimits(
        maximumBytes: 4 << 20, maximumDepth: 64, maximumObjects: 250_000)
}
