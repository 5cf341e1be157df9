import ATSModel
import TrustCore
import TrustSupport
import TrustX509

extension ATSLint {
    // MARK: - NSExceptionDomains

    static func checkExceptionDomains(_ value: PropertyListValue, path: [String], into out: inout [LintFinding]) {
        forEachDomain(value, path: path, exception: true, into: &out) { domain, entries, p, out in
            for e in entries {
                guard let modern = obsoleteExceptionKeys[e.key] else { continue }
                out.append(
                    LintFinding(
                        rule: .obsoleteKey, severity: .warning, path: p + [e.key],
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
                            rule: .insecureHTTP, severity: .warning, path: kp,
                            message: "cleartext HTTP is allowed for \(domain)",
                            why:
                                "Requests to this domain may go over plain HTTP, readable and changeable by anyone on the path, and the app's delegate may then accept any certificate for it.",
                            fix: "Serve the domain over HTTPS and remove the key."))
                case ("NSExceptionRequiresForwardSecrecy", .bool(false)):
                    out.append(
                        LintFinding(
                            rule: .forwardSecrecyOff, severity: .warning, path: kp,
                            message: "forward secrecy is not required for \(domain)",
                            why:
                                "RSA key exchange is then accepted, so anyone who later obtains the server's private key can decrypt recorded traffic.",
                            fix: "Enable ECDHE cipher suites on the server and remove the key."))
                case ("NSRequiresCertificateTransparency", _):
                    out.append(
                        LintFinding(
                            rule: .certificateTransparencyObsolete, severity: .note, path: kp,
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
                    rule: .tlsVersionSpelling, severity: .error, path: path,
                    message: "'\(text)' is not one of \(tlsVersions.joined(separator: ", "))",
                    why:
                        "ATS accepts only these exact spellings and ignores anything else, so TLS 1.2 stays the minimum.",
                    fix: suggestion.map { "Write \($0)." } ?? "Write one of \(tlsVersions.joined(separator: ", "))."))
        } else if text == "TLSv1.0" || text == "TLSv1.1" {
            out.append(
                LintFinding(
                    rule: .tlsVersionBelow1_2, severity: .warning, path: path,
                    message: "the minimum TLS version is lowered to \(text)",
                    why: "TLS 1.0 and 1.1 are deprecated (RFC 8996) and Apple's systems are dropping them.",
                    fix: "Upgrade the server to TLS 1.2 or later and remove the key."))
        }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
