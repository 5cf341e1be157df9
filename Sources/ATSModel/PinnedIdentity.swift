import TrustSupport

/// One SPKI identity of an NSPinnedDomains entry, kept as written so that an invalid one can be
/// reported (an invalid identity never matches).
public struct PinnedIdentity: Hashable, Sendable {
    /// The `SPKI-SHA256-BASE64` value as written in the property list.
    public var text: String
    /// The 32-byte SHA-256 digest it decodes to; nil when it is not 32 bytes of base64.
    public var digest: [UInt8]?

    /// Creates an identity from its text; `digest` is decoded from it.
    public init(text: String) {
        self.text = text
        if let bytes = Base64.decode(Array(text.utf8)), bytes.count == 32 {
            self.digest = bytes
        } else {
            self.digest = nil
        }
    }
}
