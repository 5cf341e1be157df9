/// Reads property lists: XML (`<plist version="1.0">`) and binary (`bplist00`), the two forms
/// an Info.plist is shipped in. Pure Swift over bytes, bounded by `PropertyListLimits`.
public enum PropertyList {
    /// Parses an XML or binary property list.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - limits: The bounds to read within.
    /// - Returns: The top-level value.
    /// - Throws: `PropertyListError` with the reason, and the byte offset where one is to blame.
    public static func parse(_ bytes: [UInt8], limits: PropertyListLimits = .standard) throws(PropertyListError)
        -> PropertyListValue
    {
        guard bytes.count <= limits.maximumBytes else {
            throw PropertyListError(.tooLarge(bytes: bytes.count, limit: limits.maximumBytes))
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            guard bytes.starts(with: Array("bplist00".utf8)) else {
                throw PropertyListError(.unsupported("a binary property list other than bplist00"), at: 6)
            }
            var reader = try BinaryPropertyListReader(bytes, limits: limits)
            return try reader.read()
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw PropertyListError(.unsupported("UTF-16 XML"), at: 0)
        }
        var reader = XMLPropertyListReader(bytes, limits: limits)
        return try reader.read()
    }
}
