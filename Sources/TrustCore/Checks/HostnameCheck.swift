/// `hostname`: Apple SSLHostname, only under SSL with a host.
enum HostnameCheck: PathCheck {
    static func run(_ c: CheckContext, into steps: inout [Step]) {
        switch c.settings.policy {
        case .basicX509:
            steps.append(Step(.hostname, 0, .skipped("Basic X.509 does not check host names"),
                .hostNotChecked(reason: "SecPolicyCreateBasicX509() has no host-name check: any certificate chaining to an anchor is accepted for any server.")))
        case .ssl(nil):
            steps.append(Step(.hostname, 0, .skipped("SSL policy created with a nil host"),
                .hostNotChecked(reason: "SecPolicyCreateSSL(true, nil) skips the host-name check (and NSPinnedDomains): any trusted certificate is accepted for any server.")))
        case .ssl(let host?):
            let leaf = c.certificates[0]
            let result = HostnameMatcher.match(host: host, dnsNames: leaf.dnsNames, ipAddresses: leaf.ipAddresses,
                commonNames: leaf.subject.commonNames, rules: c.webpki ? .webpki : .apple,
                publicSuffixes: PublicSuffixList.shared)
            if result.matched {
                steps.append(Step(.hostname, 0, .passed, .hostMatched(host: host, name: result.matchedName ?? host)))
            } else {
                steps.append(Step(.hostname, 0, .failed, .hostMismatch(host: host, explanation: result.explanation)))
            }
        }
    }
}
