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
/// Load cost, measured on the Debian file (245,996 bytes, 7,000-odd ICANN rules) on the
/// development machine: about 2.5 ms in a debug build and 1.2 ms in a release build. `shared`
/// pays it once per process, on first use.
public final class PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package installs the list.
    public static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The list at `defaultPath`, loaded lazily once (Swift initialises globals on first use,
    /// thread-safely); nil if the file is missing or unreadable. With no list, hostname matching
    /// applies only the built-in single-label rule: a wildcard directly on a single label
    /// (`*.com`, `*.local`) is refused.
    public static let shared: PublicSuffixList? = PublicSuffixList(path: defaultPath)

    /// Plain rules, e.g. `co.uk`.
    private let rules: Set<String>
    /// Parents of wildcard rules: `*.bd` is stored as `bd`.
    private let wildcardParents: Set<String>
    /// Exception rules without the `!`: `!www.ck` is stored as `www.ck`.
    private let exceptions: Set<String>

    /// The number of rules loaded (plain, wildcard and exception; IDN rules once per form).
    var ruleCount: Int { rules.count + wildcardParents.count + exceptions.count }

    /// Parses list text in the publicsuffix.org format, keeping the ICANN section only (see the
    /// type's documentation). Text with no section markers is taken whole.
    public init(contents: [UInt8]) {
        var rules = Set<String>()
        var wildcardParents = Set<String>()
        var exceptions = Set<String>()
        rules.reserveCapacity(8192)

        let hasSections = PublicSuffixList.contains(contents[...], "===BEGIN ICANN DOMAINS===")
        var inICANN = !hasSections
        var index = 0
        let end = contents.count
        while index < end {
            var lineEnd = index
            while lineEnd < end && contents[lineEnd] != 0x0A { lineEnd += 1 }
            defer { index = lineEnd + 1 }
            // A rule is the first whitespace-delimited token of a line.
            var start = index
            while start < lineEnd && (contents[start] == 0x20 || contents[start] == 0x09) { start += 1 }
            var stop = start
            while stop < lineEnd && contents[stop] > 0x20 { stop += 1 }
            guard stop > start else { continue }
            if stop - start >= 2 && contents[start] == 0x2F && contents[start + 1] == 0x2F {
                let comment = contents[start..<lineEnd]
                if PublicSuffixList.contains(comment, "===BEGIN ICANN DOMAINS===") { inICANN = true }
                if PublicSuffixList.contains(comment, "===END ICANN DOMAINS===") { inICANN = false }
                continue
            }
            guard inICANN else { continue }

            var token = Array(contents[start..<stop])
            for i in token.indices where token[i] >= 0x41 && token[i] <= 0x5A { token[i] |= 0x20 }
            var isException = false
            var isWildcard = false
            if token.first == 0x21 {  // "!"
                isException = true
                token.removeFirst()
            } else if token.count >= 2 && token[0] == 0x2A && token[1] == 0x2E {  // "*."
                isWildcard = true
                token.removeFirst(2)
            }
            guard !token.isEmpty else { continue }
            let text = String(decoding: token, as: UTF8.self)
            var forms = [text]
            if token.contains(where: { $0 >= 0x80 }), let ace = PublicSuffixList.toASCII(text), ace != text {
                forms.append(ace)
            }
            for form in forms {
                if isException {
                    exceptions.insert(form)
                } else if isWildcard {
                    wildcardParents.insert(form)
                } else {
                    rules.insert(form)
                }
            }
        }
        self.rules = rules
        self.wildcardParents = wildcardParents
        self.exceptions = exceptions
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
        if exceptions.contains(domain) { return false }
        if rules.contains(domain) { return true }
        guard let dot = domain.utf8.firstIndex(of: 0x2E) else { return true }
        let parent = String(domain[domain.utf8.index(after: dot)...])
        return wildcardParents.contains(parent)
    }

    // MARK: Helpers

    /// Whether `needle` occurs in `haystack` (naive search: used on comment lines and once on the file).
    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { n in
            guard let first = n.first, n.count <= haystack.count else { return false }
            var i = haystack.startIndex
            let last = haystack.endIndex - n.count
            while i <= last {
                if haystack[i] == first && haystack[i..<(i + n.count)].elementsEqual(n) { return true }
                i += 1
            }
            return false
        }
    }

    /// IDNA ToASCII for already-normalised labels (the list is lowercase NFC): each label with
    /// non-ASCII characters becomes `xn--` plus its RFC 3492 Punycode encoding.
    static func toASCII(_ name: String) -> String? {
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
    static func punycodeEncode(_ input: [UInt32]) -> String? {
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
