import TrustSupport
import TrustX509

/// Which rule set to match with.
///
/// The two sets agree on almost everything: SAN only (the Common Name is never used), a wildcard
/// only as the whole leftmost label of a name with more than two labels and never directly before
/// a public suffix, one label per wildcard, no partial wildcards, IP hosts against iPAddress
/// entries only. The only difference is how a malformed reference host is treated; see the cases.
public enum HostnameRules: Sendable {
    /// Apple's `SecPolicyCheckCertSSLHostname` / `SecDNSMatch` (SecPolicyLeafCallbacks.c).
    /// The reference host is not validated: it is split on dots and compared label by label, so
    /// a wildcard can cover any non-empty label, even one a DNS name could not contain.
    /// Case folding is ASCII-only here, where Apple's CFStringCompare folds Unicode (the Kelvin
    /// sign U+212A would equal `k`); hosts reach SecTrust as A-labels, so this never differs in
    /// practice.
    case apple
    /// RFC 6125 6.4 / RFC 9525 and the CA/Browser Forum Baseline Requirements, as x509-limbo
    /// expects (including its `pedantic-public-suffix-wildcard` cases: `*.com` is refused).
    /// A reference host that is neither a valid DNS name nor an IP literal matches nothing.
    case webpki
}

/// The outcome of matching a reference host against a leaf certificate.
public struct HostnameMatch: Sendable, Equatable {
    /// Whether the host matched a SAN entry.
    public var matched: Bool
    /// The SAN entry that matched (as text: DNS name or formatted IP), if any.
    public var matchedName: String?
    /// One plain-language sentence explaining the outcome, e.g. "no SAN dNSName matches “localhost”; the Common Name is never used (Apple HT210176)" or "“*.example.com” covers exactly one label".
    public var explanation: String
}

/// Matches a reference host (what the client connected to) against a certificate's names.
///
/// Written for the per-evaluation hot path: names are compared in place as UTF-8 bytes with
/// ASCII-only case folding; the only allocations are the result's strings and, when a wildcard
/// fits, the public-suffix lookup key. Measured (thread CPU time, release build with -O and
/// whole-module optimisation, shared 2-core machine): an exact match about 0.26 us, a wildcard
/// match including the public-suffix check about 0.8 us, an IPv4 match about 0.56 us, and a
/// failure against four names, which also builds its explanation, about 2.6 us.
public enum HostnameMatcher {
    /// Matches `host` against the certificate's SAN per the rules.
    ///
    /// - Parameters:
    ///   - host: the reference host: a DNS name (one trailing dot allowed) or an IPv4/IPv6
    ///     literal (IPv6 optionally in brackets).
    ///   - dnsNames: the leaf's SAN dNSName entries, in certificate order.
    ///   - ipAddresses: the leaf's SAN iPAddress entries (4 or 16 octets).
    ///   - commonNames: the leaf's subject CNs. Never matched against; used only to explain a
    ///     failure (e.g. that a CN equal to the host was ignored).
    ///   - rules: which rule set to apply.
    ///   - publicSuffixes: the list used to refuse `*.co.uk`-style wildcards, normally
    ///     `PublicSuffixList.shared`. With nil only the built-in single-label rule applies.
    public static func match(
        host: String, dnsNames: [String], ipAddresses: [[UInt8]], commonNames: [String],
        rules: HostnameRules, publicSuffixes: PublicSuffixList?
    ) -> HostnameMatch {
        let cite = rules == .apple ? "Apple HT210176" : "RFC 9525"

        // IP literals are compared with iPAddress entries only, as canonical octets. (Apple tries
        // the dNSNames first, but a valid dNSName never has an all-numeric last label or a colon,
        // so skipping them changes nothing.)
        if let address = ipAddress(host) {
            for entry in ipAddresses where entry == address {
                let text = entry.count == 4 ? "\(entry[0]).\(entry[1]).\(entry[2]).\(entry[3])" : formatIPAddress(entry)
                return HostnameMatch(
                    matched: true, matchedName: text, explanation: sentence("SAN iPAddress ", text, " matches ", host))
            }
            return ipFailure(
                host: host, address: address, dnsNames: dnsNames, ipAddresses: ipAddresses,
                commonNames: commonNames, cite: cite)
        }

        if rules == .webpki && !isValidReferenceHost(host) {
            return HostnameMatch(
                matched: false, matchedName: nil,
                explanation: "\(quote(host)) is not a valid DNS name or IP address, so no certificate name can match it"
            )
        }

        var best = Verdict.mismatch
        var bestIndex = -1
        let outcome: HostnameMatch? = withBytes(host) { rawHost in
            // One trailing dot on the reference host is allowed (an absolute name) and stripped.
            var reference = rawHost
            if let last = reference.last, last == dot {
                reference = UnsafeBufferPointer(rebasing: reference.dropLast())
            }
            // Index loops rather than iterators throughout: debug builds run iterators slowly.
            for index in dnsNames.indices {
                let name = dnsNames[index]
                let verdict = withBytes(name) { evaluate(presented: $0, reference: reference, psl: publicSuffixes) }
                switch verdict {
                case .exact:
                    return HostnameMatch(
                        matched: true, matchedName: name,
                        explanation: sentence("SAN dNSName ", name, " matches ", host, quoteFirst: true))
                case .wildcard:
                    return HostnameMatch(
                        matched: true, matchedName: name,
                        explanation: sentence(
                            "", name, " covers exactly one label, so it matches ", host, quoteFirst: true))
                default:
                    if verdict > best {
                        best = verdict
                        bestIndex = index
                    }
                }
            }
            return nil
        }
        if let outcome { return outcome }
        return dnsFailure(
            host: host, nearMiss: best, nearMissName: bestIndex >= 0 ? dnsNames[bestIndex] : nil,
            dnsNames: dnsNames, commonNames: commonNames, publicSuffixes: publicSuffixes, cite: cite)
    }

