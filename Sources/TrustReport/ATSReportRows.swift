import TrustCore

/// The App Transport Security rows and pin advice every report shows, so text, Markdown and the
/// explorer say the same things.
extension ReportFormatting {
    /// Label and value rows describing the ATS configuration and the host's policy; empty when
    /// the evaluation did not include ATS.
    public static func atsRows(_ e: Evaluation) -> [(String, String)] {
        guard let ats = e.settings.ats, let p = e.atsPolicy else { return [] }
        var rows: [(String, String)] = [
            ("source", ats.source ?? "ATS's defaults (--ats)"),
            ("platform", ats.platform.displayName),
            ("scheme", ats.scheme.rawValue),
            ("applies", p.enforced ? "yes: \(p.reason)" : "no: \(p.reason)"),
        ]
        if p.enforced {
            rows.append(("minimum", "\(p.minimumTLSVersion)"))
            rows.append(
                (
                    "ciphers",
                    p.restrictsCipherSuites
                        ? (p.requiresForwardSecrecy
                            ? "ATS's ECDHE and TLS 1.3 suites" : "ATS's suites and RSA key exchange") : "not restricted"
                ))
            rows.append(("http", p.allowsInsecureHTTP ? "allowed (cleartext)" : "refused"))
        }
        for note in p.notes { rows.append(("note", note)) }
        for note in ats.configuration.notes { rows.append(("plist", note.description)) }
        return rows
    }

    /// `ATS handshake · errSSLATSMinimumVersionViolation (-9881)`, for a failing ATS step.
    static func atsCode(_ step: Step, separator: String) -> String? {
        guard step.status == .failed, let f = step.finding.atsFailure else { return nil }
        if f.phase == .beforeConnection { return "ATS before connecting \(separator) URLError -1022" }
        return "ATS \(f.phase.rawValue) \(separator) \(OSStatusNames.name(f.osstatus)) (\(f.osstatus))"
    }
}
