/// A property list value as Info.plist files hold them (XML or binary), with dictionaries kept in
/// the order written so that findings can name keys where the author wrote them.
public indirect enum PropertyListValue: Hashable, Sendable {
    /// `<dict>`: keys in the order written (a repeated key is kept, for the lint to report).
    case dictionary([PropertyListEntry])
    /// `<array>`.
    case array([PropertyListValue])
    /// `<string>`.
    case string(String)
    /// `<true/>` / `<false/>`.
    case bool(Bool)
    /// `<integer>`.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<date>`, as seconds since 1970.
    case date(Double)
    /// `<data>`.
    case data([UInt8])

    /// The value of the first entry named `key`, when this is a dictionary.
    public subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }
}

/// One key and value of a property list dictionary.
public struct PropertyListEntry: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: PropertyListValue

    /// Creates an entry.
    public init(key: String, value: PropertyListValue) {
        self.key = key
        self.value = value
    }
}
