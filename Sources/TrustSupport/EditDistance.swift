/// How far apart two names are, for "did you mean" suggestions (options, Info.plist keys).
public enum EditDistance {
    /// The Levenshtein distance between the UTF-8 bytes of `a` and `b`, or `limit + 1` once it is
    /// certain to exceed `limit`. The names can be attacker-written (an Info.plist's keys), so
    /// each is cut to 256 bytes and the work stops as soon as a whole row exceeds the limit.
    /// - Parameters:
    ///   - a: One name.
    ///   - b: The other.
    ///   - limit: The largest distance the caller cares about.
    /// - Returns: The distance, at most `limit + 1`.
    public static func between(_ a: String, _ b: String, limit: Int) -> Int {
        let x = Array(a.utf8.prefix(256))
        let y = Array(b.utf8.prefix(256))
        if abs(x.count - y.count) > limit { return limit + 1 }
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return min(previous[y.count], limit + 1)
    }
}
