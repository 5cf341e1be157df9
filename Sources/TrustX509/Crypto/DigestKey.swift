/// A SHA-256 digest as four words, for sets and dictionary keys: hashing a `[UInt8]` feeds the
/// hasher byte by byte, which showed up in profiles of re-evaluation.
public struct DigestKey: Hashable, Sendable {
    let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// The first 32 bytes of `digest` (shorter input is zero-padded).
    public init(_ digest: [UInt8]) {
        func word(_ i: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<8 where i * 8 + k < digest.count { v = v << 8 | UInt64(digest[i * 8 + k]) }
            return v
        }
        w0 = word(0)
        w1 = word(1)
        w2 = word(2)
        w3 = word(3)
    }
}
