import PathRules
import TrustX509

/// `hostname`: Apple SSLHostname, only under SSL with a host.
struct HostnameCheck: PathCheck {
    /// The matching rules: Apple's, or RFC 6125 with the CA/Browser Forum's (webpki), which also
    /// count the Public Suffix List's PRIVATE section.
    let rules: HostnameRules

    /// The names the hostname is matched against (and name constraints also read).
    var enforcedExtensions: Set<OID> { [.subjectAltName] }

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        switch c.settings.policy {
        case .basicX509:
            if let host = c.settings.hostIgnoredByPolicy {
                let result = match(c, host)
                steps.append(
                    Step(
                        .hostname, 0, .skipped("not checked: Basic X.509 ignores the host"),
                        HostnameFinding.hostIgnored(
                            host: host, wouldMatch: result.matched, explanation: result.explanation)))
                return
            }
            steps.append(
                Step(
                    .hostname, 0, .skipped("Basic X.509 does not check host names"),
                    HostnameFinding.hostNotChecked(
                        reason:
                            "SecPolicyCreateBasicX509() has no host-name check: any certificate chaining to an anchor is accepted for any server."
                    )))
        case .ssl(nil):
            steps.append(
                Step(
                    .hostname, 0, .skipped("SSL policy created with a nil host"),
                    HostnameFinding.hostNotChecked(
                        reason:
                            "SecPolicyCreateSSL(true, nil) skips the host-name check (and NSPinnedDomains): any trusted certificate is accepted for any server."
                    )))
        case .ssl(let host?):
            let result = match(c, host)
            if result.matched {
                steps.append(
                    Step(
                        .hostname, 0, .passed, HostnameFinding.hostMatched(host: host, name: result.matchedName ?? host)
                    ))
            } else {
                steps.append(
                    Step(
                        .hostname, 0, .failed, HostnameFinding.hostMismatch(host: host, explanation: result.explanation)
                    ))
            }
        }
    }

    /// Matches `host` against the leaf by the profile's rules.
    func match(_ c: CheckContext, _ host: String) -> HostnameMatch {
        let leaf = c.certificates[0]
        let dnsNames = leaf.dnsNames
        // The list only decides wildcards; loading it costs ~3 ms once per process, so a
        // leaf without a wildcard name never pays for it.
        let needsList = dnsNames.contains { $0.utf8.first == UInt8(ascii: "*") }
        var list: PublicSuffixList?
        if needsList {
            switch c.settings.publicSuffixes {
            case .debian: list = rules == .webpki ? HostnameCheck.wholeDebianList : PublicSuffixList.shared
            case .list(let given): list = given
            }
        }
        return HostnameMatcher.match(
            host: host, dnsNames: dnsNames, ipAddresses: leaf.ipAddresses,
            commonNames: leaf.subject.commonNames, rules: rules,
            publicSuffixes: list)
    }

    /// Debian's whole Public Suffix List, PRIVATE section included, for the webpki profile.
    /// CA/Browser Forum BR 3.2.2.6: "If a wildcard would fall within the label immediately to the
    /// left of a registry-controlled or public suffix, CAs MUST refuse issuance"; x509-limbo
    /// (webpki::san::public-suffix-private-namespace-wildcard-san) counts PRIVATE entries such as
    /// `s3.amazonaws.com` as public suffixes. `PublicSuffixList.shared` keeps the ICANN section
    /// only, as Apple and browsers do (see its documentation); its parser takes text without
    /// section markers whole, so the markers are blanked here.
    private static let wholeDebianList: PublicSuffixList? = {
        guard var bytes = try? CertificateLoader.readFile(PublicSuffixList.defaultPath) else { return nil }
        for marker in ["===BEGIN ICANN DOMAINS===", "===END ICANN DOMAINS==="] {
            let needle = Array(marker.utf8)
            var i = 0
            while i + needle.count <= bytes.count {
                if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle {
                    for k in i..<(i + needle.count) { bytes[k] = 0x20 }
                    i += needle.count
                } else {
                    i += 1
                }
            }
        }
        return PublicSuffixList(contents: bytes)
    }()
}
