/// What the `hostname` step found (HostnameCheck).
enum HostnameFinding: RuleFinding {
    case hostMatched(host: String, name: String)
    case hostMismatch(host: String, explanation: String)
    case hostNotChecked(reason: String)
    case hostIgnored(host: String, wouldMatch: Bool, explanation: String)

    var storage: Finding.Storage { .hostname(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .hostMismatch: AppleFailure("SSLHostname", .name, -67602)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .hostMatched(let host, let name): "\(host) matches \(name)"
        case .hostMismatch(let host, _): "\(host) matches no subjectAltName"
        case .hostNotChecked: "Host name not checked"
        case .hostIgnored(let host, let wouldMatch, _):
            "Host \(host) not checked: Basic X.509 ignores the host (it would \(wouldMatch ? "" : "not ")have matched)"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .hostMatched:
            "A subjectAltName entry matches the requested host (Apple SSLHostname; RFC 6125)."
        case .hostMismatch(_, let explanation):
            "\(explanation) (Apple SSLHostname, errSecHostNameMismatch)."
        case .hostNotChecked(let reason):
            reason
        case .hostIgnored(_, let wouldMatch, let explanation):
            "SecPolicyCreateBasicX509() has no host-name check, so the app's host plays no part: any certificate chaining to an anchor is accepted for any server. Under SecPolicyCreateSSL this host would \(wouldMatch ? "" : "not ")have matched: \(explanation)."
        }
    }
}
