import ATSModel
import TrustCore
import TrustSupport
import TrustX509

extension ATSLint {
    // MARK: - Domain keys

    static func checkDomainKey(_ key: String, path: [String], exception: Bool, into out: inout [LintFinding]) {
        func finding(_ rule: LintRule, _ message: String, _ why: String, _ fix: String) {
            out.append(LintFinding(rule: rule, severity: .error, path: path, message: message, why: why, fix: fix))
        }
        let section = exception ? "NSExceptionDomains" : "NSPinnedDomains"
        if key.isEmpty || key.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            finding(
                .domainMalformed, "the domain key is empty or holds white space",
                "No host name has spaces, so the entry never matches.", "Write the bare host name.")
            return
        }
        if let r = key.firstRange(of: "://") {
            let host = key[r.upperBound...].prefix { $0 != "/" && $0 != ":" }
            finding(
                .domainScheme, "'\(key)' has a URL scheme",
                "\(section) keys are host names; a URL never equals one, so the entry never matches.",
                "Write \(host.lowercased()).")
            return
        }
        if key.contains("*") {
            finding(
                .domainWildcard, "'\(key)' has a wildcard",
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
                .domainPath, "'\(key)' has a path", "Keys are host names, so the entry never matches.",
                "Write only the host name.")
            return
        }
        if !isAddress, let colon = key.lastIndex(of: ":"), Int(key[key.index(after: colon)...]) != nil {
            finding(
                .domainPort, "'\(key)' has a port",
                "\(section) keys are host names and apply to every port; with a port the entry never matches.",
                "Write \(key[..<colon].lowercased()).")
            return
        }
        if key != key.lowercased() {
            out.append(
                LintFinding(
                    rule: .domainUpperCase, severity: exception ? .error : .warning, path: path,
                    message: "'\(key)' has upper-case letters",
                    why: exception
                        ? "ATS looks exception domains up with the lower-case host name, so this entry never matches."
                        : "NSPinnedDomains compares keys without case, but a mixed-case key is easy to duplicate and miss in review.",
                    fix: "Write \(key.lowercased())."))
        }
        if !exception && isAddress {
            out.append(
                LintFinding(
                    rule: .pinnedIPAddress, severity: .warning, path: path, message: "'\(key)' is an IP address",
                    why: "Apple documents NSPinnedDomains keys as domain names.",
                    fix: "Pin the domain name the app connects to."))
        }
    }
}
