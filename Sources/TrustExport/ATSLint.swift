import ATSModel
import TrustCore
import TrustSupport
import TrustX509

/// CI guardrails over an Info.plist's NSAppTransportSecurity: what turns ATS off, pins that
/// cannot survive a rotation or never match, keys and values ATS silently ignores, and domain
/// keys that can never match a host. docs/lint.md describes each rule.
public enum ATSLint {
    static let atsKey = "NSAppTransportSecurity"
    // The keys come from ATSModel's table, the one the decoder reads.
    static let globalBooleans = ATSKey.booleans(in: .topLevel)
    static let globalKeys = ATSKey.names(in: .topLevel)
    static let exceptionBooleans = ATSKey.booleans(in: .exceptionDomain)
    static let exceptionKeys = ATSKey.names(in: .exceptionDomain)
    /// Keys of the first ATS release (iOS 9), documented once and ignored by current systems, with
    /// the key that replaced each.
    static let obsoleteExceptionKeys = ATSKey.obsoleteKeys(in: .exceptionDomain)
    static let pinnedKeys = ATSKey.names(in: .pinnedDomain)
    static let identityKey = ATSKey.names(in: .identity)[0]
    /// The keys whose presence makes current systems ignore NSAllowsArbitraryLoads.
    static let arbitraryLoadsOverriders: [String] = {
        guard case .ignoredBeside(let keys)? = ATSKey.named("NSAllowsArbitraryLoads", in: .topLevel)?.status else {
            return []
        }
        return keys
    }()
    static let tlsVersions = ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]

    /// Every rule a finding can name, as docs/lint.md lists them.
    public static let rules = LintRule.allCases.map(\.rawValue)

    /// Every finding for an Info.plist's root value, errors first, then in the order written.
    /// - Parameter root: The parsed property list (its root should be a dictionary).
    /// - Returns: The findings; empty for a sound configuration.
    public static func lint(_ root: PropertyListValue) -> [LintFinding] {
        var out: [LintFinding] = []
        guard case .dictionary(let entries) = root else {
            out.append(
                LintFinding(
                    rule: .rootNotADictionary, severity: .error, path: [],
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
                        rule: .misplacedKey, severity: .error, path: [e.key],
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
                    rule: .arbitraryLoads, severity: .error, path: path + ["NSAllowsArbitraryLoads"],
                    message: "NSAllowsArbitraryLoads is true",
                    why:
                        "It turns ATS off for every domain without an exception, allowing cleartext HTTP and weak TLS, and App Review asks for a justification.",
                    fix:
                        "Remove it, and add NSExceptionDomains entries for the few hosts that need an exception."))
            // Present means a boolean or a number: ATS skips a value of another type as if absent.
            let overriding = entries.filter { e in
                guard arbitraryLoadsOverriders.contains(e.key) else { return false }
                switch e.value {
                case .bool, .integer, .real: return true
                default: return false
                }
            }.map(\.key)
            if !overriding.isEmpty {
                out.append(
                    LintFinding(
                        rule: .arbitraryLoadsIgnored, severity: .warning, path: path + ["NSAllowsArbitraryLoads"],
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
                    rule: key == "NSAllowsArbitraryLoadsForMedia" ? .arbitraryLoadsMedia : .arbitraryLoadsWeb,
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
}
