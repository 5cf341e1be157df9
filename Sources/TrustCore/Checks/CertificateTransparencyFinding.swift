/// What the `certificate-transparency` step found (CertificateTransparencyCheck).
enum CertificateTransparencyFinding: RuleFinding {
    case ctNotRequired(reason: String)
    case ctSatisfied(logs: Int, required: Int)
    case ctMissing(logs: Int, required: Int)

    var storage: Finding.Storage { .certificateTransparency(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .ctMissing: AppleFailure("SystemTrustedCTRequired", .compliance, -67825)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .ctNotRequired: "Certificate Transparency not required"
        case .ctSatisfied(let logs, let required): "SCTs from \(logs) logs (\(required) required)"
        case .ctMissing(let logs, let required): "SCTs from \(logs) log\(logs == 1 ? "" : "s"), \(required) required"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .ctNotRequired(let reason):
            reason
        case .ctSatisfied, .ctMissing:
            "Chains to system roots need Signed Certificate Timestamps from distinct logs: 2 for leaves valid at most 180 days, 3 otherwise when embedded, or 2 delivered in the TLS handshake or OCSP response (Apple's Certificate Transparency policy; SystemTrustedCTRequired, errSecVerifyActionFailed). trustx counts SCTs by log; it does not verify their signatures or Apple's log list."
        }
    }
}
