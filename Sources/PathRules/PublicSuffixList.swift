import TrustSupport
import TrustX509

/// The Public Suffix List, loaded from Debian's publicsuffix package.
///
/// Used by hostname matching to refuse wildcards placed directly before a public suffix
/// (`*.com`, `*.co.uk`), as Apple's `SecDNSIsTLD` does through CFNetwork and as the CA/Browser
/// Forum requires of issuers.
///
/// Only the ICANN section of the list is loaded. The PRIVATE section lists domains whose owners
/// hand out subdomains to customers (`github.io`, `herokuapp.com`, `s3.amazonaws.com`), and those
/// owners legitimately serve `*.github.io`-style wildcard certificates that Apple platforms and
/// browsers accept (Chromium likewise checks wildcards against ICANN registries only). Counting
/// PRIVATE entries would report real, working sites as hostname mismatches.
///
/// Internationalised rules (`公司.cn`) are stored both as written and as A-labels
/// (`xn--55qx5d.cn`), because certificates carry the A-label form.
///
/// Load cost, measured on Debian's publicsuffix 20230209 file (245,996 bytes; 7,380 ICANN rules,
/// 453 of them internationalised, so 7,833 entries) on a shared 2-core machine: in a release
/// build (-O, whole module) about 0.5 ms to read the file plus 2.5 to 3.5 ms CPU to parse it;
/// in a debug build 15 to 40 ms in all. `shared` pays it once per process, on first use; a
/// lookup afterwards costs about 0.15 us (release).
public final class PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package installs the list.
    public static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The list at `defaultPath`, loaded lazily once (Swift initialises globals on first use,
    /// thread-safely); nil if the file is missing or unreadable. With no list, hostname matching
    /// applies only the built-in single-label rule: a wildcard directly on a single label
    /// (`*.com`, `*.local`) is refused.
    public static let shared: PublicSuffixList? = PublicSuffixList(path: defaultPath)

    /// What the list says about a name: bit 0 a plain rule (`co.uk`), bit 1 the parent of a
    /// wildcard rule (`*.bd` is stored under `bd`), bit 2 an exception (`!www.ck` under `www.ck`).
    /// One dictionary, so a lookup hashes the name once.
    private let flags: [String: UInt8]
    private static let plainRule: UInt8 = 1
    private static let wildcardRule: UInt8 = 2
    private static let exceptionRule: UInt8 = 4

    /// The number of rules loaded (plain, wildcard and exception; IDN rules once per form).
    package var ruleCount: Int { flags.values.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Parses list text in the publicsuffix.org format, keeping the ICANN section only (see the
    /// type's documentation). Text with no section markers is taken whole.
    public init(contents: [UInt8]) {
        flags = contents.withUnsafeBufferPointer { PublicSuffixList.parse($0) }
    }

    private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> [String: UInt8] {
        var flags: [String: UInt8] = [:]
        flags.reserveCapacity(10_000)
        let begin = Array("===BEGIN ICANN DOMAINS===".utf8)
        let endMarker = Array("===END ICANN DOMAINS===".utf8)

        var inICANN = !contains(text[...], begin)
        var index = 0
        let end = text.count
        while index < end {
            var lineEnd = index
            while lineEnd < end && text[lineEnd] != 0x0A { lineEnd += 1 }
            defer { index = lineEnd + 1 }
            // A rule is the first whitespace-delimited token of a line.
            var start = index
            while start < lineEnd && (text[start] == 0x20 || text[start] == 0x09) { start += 1 }
            var stop = start
            while stop < lineEnd && text[stop] > 0x20 { stop += 1 }
            guard stop > start else { continue }
            if stop - start >= 2 && text[start] == 0x2F && text[start + 1] == 0x2F {
                // Section markers look like "// ===BEGIN ICANN DOMAINS===".
                if lineEnd - start > 5 && text[start + 3] == 0x3D {
                    if contains(text[start..<lineEnd], begin) { inICANN = true }
                    if contains(text[start..<lineEnd], endMarker) { inICANN = false }
                }
                continue
            }
            guard inICANN else { continue }

            var kind = plainRule
            if text[start] == 0x21 {  // "!"
                kind = exceptionRule
                start += 1
            } else if stop - start >= 2 && text[start] == 0x2A && text[start + 1] == 0x2E {  // "*."
                kind = wildcardRule
                start += 2
            }
            guard stop > start else { continue }
            var nonASCII = false
            let rule = String(unsafeUninitializedCapacity: stop - start) {
                (out: UnsafeMutableBufferPointer<UInt8>) -> Int in
                for i in start..<stop {
                    let b = text[i]
                    if b >= 0x80 { nonASCII = true }
                    out[i - start] = b &- 0x41 < 26 ? b | 0x20 : b
                }
                return stop - start
            }
            flags[rule, default: 0] |= kind
            if nonASCII, let ace = toASCII(rule), ace != rule {
                flags[ace, default: 0] |= kind
            }
        }
        return flags
    }

    /// Loads the list from a file; nil if it cannot be read.
    public convenience init?(path: String) {
        guard let bytes = try? CertificateLoader.readFile(path) else { return nil }
        self.init(contents: bytes)
    }

    /// Whether `domain` (lowercase, no trailing dot) is itself a public suffix under the
    /// publicsuffix.org algorithm: listed as a rule, covered by a wildcard rule (`*.bd` makes
    /// `com.bd` a suffix) and not excepted by a `!` rule, or a single label (the list's implicit
    /// `*` rule, so unknown TLDs count too). Only ICANN-section rules count (see the type's
    /// documentation for why).
    public func isPublicSuffix(_ domain: String) -> Bool {
        if domain.isEmpty { return false }
        let own = flags[domain] ?? 0
        if own & PublicSuffixList.exceptionRule != 0 { return false }
        if own & PublicSuffixList.plainRule != 0 { return true }
        guard let dot = domain.utf8.firstIndex(of: 0x2E) else { return true }
        let parent = String(domain[domain.utf8.index(after: dot)...])
        return (flags[parent] ?? 0) & PublicSuffixList.wildcardRule != 0
    }

    // MARK: Helpers

    /// Whether `needle` occurs in `haystack`: used on marker lines and once on the whole file.
    private static func contains(_ haystack: Slice<UnsafeBufferPointer<UInt8>>, _ needle: [UInt8]) -> Bool {
        ByteSearch.find(needle, in: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: haystack)), from: 0) != nil
    }

    /// IDNA ToASCII for already-normalised labels (the list is lowercase NFC): each label with
    /// non-ASCII characters becomes `xn--` plus its RFC 3492 Punycode encoding.
    package static func toASCII(_ name: String) -> String? {
        var labels: [String] = []
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                labels.append(String(label))
            } else {
                guard let encoded = punycodeEncode(label.unicodeScalars.map(\.value)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    /// RFC 3492 section 6.3 encoding; nil on overflow.
    package static func punycodeEncode(_ input: [UInt32]) -> String? {
        let base = 36, tMin = 1, tMax = 26
        func digit(_ d: Int) -> UInt8 { d < 26 ? UInt8(0x61 + d) : UInt8(0x30 + d - 26) }
        func adapt(_ delta: Int, _ numPoints: Int, _ firstTime: Bool) -> Int {
            var delta = firstTime ? delta / 700 : delta / 2
            delta += delta / numPoints
            var k = 0
            while delta > ((base - tMin) * tMax) / 2 {
                delta /= base - tMin
                k += base
            }
            return k + (base - tMin + 1) * delta / (delta + 38)
        }
        var output: [UInt8] = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(0x2D) }
        var n = 128
        var delta = 0
        var bias = 72
        while handled < input.count {
            guard let m = input.lazy.map({ Int($0) }).filter({ $0 >= n }).min() else { return nil }
            let (step, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - step else { return nil }
            delta += step
            n = m
            for scalar in input {
                let c = Int(scalar)
                if c < n { delta += 1 }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
