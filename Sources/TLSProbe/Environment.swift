#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum Environment {
    static func get(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }

    /// curl's rules: a comma-separated list of names matching the host or a domain suffix,
    /// `*` for everything; a leading dot is optional.
    static func noProxyMatches(host: String, list: String) -> Bool {
        let h = host.lowercased()
        for raw in list.split(separator: ",") {
            var entry = String(raw).trimmingWhitespace().lowercased()
            if entry == "*" { return true }
            if entry.hasPrefix(".") { entry.removeFirst() }
            if entry.isEmpty { continue }
            if h == entry || h.hasSuffix("." + entry) { return true }
        }
        return false
    }
}
