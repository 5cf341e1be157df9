/// Why an AIA fetch failed: one line.
public struct AIAError: Error, Sendable, CustomStringConvertible {
    /// The line.
    public var message: String
    init(_ message: String) { self.message = message }
    /// The line.
    public var description: String { message }
}
