import TrustSupport

/// A set of SPKI SHA-256 pins.
public struct PinSet: Hashable, Sendable {
    /// The pinned SHA-256 digests of DER SubjectPublicKeyInfo.
    public var digests: [[UInt8]]

    /// Creates a pin set.
    public init(digests: [[UInt8]] = []) { self.digests = digests }

    /// Whether no pins are set.
    public var isEmpty: Bool { digests.isEmpty }

    /// Parses `sha256//BASE64` or bare base64 of a 32-byte digest; nil when it is neither.
    public static func parse(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        if body.hasPrefix("sha256//") { body = body.dropFirst(8) }
        guard let bytes = Base64.decode(Array(body.utf8)), bytes.count == 32 else { return nil }
        return bytes
    }
}
