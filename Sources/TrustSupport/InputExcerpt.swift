/// A bounded quotation of attacker-supplied input for an error message: a 3.9 MB tag name in a
/// property list, a header line from a server, a file name. Messages quote input so the user can
/// find it, but never at full size: one line of error must stay one line of error.
public enum InputExcerpt {
    /// How many bytes of input a message quotes by default.
    public static let defaultLimit = 200

    /// `text` cut to at most `limit` UTF-8 bytes (on a character boundary), followed by
    /// `… (N bytes)` when it was cut so the reader knows how much was left out. The result is not
    /// sanitised: it goes through the same escaping as the rest of the message.
    /// - Parameters:
    ///   - text: The input to quote.
    ///   - limit: The most bytes of `text` to keep.
    /// - Returns: The excerpt.
    public static func quote<S: StringProtocol>(_ text: S, limit: Int = defaultLimit) -> String {
        let total = text.utf8.count
        if total <= limit { return String(text) }
        var kept = Substring()
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            used += size
            kept.append(character)
        }
        return "\(kept)… (\(total) bytes)"
    }

    /// `bytes` decoded as UTF-8 (invalid sequences replaced) and quoted as `quote(_:limit:)` does;
    /// at most `limit` bytes are decoded, so a huge input costs nothing.
    /// - Parameters:
    ///   - bytes: The input to quote.
    ///   - limit: The most bytes to keep.
    /// - Returns: The excerpt.
    public static func quote<C: Collection>(bytes: C, limit: Int = defaultLimit) -> String where C.Element == UInt8 {
        let head = String(decoding: bytes.prefix(limit), as: UTF8.self)
        return bytes.count <= limit ? head : "\(head)… (\(bytes.count) bytes)"
    }
}
