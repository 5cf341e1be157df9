/// basicConstraints (RFC 5280 4.2.1.9).
public struct BasicConstraints: Hashable, Sendable {
    /// Whether the subject is a CA.
    public var isCA: Bool
    /// The maximum number of non-self-issued intermediates that may follow, if limited.
    public var pathLength: Int?
}
