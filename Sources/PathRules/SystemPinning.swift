import AppleTrustData
import Synchronization
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Apple's system pinning: which of Apple's pinning policies covers a host, as trustd's pinning
/// database answers it (SecPinningDb.m, `queryForDomain:`), over the rules compiled into
/// AppleTrustData.
///
/// The host is split at its first dot: the rest, less one trailing dot, must equal an entry's
/// suffix exactly (trustd looks it up with an SQL equality, so case matters), and the entry's
/// pattern must find a match anywhere in the first label, ignoring case. Every matching entry's
/// rules are gathered in the data's order; the policy is named after the last one.
package enum SystemPinning {
    /// Apple's pinning policy for a host: its name and the alternatives a chain must meet.
    package struct Match: Sendable {
        /// Apple's name for the policy (`MMCS`, ...).
        package var policyName: String
        /// The rules gathered from every matching entry; a chain passes if it meets one.
        package var rules: [ApplePinningRule]
        /// The suffix and pattern of each matching entry, for the report.
        package var domains: [ApplePinningDomain]
    }

    /// The longest first label considered: a DNS label has at most 63 octets, and the patterns
    /// (some with a lookahead over the whole label) are not run on anything longer.
    package static let maximumLabelLength = 63

    /// The entries by suffix: (policy index, domain), in the data's order.
    package static let bySuffix: [String: [(policy: Int, domain: ApplePinningDomain)]] = {
        var table: [String: [(policy: Int, domain: ApplePinningDomain)]] = [:]
        for (index, policy) in ApplePinningData.policies.enumerated() {
            for domain in policy.domains { table[domain.suffix, default: []].append((index, domain)) }
        }
        return table
    }()

    /// Answers already computed, by host: running the patterns costs milliseconds, and every
    /// candidate path and every re-evaluation asks again for the same host. Emptied when full.
    private static let answers = Mutex<[String: Match?]>([:])
    /// How many hosts `answers` holds before it is emptied.
    package static let answersKept = 64

    /// The pinning policy covering `host`, or nil when Apple pins nothing for it.
    package static func match(host: String) -> Match? {
        // Apple's policies name DNS suffixes; an IP address is never one of them. Answering before
        // the suffix table and the cache are built keeps `check 127.0.0.1` from paying for them
        // (half a million instructions at start-up).
        if parseIPAddress(host) != nil { return nil }
        if let known = answers.withLock({ $0[host] }) { return known }
        let answer = lookUp(host: host)
        answers.withLock {
            if $0.count >= answersKept { $0.removeAll(keepingCapacity: true) }
            $0[host] = answer
        }
        return answer
    }

    /// The lookup itself, as trustd's `queryForDomain:` does it.
    package static func lookUp(host: String) -> Match? {
        guard let dot = host.firstIndex(of: ".") else { return nil }
        let label = host[..<dot]
        var suffix = host[host.index(after: dot)...]
        if suffix.hasSuffix(".") { suffix = suffix.dropLast() }
        guard let entries = bySuffix[String(suffix)], label.utf8.count <= maximumLabelLength else { return nil }
        var match: Match?
        for entry in entries where labelMatches(String(label), pattern: entry.domain.labelPattern) {
            let policy = ApplePinningData.policies[entry.policy]
            if match == nil { match = Match(policyName: policy.name, rules: [], domains: []) }
            match!.policyName = policy.name
            match!.rules += policy.rules
            match!.domains.append(entry.domain)
        }
        return match
    }

    /// Whether `pattern` finds a match in `label`, ignoring case (NSRegularExpression with
    /// NSRegularExpressionCaseInsensitive, `numberOfMatchesInString:` over the whole label). A
    /// pattern that does not compile matches nothing, as trustd skips such a row.
    ///
    /// Patterns without ICU's extensions (every one Apple ships but those with a `(?` lookahead)
    /// mean the same as POSIX extended expressions and are run by the C library's matcher, which
    /// compiles one in microseconds where Swift's `Regex` took milliseconds (D216); the others
    /// go to `Regex`.
    package static func labelMatches(_ label: String, pattern: String) -> Bool {
        if let posix = posixMatches(label, pattern: pattern) { return posix }
        return regexMatches(label, pattern: pattern)
    }

    /// Swift's `Regex`, for the patterns POSIX cannot read.
    package static func regexMatches(_ label: String, pattern: String) -> Bool {
        guard let regex = compiledRegex(pattern) else { return false }
        return regexMatches(label, regex: regex)
    }

    /// `pattern` compiled as `regexMatches` compiles it, ignoring case; nil when it does not
    /// compile. Apart so that a comparison over many labels compiles each pattern once.
    package static func compiledRegex(_ pattern: String) -> Regex<AnyRegexOutput>? {
        try? Regex(pattern).ignoresCase()
    }

    /// Whether `regex` (from `compiledRegex`) finds a match in `label`.
    package static func regexMatches(_ label: String, regex: Regex<AnyRegexOutput>) -> Bool {
        label.firstMatch(of: regex) != nil
    }

    /// The C library's extended regular expressions; nil when the pattern uses what only ICU
    /// reads (`(?`, a backslash) or does not compile there.
    package static func posixMatches(_ label: String, pattern: String) -> Bool? {
        guard !pattern.contains("(?"), !pattern.contains("\\"), !label.utf8.contains(0) else { return nil }
        var compiled = regex_t()
        guard regcomp(&compiled, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0 else { return nil }
        defer { regfree(&compiled) }
        return regexec(&compiled, label, 0, nil, 0) == 0
    }

    /// Apple's own roots by SHA-256 fingerprint (lowercase hex), with their names: what
    /// `AnchorApple` accepts (SecAppleAnchor.c, `getAnchors`: Apple Root CA, Apple Root CA - G2
    /// and - G3, Apple Platform Backport RSA and ECC Root CA - G1). `AnchorExpiryRules` never
    /// checks their dates.
    package static let appleAnchorNames: [String: String] = [
        "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024": "Apple Root CA",
        "c2b9b042dd57830e7d117dac55ac8ae19407d38e41d88f3215bc3a890444a050": "Apple Root CA - G2",
        "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179": "Apple Root CA - G3",
        "fb3f6cf69467b5fa9ffa2b3b392b6e5e775bbb09c77b6e759e9038e26bbf9049": "Apple Platform Backport RSA Root CA - G1",
        "eda23b3f224f45e0952f20e4d2b33e000d49c8044c1168de47b443cd2b3536dc": "Apple Platform Backport ECC Root CA - G1",
    ]

    /// The fingerprints of `appleAnchorNames`.
    package static let appleAnchors = Set(appleAnchorNames.keys)
}
