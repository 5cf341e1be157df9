#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finding a byte string in a larger one: PEM markers in files and bundles.
package enum ByteSearch {
    /// First occurrence of `needle` in `hay` at or after `from` (memchr for the first byte, then
    /// memcmp; Glibc's memmem is hidden behind _GNU_SOURCE). Each memchr call starts past the
    /// previous hit, so the search is linear in `hay` times the needle's length at worst.
    package static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        hay.withUnsafeBytes { find(needle, in: $0, from: from) }
    }

    /// The same over raw memory.
    package static func find(_ needle: [UInt8], in hay: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let first = needle.first, from >= 0, hay.count - from >= needle.count else { return nil }
        return needle.withUnsafeBytes { n -> Int? in
            guard let base = hay.baseAddress, let nb = n.baseAddress else { return nil }
            var i = from
            let last = hay.count - n.count
            while i <= last {
                guard let hit = memchr(base + i, Int32(first), last - i + 1) else { return nil }
                let at = UnsafeRawPointer(hit) - base
                if memcmp(base + at, nb, n.count) == 0 { return at }
                i = at + 1
            }
            return nil
        }
    }
}
