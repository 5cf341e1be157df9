import ATSModel
import TrustCore
import TrustSupport
import TrustX509

/// One problem `trustx lint` found in an Info.plist's App Transport Security configuration.
public struct LintFinding: Hashable, Sendable {
    /// How bad it is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// The configuration does not do what it says, or turns protection off.
        case error
        /// It works, but weakens security or will break.
        case warning
        /// Worth knowing; nothing is wrong today.
        case note

        /// Errors first.
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
        var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }
    }

    /// The rule's identifier (`arbitrary-loads`), stable for scripts and suppressions.
    public var rule: String
    /// How bad it is.
    public var severity: Severity
    /// Where: keys from the plist's root and array indices, e.g.
    /// `["NSAppTransportSecurity", "NSPinnedDomains", "example.com", "NSPinnedLeafIdentities"]`.
    public var path: [String]
    /// What was found, in one line.
    public var message: String
    /// Why it matters, in one sentence.
    public var why: String
    /// What to do instead.
    public var fix: String

    /// Creates a finding.
    public init(rule: String, severity: Severity, path: [String], message: String, why: String, fix: String) {
        // Keys and values come from the Info.plist being linted: each is quoted at a bounded size
        // here, once, so no rule can echo a megabyte key back to the terminal or a CI log.
        self.rule = rule
        self.severity = severity
        self.path = path.map { InputExcerpt.quote($0) }
        self.message = InputExcerpt.quote(message, limit: Self.textLimit)
        self.why = InputExcerpt.quote(why, limit: Self.textLimit)
        self.fix = InputExcerpt.quote(fix, limit: Self.textLimit)
    }

    /// The most bytes of a finding's message, reason or fix: room for two quoted keys and the rule's
    /// own words.
    static let textLimit = 600

    /// The key path with dots between keys and `[i]` for array elements:
    /// `NSAppTransportSecurity.NSPinnedDomains.example.com.NSPinnedLeafIdentities[0]`.
    public var keyPath: String {
        var out = ""
        for part in path {
            if part.hasPrefix("[") {
                out += part
            } else {
                out += (out.isEmpty ? "" : ".") + part
            }
        }
        return out
    }
}

