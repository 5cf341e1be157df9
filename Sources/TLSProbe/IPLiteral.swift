#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// IP literal recognition through inet_pton, the same parser the resolver uses.
enum IPLiteral {
    static func isIPv4(_ s: String) -> Bool {
        var a = in_addr()
        return inet_pton(AF_INET, s, &a) == 1
    }

    static func isIPv6(_ s: String) -> Bool {
        // A zone ("fe80::1%eth0") is not part of the address inet_pton parses.
        let bare = s.split(separator: "%", maxSplits: 1).first.map(String.init) ?? s
        var a = in6_addr()
        return inet_pton(AF_INET6, bare, &a) == 1
    }

    static func isIP(_ s: String) -> Bool { isIPv4(s) || isIPv6(s) }
}