    /// Whether `name` is a syntactically valid reference host (DNS name or IP literal).
    ///
    /// A DNS name here is 1 to 253 octets (one trailing dot allowed and not counted) of labels
    /// of 1 to 63 letters, digits, hyphens and underscores, no label starting or ending with a
    /// hyphen, and a last label holding a letter (so `1.2.3.4.` and `999.1.1.1` are refused). No
    /// wildcards. An IP literal is what `parseIPAddress(_:)` accepts (IPv6 brackets allowed).
    public static func isValidReferenceHost(_ host: String) -> Bool {
        if ipAddress(host) != nil { return true }
        return withBytes(host) { raw in
            var bytes = raw
            if let last = bytes.last, last == dot { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
            guard !bytes.isEmpty, bytes.count <= 253 else { return false }
            var labelLength = 0
            var labelHasLetter = false
            var previous: UInt8 = dot
            for b in bytes {
                if b == dot {
                    guard labelLength > 0, previous != hyphen else { return false }
                    labelLength = 0
                    labelHasLetter = false
                } else {
                    let lower = b | 0x20
                    if lower >= 0x61 && lower <= 0x7A {
                        labelHasLetter = true
                    } else if b == hyphen {
                        guard labelLength > 0 else { return false }
                    } else if !(b >= 0x30 && b <= 0x39) && b != underscore {
                        return false
                    }
                    labelLength += 1
                    guard labelLength <= 63 else { return false }
                }
                previous = b
            }
            return labelLength > 0 && previous != hyphen && labelHasLetter
        }
    }

    // MARK: - Matching one presented name

    /// The outcome for one SAN dNSName. Raw values rank near-misses: when nothing matches, the
    /// highest-ranked one (the most specific reason) explains the failure.
    package enum Verdict: Int, Comparable {
        /// Unrelated to the host.
        case mismatch = 0
        /// Not a valid DNS name (skipped), but equal to the host apart from that.
        case invalidName
        /// A partial-label wildcard (`t*t`, `*est`, `apple*`, `xn--*-…`) that would otherwise fit.
        case partialWildcard
        /// A wildcard outside the leftmost label, or several, that would otherwise fit.
        case misplacedWildcard
        /// `*.S` where the host has more than one label before `S`.
        case wildcardTooDeep
        /// `*.S` where the host is `S` itself.
        case wildcardApex
        /// `*.S` where the host is `.S` (an empty leftmost label).
        case wildcardEmptyLabel
        /// `*.S` with `S` a single label (or a bare `*`).
        case wildcardSingleLabel
        /// `*.S` with `S` a public suffix.
        case wildcardPublicSuffix
        /// Equal, ignoring ASCII case.
        case exact
        /// `*.S` covering the host's leftmost label.
        case wildcard

        package static func < (a: Verdict, b: Verdict) -> Bool { a.rawValue < b.rawValue }
    }

    /// Compares one presented name with the reference host (trailing dot already stripped).
    package static func evaluate(
        presented p: UnsafeBufferPointer<UInt8>, reference r: UnsafeBufferPointer<UInt8>, psl: PublicSuffixList?
    ) -> Verdict {
        guard let shape = presentedShape(p) else {
            // Apple drops invalid names (and IP-looking ones) before matching. Report the drop
            // only when it hides what would have been an exact match, e.g. `example.com.`.
            var name = p
            if let last = name.last, last == dot { name = UnsafeBufferPointer(rebasing: name.dropLast()) }
            return equalsIgnoringCase(name, r) ? .invalidName : .mismatch
        }
        if shape.stars == 0 {
            return equalsIgnoringCase(p, r) ? .exact : .mismatch
        }
        guard shape.leftmostIsStar && shape.stars == 1 else {
            guard labelsAgreeOutsideWildcards(p, r) else { return .mismatch }
            // One `*` inside the leftmost label is a partial wildcard; anything else is misplaced.
            return shape.stars == 1 && shape.firstStarLabel == 0 ? .partialWildcard : .misplacedWildcard
        }
        // `*` alone, or `*.S`.
        if shape.labels == 1 {
            return r.firstIndex(of: dot) == nil && !r.isEmpty ? .wildcardSingleLabel : .mismatch
        }
        let suffix = UnsafeBufferPointer(rebasing: p[(p.startIndex + 2)...])
        if equalsIgnoringCase(suffix, r) { return .wildcardApex }
        guard let firstDot = r.firstIndex(of: dot) else { return .mismatch }
        let rest = UnsafeBufferPointer(rebasing: r[(firstDot + 1)...])
        if equalsIgnoringCase(suffix, rest) {
            // Deliberate: Apple's SecDNSMatch would let `*` match an empty label (`.example.com`);
            // no connection can carry such a host, so a match there would only mislead.
            if firstDot == r.startIndex { return .wildcardEmptyLabel }
            if shape.labels == 2 { return .wildcardSingleLabel }
            if let psl, psl.isPublicSuffix(lowercased(suffix)) { return .wildcardPublicSuffix }
            return .wildcard
        }
        // A deeper host ending in `.S`: the wildcard would have to span a dot.
        if rest.count > suffix.count {
            let tail = UnsafeBufferPointer(rebasing: rest[(rest.endIndex - suffix.count)...])
            if rest[rest.endIndex - suffix.count - 1] == dot && equalsIgnoringCase(suffix, tail) {
                return .wildcardTooDeep
            }
        }
        return .mismatch
    }

    /// What matching needs to know about a valid presented name.
    package struct PresentedShape {
        var labels: Int
        var stars: Int
        var leftmostIsStar: Bool
        var firstStarLabel: Int
    }

    /// Validates a SAN dNSName the way Apple's `SecFrameworkIsDNSName` does and describes it;
    /// nil if invalid. Valid: 1 to 255 octets of labels of 1 to 63 letters, digits, `*`, `_` and
    /// hyphens; a hyphen never first in a label, no label ending in a hyphen; no empty label (so
    /// no leading or trailing dot); the last label holds a letter or `*` (which drops IP
    /// addresses written as dNSNames). x509-limbo's webpki cases expect the same.
    package static func presentedShape(_ p: UnsafeBufferPointer<UInt8>) -> PresentedShape? {
        guard !p.isEmpty, p.count <= 255 else { return nil }
        var shape = PresentedShape(labels: 1, stars: 0, leftmostIsStar: false, firstStarLabel: -1)
        var labelLength = 0
        var labelHasLetter = false
        var previous: UInt8 = dot
        for i in 0..<p.count {
            let b = p[i]
            if b == dot {
                guard labelLength > 0, previous != hyphen else { return nil }
                if shape.labels == 1 { shape.leftmostIsStar = labelLength == 1 && previous == star }
                shape.labels += 1
                labelLength = 0
                labelHasLetter = false
            } else {
                let lower = b | 0x20
                if (lower >= 0x61 && lower <= 0x7A) || b == star {
                    labelHasLetter = true
                    if b == star {
                        if shape.stars == 0 { shape.firstStarLabel = shape.labels - 1 }
                        shape.stars += 1
                    }
                } else if b == hyphen {
                    guard labelLength > 0 else { return nil }
                } else if !(b >= 0x30 && b <= 0x39) && b != underscore {
                    return nil
                }
                labelLength += 1
                guard labelLength <= 63 else { return nil }
            }
            previous = b
        }
        guard labelLength > 0, previous != hyphen, labelHasLetter else { return nil }
        if shape.labels == 1 { shape.leftmostIsStar = labelLength == 1 && previous == star }
        return shape
    }

    /// Whether `p` and `r` have the same labels, ignoring case, except where `p`'s label holds
    /// a `*` (used only to decide whether a refused wildcard is worth mentioning).
    package static func labelsAgreeOutsideWildcards(_ p: UnsafeBufferPointer<UInt8>, _ r: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        var pi = p.startIndex
        var ri = r.startIndex
        while true {
            var pe = pi
            var hasStar = false
            while pe < p.endIndex && p[pe] != dot {
                if p[pe] == star { hasStar = true }
                pe += 1
            }
            var re = ri
            while re < r.endIndex && r[re] != dot { re += 1 }
            if !hasStar
                && !equalsIgnoringCase(
                    UnsafeBufferPointer(rebasing: p[pi..<pe]), UnsafeBufferPointer(rebasing: r[ri..<re]))
            {
                return false
            }
            let pDone = pe == p.endIndex
            let rDone = re == r.endIndex
            if pDone || rDone { return pDone && rDone }
            pi = pe + 1
            ri = re + 1
        }
    }

    // MARK: - Byte helpers

    package static let dot: UInt8 = 0x2E
    private static let hyphen: UInt8 = 0x2D
    private static let star: UInt8 = 0x2A
    private static let underscore: UInt8 = 0x5F

    /// Runs `body` on the string's UTF-8 bytes without copying when the string is native.
    @inline(__always)
    package static func withBytes<T>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let result = s.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(s.utf8).withUnsafeBufferPointer(body)
    }

    @inline(__always)
    package static func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex {
            let x = a[i]
            let y = b[j]
            if x != y {
                // Equal apart from case only for ASCII letters.
                guard x | 0x20 == y | 0x20, (x | 0x20) &- 0x61 < 26 else { return false }
            }
            i += 1
            j += 1
        }
        return true
    }

    package static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { (out: UnsafeMutableBufferPointer<UInt8>) -> Int in
            for i in 0..<bytes.count {
                let b = bytes[i]
                out[i] = b &- 0x41 < 26 ? b | 0x20 : b
            }
            return bytes.count
        }
    }

    /// The octets of an IPv4 or IPv6 literal (brackets allowed), or nil: `parseIPAddress(_:)`,
    /// which reads a dotted quad byte by byte and refuses a DNS name at its first letter.
    package static func ipAddress(_ text: String) -> [UInt8]? { parseIPAddress(text) }
}