/// CI guardrails over an Info.plist's NSAppTransportSecurity: what turns ATS off, pins that
/// cannot survive a rotation or never match, keys and values ATS silently ignores, and domain
/// keys that can never match a host. docs/lint.md describes each rule.
public enum ATSLint {
    static let atsKey = "NSAppTransportSecurity"
    static let globalBooleans = [
        "NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent",
        "NSAllowsLocalNetworking",
    ]
    static let globalKeys = globalBooleans + ["NSExceptionDomains", "NSPinnedDomains"]
    static let exceptionBooleans = [
        "NSIncludesSubdomains", "NSExceptionAllowsInsecureHTTPLoads", "NSExceptionRequiresForwardSecrecy",
        "NSRequiresCertificateTransparency",
    ]
    static let exceptionKeys = exceptionBooleans + ["NSExceptionMinimumTLSVersion"]
    /// Keys of the first ATS release (iOS 9), documented once and ignored by current systems, with
    /// the key that replaced each.
    static let obsoleteExceptionKeys = [
        "NSTemporaryExceptionAllowsInsecureHTTPLoads": "NSExceptionAllowsInsecureHTTPLoads",
        "NSTemporaryExceptionMinimumTLSVersion": "NSExceptionMinimumTLSVersion",
        "NSTemporaryExceptionRequiresForwardSecrecy": "NSExceptionRequiresForwardSecrecy",
        "NSThirdPartyExceptionAllowsInsecureHTTPLoads": "NSExceptionAllowsInsecureHTTPLoads",
        "NSThirdPartyExceptionMinimumTLSVersion": "NSExceptionMinimumTLSVersion",
        "NSThirdPartyExceptionRequiresForwardSecrecy": "NSExceptionRequiresForwardSecrecy",
        "NSExceptionAllowsInsecureHTTPSLoads": "NSExceptionAllowsInsecureHTTPLoads",
    ]
    static let pinnedKeys = ["NSIncludesSubdomains", "NSPinnedLeafIdentities", "NSPinnedCAIdentities"]
    static let identityKey = "SPKI-SHA256-BASE64"
    static let tlsVersions = ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]

    /// Every rule a finding can name, as docs/lint.md lists them.
    public static let rules = [
        "root-not-a-dictionary", "arbitrary-loads", "arbitrary-loads-ignored", "arbitrary-loads-media",
        "arbitrary-loads-web", "insecure-http", "forward-secrecy-off", "certificate-transparency-obsolete",
        "obsolete-key", "misplaced-key", "tls-version-spelling", "tls-version-below-1.2",
        "pinned-domain-without-identities",
        "pins-fewer-than-two", "leaf-pins-only", "pins-empty-array", "pin-missing", "pin-not-sha256", "duplicate-pin",
        "domain-malformed", "domain-scheme", "domain-wildcard", "domain-path", "domain-port", "domain-upper-case",
        "pinned-ip-address", "unknown-key", "misspelt-key", "duplicate-key", "wrong-type",
    ]

    /// Every finding for an Info.plist's root value, errors first, then in the order written.
    /// - Parameter root: The parsed property list (its root should be a dictionary).
    /// - Returns: The findings; empty for a sound configuration.
    public static func lint(_ root: PropertyListValue) -> [LintFinding] {
        var out: [LintFinding] = []
        guard case .dictionary(let entries) = root else {
            out.append(
                LintFinding(
                    rule: "root-not-a-dictionary", severity: .error, path: [],
                    message: "the property list's root is not a dictionary",
                    why: "An Info.plist is a dictionary; nothing else is read as app configuration.",
                    fix: "Lint the app's Info.plist itself."))
            return out
        }
        duplicates(entries, path: [], into: &out)
        let topATSKeys = entries.filter { globalKeys.contains($0.key) }
        if !entries.contains(where: { $0.key == atsKey }) && !topATSKeys.isEmpty
            && entries.allSatisfy({ e in globalKeys.contains { close(e.key, to: $0) } })
        {
            // Only ATS keys at the top: the NSAppTransportSecurity dictionary on its own.
            checkATS(root, path: [], into: &out)
        } else {
            for e in entries where e.key != atsKey && close(e.key, to: atsKey) {
                out.append(misspelt(e.key, atsKey, path: [e.key]))
            }
            for e in topATSKeys {
                out.append(
                    LintFinding(
                        rule: "misplaced-key", severity: .error, path: [e.key],
                        message: "\(e.key) is at the top of the Info.plist",
                        why:
                            "ATS reads its keys only inside the NSAppTransportSecurity dictionary, so this one does nothing.",
                        fix: "Move it into NSAppTransportSecurity."))
            }
            if let ats = entries.first(where: { $0.key == atsKey })?.value {
                checkATS(ats, path: [atsKey], into: &out)
            }
        }
        return out.enumerated().sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }
            .map(\.element)
    }

    // MARK: - NSAppTransportSecurity

    static func checkATS(_ value: PropertyListValue, path: [String], into out: inout [LintFinding]) {
        guard case .dictionary(let entries) = value else {
            out.append(wrongType(path, expected: "a dictionary", found: value))
            return
        }
        duplicates(entries, path: path, into: &out)
        unknownKeys(entries, known: globalKeys, path: path, into: &out)
        for key in globalBooleans { checkBoolean(entries, key, path: path, into: &out) }
        let arbitrary = entries.first { $0.key == "NSAllowsArbitraryLoads" }?.value
        if arbitrary == .bool(true) {
            out.append(
                LintFinding(
                    rule: "arbitrary-loads", severity: .error, path: path + ["NSAllowsArbitraryLoads"],
                    message: "NSAllowsArbitraryLoads is true",
                    why:
                        "It turns ATS off for every domain without an exception, allowing cleartext HTTP and weak TLS, and App Review asks for a justification.",
                    fix:
                        "Remove it, and add NSExceptionDomains entries for the few hosts that need an exception."))
            // Present means a boolean or a number: ATS skips a value of another type as if absent.
            let overriding = entries.filter { e in
                guard
                    ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking"]
                        .contains(e.key)
                else { return false }
                switch e.value {
                case .bool, .integer, .real: return true
                default: return false
                }
            }.map(\.key)
            if !overriding.isEmpty {
                out.append(
                    LintFinding(
                        rule: "arbitrary-loads-ignored", severity: .warning, path: path + ["NSAllowsArbitraryLoads"],
                        message:
                            "NSAllowsArbitraryLoads is ignored because \(overriding.joined(separator: " and ")) is present",
                        why:
                            "Since iOS 10 and macOS 10.12 the presence of any of these keys makes ATS ignore NSAllowsArbitraryLoads, so it only loosens older systems and misleads readers.",
                        fix: "Remove NSAllowsArbitraryLoads; keep the narrower key if it is what the app needs."))
            }
        }
        for (key, what) in [
            ("NSAllowsArbitraryLoadsForMedia", "media loaded through AVFoundation"),
            ("NSAllowsArbitraryLoadsInWebContent", "web views"),
        ] where entries.first(where: { $0.key == key })?.value == .bool(true) {
            out.append(
                LintFinding(
                    rule: key == "NSAllowsArbitraryLoadsForMedia" ? "arbitrary-loads-media" : "arbitrary-loads-web",
                    severity: .warning, path: path + [key], message: "\(key) is true",
                    why: "It turns ATS off for \(what), which then may load over cleartext HTTP and weak TLS.",
                    fix: "Serve that content over HTTPS, or limit the exception to its domains in NSExceptionDomains."))
        }
        if let domains = entries.first(where: { $0.key == "NSExceptionDomains" })?.value {
            checkExceptionDomains(domains, path: path + ["NSExceptionDomains"], into: &out)
        }
        if let domains = entries.first(where: { $0.key == "NSPinnedDomains" })?.value {
            checkPinnedDomains(domains, path: path + ["NSPinnedDomains"], into: &out)
        }
    }

    /// The entries of NSExceptionDomains or NSPinnedDomains, one domain at a time, after the
    /// checks both share: a dictionary of domains, keys written once, a domain key that can match,
    /// and a dictionary for each.
    static func forEachDomain(
        _ value: PropertyListValue, path: [String], exception: Bool, into out: inout [LintFinding],
        _ body: (_ domain: String, _ entries: [PropertyListEntry], _ path: [String], _ out: inout [LintFinding]) -> Void
    ) {
        guard case .dictionary(let domains) = value else {
            out.append(wrongType(path, expected: "a dictionary of domains", found: value))
            return
        }
        duplicates(domains, path: path, into: &out)
        for domain in domains {
            let p = path + [domain.key]
            checkDomainKey(domain.key, path: p, exception: exception, into: &out)
            guard case .dictionary(let entries) = domain.value else {
                out.append(wrongType(p, expected: "a dictionary", found: domain.value))
                continue
            }
            duplicates(entries, path: p, into: &out)
            body(domain.key, entries, p, &out)
        }
    }

    // MARK: - NSExceptionDomains

    static func checkExceptionDomains(_ value: PropertyListValue, path: [String], into out: inout [LintFinding]) {
        forEachDomain(value, path: path, exception: true, into: &out) { domain, entries, p, out in
            for e in entries {
                guard let modern = obsoleteExceptionKeys[e.key] else { continue }
                out.append(
                    LintFinding(
                        rule: "obsolete-key", severity: .warning, path: p + [e.key],
                        message: "\(e.key) is a key of the first ATS release",
                        why: "Current systems ignore it, so the setting it holds does not apply.",
                        fix: "Use \(modern) if the exception is still needed, else remove the key."))
            }
            unknownKeys(
                entries.filter { obsoleteExceptionKeys[$0.key] == nil }, known: exceptionKeys, path: p, into: &out)
            for key in exceptionBooleans { checkBoolean(entries, key, path: p, into: &out) }
            for e in entries {
                let kp = p + [e.key]
                switch (e.key, e.value) {
                case ("NSExceptionMinimumTLSVersion", .string(let text)):
                    checkTLSVersion(text, path: kp, into: &out)
                case ("NSExceptionMinimumTLSVersion", _):
                    out.append(wrongType(kp, expected: "a string such as TLSv1.2", found: e.value))
                case ("NSExceptionAllowsInsecureHTTPLoads", .bool(true)):
                    out.append(
                        LintFinding(
                            rule: "insecure-http", severity: .warning, path: kp,
                            message: "cleartext HTTP is allowed for \(domain)",
                            why:
                                "Requests to this domain may go over plain HTTP, readable and changeable by anyone on the path, and the app's delegate may then accept any certificate for it.",
                            fix: "Serve the domain over HTTPS and remove the key."))
                case ("NSExceptionRequiresForwardSecrecy", .bool(false)):
                    out.append(
                        LintFinding(
                            rule: "forward-secrecy-off", severity: .warning, path: kp,
                            message: "forward secrecy is not required for \(domain)",
                            why:
                                "RSA key exchange is then accepted, so anyone who later obtains the server's private key can decrypt recorded traffic.",
                            fix: "Enable ECDHE cipher suites on the server and remove the key."))
                case ("NSRequiresCertificateTransparency", _):
                    out.append(
                        LintFinding(
                            rule: "certificate-transparency-obsolete", severity: .note, path: kp,
                            message: "NSRequiresCertificateTransparency is obsolete",
                            why:
                                "Apple's systems now require Certificate Transparency for publicly trusted certificates themselves, and the key no longer changes anything.",
                            fix: "Remove the key."))
                default: break
                }
            }
        }
    }

    static func checkTLSVersion(_ text: String, path: [String], into out: inout [LintFinding]) {
        if !tlsVersions.contains(text) {
            let suggestion = TLSVersion(text.trimmingSpaces).map { "TLSv1.\(Int($0.rawValue & 0xFF) - 1)" }
            out.append(
                LintFinding(
                    rule: "tls-version-spelling", severity: .error, path: path,
                    message: "'\(text)' is not one of \(tlsVersions.joined(separator: ", "))",
                    why:
                        "ATS accepts only these exact spellings and ignores anything else, so TLS 1.2 stays the minimum.",
                    fix: suggestion.map { "Write \($0)." } ?? "Write one of \(tlsVersions.joined(separator: ", "))."))
        } else if text == "TLSv1.0" || text == "TLSv1.1" {
            out.append(
                LintFinding(
                    rule: "tls-version-below-1.2", severity: .warning, path: path,
                    message: "the minimum TLS version is lowered to \(text)",
                    why: "TLS 1.0 and 1.1 are deprecated (RFC 8996) and Apple's systems are dropping them.",
                    fix: "Upgrade the server to TLS 1.2 or later and remove the key."))
        }
    }

    // MARK: - NSPinnedDomains

    static func checkPinnedDomains(_ value: PropertyListValue, path: [String], into out: inout [LintFinding]) {
        forEachDomain(value, path: path, exception: false, into: &out) { domain, entries, p, out in
            unknownKeys(entries, known: pinnedKeys, path: p, into: &out)
            checkBoolean(entries, "NSIncludesSubdomains", path: p, numbersCount: false, into: &out)
            var valid: [String] = []
            var categories: [String] = []
            for key in ["NSPinnedLeafIdentities", "NSPinnedCAIdentities"] {
                guard let array = entries.first(where: { $0.key == key })?.value else { continue }
                categories.append(key)
                valid += identities(array, path: p + [key], into: &out)
            }
            if categories.isEmpty {
                out.append(
                    LintFinding(
                        rule: "pinned-domain-without-identities", severity: .error, path: p,
                        message: "\(domain) has neither NSPinnedLeafIdentities nor NSPinnedCAIdentities",
                        why: "The entry pins nothing, so it looks like protection that is not there.",
                        fix: "Add NSPinnedCAIdentities with at least two SPKI-SHA256-BASE64 pins, or remove the entry.")
                )
                return
            }
            var seen: Set<String> = []
            let distinct = valid.filter { seen.insert($0).inserted }
            if distinct.count < 2 {
                out.append(
                    LintFinding(
                        rule: "pins-fewer-than-two", severity: .error, path: p,
                        message: "\(domain) has \(distinct.count) usable pin\(distinct.count == 1 ? "" : "s")",
                        why:
                            "When the pinned key changes (renewal, compromise, a new CA) every connection fails until users install an update.",
                        fix:
                            "Add a backup pin: the key of a second CA, or of a spare key pair kept offline for the next certificate."
                    ))
            }
            if categories == ["NSPinnedLeafIdentities"] {
                out.append(
                    LintFinding(
                        rule: "leaf-pins-only", severity: .warning, path: p + ["NSPinnedLeafIdentities"],
                        message: "\(domain) pins leaf keys only",
                        why:
                            "Leaf certificates are renewed every few months, and a renewal with a new key breaks the pin.",
                        fix: "Pin the issuing CA's key in NSPinnedCAIdentities, or renew with the same key pair."))
            }
        }
    }

    /// The valid pins of one identities array, reporting the invalid ones.
    static func identities(_ value: PropertyListValue, path: [String], into out: inout [LintFinding]) -> [String] {
        guard case .array(let items) = value else {
            out.append(wrongType(path, expected: "an array of dictionaries", found: value))
            return []
        }
        if items.isEmpty {
            out.append(
                LintFinding(
                    rule: "pins-empty-array", severity: .error, path: path, message: "the array is empty",
                    why: "An empty identities array matches no certificate, so every connection to the domain fails.",
                    fix: "List at least two SPKI-SHA256-BASE64 pins, or remove the key."))
        }
        var valid: [String] = []
        var seen: Set<String> = []
        for (i, item) in items.enumerated() {
            let p = path + ["[\(i)]"]
            guard case .dictionary(let entries) = item else {
                out.append(wrongType(p, expected: "a dictionary with SPKI-SHA256-BASE64", found: item))
                continue
            }
            duplicates(entries, path: p, into: &out)
            unknownKeys(entries, known: [identityKey], path: p, into: &out)
            guard let pin = entries.first(where: { $0.key == identityKey })?.value else {
                out.append(
                    LintFinding(
                        rule: "pin-missing", severity: .error, path: p, message: "no SPKI-SHA256-BASE64 key",
                        why: "An identity without a pin never matches, and counts for nothing.",
                        fix: "Add SPKI-SHA256-BASE64 with the base64 SHA-256 of the certificate's SubjectPublicKeyInfo."
                    ))
                continue
            }
            guard case .string(let text) = pin else {
                out.append(wrongType(p + [identityKey], expected: "a string", found: pin))
                continue
            }
            guard Base64.decode(text)?.count == 32 else {
                let prefixed = text.hasPrefix("sha256//") && Base64.decode(String(text.dropFirst(8)))?.count == 32
                out.append(
                    LintFinding(
                        rule: "pin-not-sha256", severity: .error, path: p + [identityKey],
                        message: "'\(text)' is not the base64 of 32 bytes",
                        why:
                            "ATS compares this with SHA-256 digests; a value that is not one never matches, and if no pin of the category is valid every connection fails.",
                        fix: prefixed
                            ? "Drop the sha256// prefix: ATS wants the bare base64."
                            : "Write the base64 SHA-256 of the SubjectPublicKeyInfo (trustx pin FILE prints it)."))
                continue
            }
            if !seen.insert(text).inserted {
                out.append(
                    LintFinding(
                        rule: "duplicate-pin", severity: .warning, path: p + [identityKey],
                        message: "the same pin is listed twice", why: "A repeated pin is no backup.",
                        fix: "Replace it with the key of another CA or a spare key pair."))
            }
            valid.append(text)
        }
        return valid
    }

    // MARK: - Domain keys

    static func checkDomainKey(_ key: String, path: [String], exception: Bool, into out: inout [LintFinding]) {
        func finding(_ rule: String, _ message: String, _ why: String, _ fix: String) {
            out.append(LintFinding(rule: rule, severity: .error, path: path, message: message, why: why, fix: fix))
        }
        let section = exception ? "NSExceptionDomains" : "NSPinnedDomains"
        if key.isEmpty || key.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            finding(
                "domain-malformed", "the domain key is empty or holds white space",
                "No host name has spaces, so the entry never matches.", "Write the bare host name.")
            return
        }
        if let r = key.firstRange(of: "://") {
            let host = key[r.upperBound...].prefix { $0 != "/" && $0 != ":" }
            finding(
                "domain-scheme", "'\(key)' has a URL scheme",
                "\(section) keys are host names; a URL never equals one, so the entry never matches.",
                "Write \(host.lowercased()).")
            return
        }
        if key.contains("*") {
            finding(
                "domain-wildcard", "'\(key)' has a wildcard",
                "\(section) keys are compared as written, with no wildcard matching, so the entry never matches.",
                "Write the parent domain (\(key.replacingAll("*.", with: "").lowercased())) with NSIncludesSubdomains true."
            )
            return
        }
        let isAddress = parseIPAddress(key) != nil
        if exception && key.contains("/") && !isAddress {
            // iOS 17 and macOS 14 read CIDR ranges here; anything else with a slash is a path.
            let parts = key.split(separator: "/", maxSplits: 1)
            if parts.count == 2, parseIPAddress(String(parts[0])) != nil, Int(parts[1]) != nil { return }
        }
        if key.contains("/") {
            finding(
                "domain-path", "'\(key)' has a path", "Keys are host names, so the entry never matches.",
                "Write only the host name.")
            return
        }
        if !isAddress, let colon = key.lastIndex(of: ":"), Int(key[key.index(after: colon)...]) != nil {
            finding(
                "domain-port", "'\(key)' has a port",
                "\(section) keys are host names and apply to every port; with a port the entry never matches.",
                "Write \(key[..<colon].lowercased()).")
            return
        }
        if key != key.lowercased() {
            out.append(
                LintFinding(
                    rule: "domain-upper-case", severity: exception ? .error : .warning, path: path,
                    message: "'\(key)' has upper-case letters",
                    why: exception
                        ? "ATS looks exception domains up with the lower-case host name, so this entry never matches."
                        : "NSPinnedDomains compares keys without case, but a mixed-case key is easy to duplicate and miss in review.",
                    fix: "Write \(key.lowercased())."))
        }
        if !exception && isAddress {
            out.append(
                LintFinding(
                    rule: "pinned-ip-address", severity: .warning, path: path, message: "'\(key)' is an IP address",
                    why: "Apple documents NSPinnedDomains keys as domain names.",
                    fix: "Pin the domain name the app connects to."))
        }
    }

    // MARK: - Keys and types

    /// Whether `key` looks like a misspelling of `known`: the same letters in another case, or a
    /// few edits away (a quarter of the key's length at most, three at most).
    static func close(_ key: String, to known: String) -> Bool {
        if key.lowercased() == known.lowercased() { return true }
        let allowed = min(3, max(1, known.count / 6))
        return EditDistance.between(key.lowercased(), known.lowercased(), limit: allowed) <= allowed
    }

    static func unknownKeys(
        _ entries: [PropertyListEntry], known: [String], path: [String], into out: inout [LintFinding]
    ) {
        for e in entries where !known.contains(e.key) {
            if let intended = known.first(where: { close(e.key, to: $0) }) {
                out.append(misspelt(e.key, intended, path: path + [e.key]))
            } else {
                out.append(
                    LintFinding(
                        rule: "unknown-key", severity: .warning, path: path + [e.key],
                        message: "'\(e.key)' is not an App Transport Security key here",
                        why: "ATS ignores keys it does not know, so whatever it was meant to do does not happen.",
                        fix: "Remove it, or use one of: \(known.joined(separator: ", "))."))
            }
        }
    }

    static func misspelt(_ key: String, _ intended: String, path: [String]) -> LintFinding {
        LintFinding(
            rule: "misspelt-key", severity: .error, path: path,
            message: "'\(key)' looks like a misspelling of \(intended)",
            why: "Keys are matched exactly, case included, so ATS ignores this one and its setting does not apply.",
            fix: "Write \(intended).")
    }

    static func duplicates(_ entries: [PropertyListEntry], path: [String], into out: inout [LintFinding]) {
        var seen: Set<String> = []
        for e in entries where !seen.insert(e.key).inserted {
            out.append(
                LintFinding(
                    rule: "duplicate-key", severity: .error, path: path + [e.key],
                    message: "'\(e.key)' appears more than once in the same dictionary",
                    why: "Only one of the values takes effect, and which one depends on the reader.",
                    fix: "Keep one entry and merge the settings into it."))
        }
    }

    /// A key ATS reads as a boolean. The ATS reader takes any number (YES only when it equals 1)
    /// and skips other types as if absent; NSPinnedDomains' NSIncludesSubdomains is honoured only
    /// as a boolean true (`numbersCount` false).
    static func checkBoolean(
        _ entries: [PropertyListEntry], _ key: String, path: [String], numbersCount: Bool = true,
        into out: inout [LintFinding]
    ) {
        guard let value = entries.first(where: { $0.key == key })?.value else { return }
        var number: Double?
        if case .integer(let n) = value { number = Double(n) }
        if case .real(let d) = value { number = d }
        switch value {
        case .bool: return
        case _ where number != nil && numbersCount:
            let yes = number == 1
            out.append(
                LintFinding(
                    rule: "wrong-type", severity: .warning, path: path + [key],
                    message: "\(key) is \(describe(value)), not a boolean",
                    why:
                        "ATS reads a number here as YES only when it equals 1, so this means \(yes ? "YES" : "NO") by accident.",
                    fix: "Write <\(yes ? "true" : "false")/>."))
        default:
            var fix = "Write <true/> or <false/>."
            if case .string(let s) = value {
                let lower = s.lowercased()
                if ["yes", "true", "1"].contains(lower) { fix = "Write <true/> instead of the string '\(s)'." }
                if ["no", "false", "0"].contains(lower) { fix = "Write <false/> instead of the string '\(s)'." }
            }
            out.append(
                LintFinding(
                    rule: "wrong-type", severity: .error, path: path + [key],
                    message: "\(key) is \(describe(value)), not a boolean",
                    why: "ATS reads this key only as a boolean and ignores any other type, so the default applies.",
                    fix: fix))
        }
    }

    static func wrongType(_ path: [String], expected: String, found: PropertyListValue) -> LintFinding {
        LintFinding(
            rule: "wrong-type", severity: .error, path: path, message: "expected \(expected), found \(describe(found))",
            why: "ATS ignores a value of the wrong type, so the setting does not apply.",
            fix: "Write \(expected).")
    }

    static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .string(let s): "the string '\(InputExcerpt.quote(s))'"
        case .bool(let b): b ? "<true/>" : "<false/>"
        case .integer(let n): "the integer \(n)"
        case .real(let d): "the real \(d)"
        case .date: "a date"
        case .data: "data"
        }
    }

}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
