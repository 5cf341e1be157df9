import TrustSupport

/// What the `revocation` step found (RevocationCheck). `evidence` lists every CRL considered
/// for the certificate, each with why it was used or not.
enum RevocationFinding: RuleFinding {
    case notRevoked(issuer: String, evidence: [String] = [])
    case certificateRevoked(date: Timestamp, source: String, evidence: [String] = [])
    case ocspGood(signer: String)
    case revocationNotChecked(reason: String, evidence: [String] = [])
    /// `--require-revocation` (kSecRevocationRequirePositiveResponse) without a positive,
    /// verified answer.
    case responseRequired(reason: String, evidence: [String] = [])

    var storage: Finding.Storage { .revocation(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .certificateRevoked: AppleFailure("Revocation", .revoked, -67820, fatal: true)
        // SecPolicyChecks.list: RevocationResponseRequired, result R, subtype P,
        // errSecIncompleteCertRevocationCheck.
        case .responseRequired: AppleFailure("RevocationResponseRequired", .pinning, -67635)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .notRevoked: "Not revoked"
        case .certificateRevoked(let date, _, _): "Revoked on \(date.rfc3339)"
        case .ocspGood: "OCSP response: good"
        case .revocationNotChecked: "Revocation not checked"
        case .responseRequired: "No positive revocation answer"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .notRevoked(let issuer, let evidence):
            "Current CRLs signed by \(issuer), covering every revocation reason, do not list this certificate (RFC 5280 6.3)."
                + Self.lines(evidence)
        case .certificateRevoked(_, let source, let evidence):
            "\(source) says this certificate is revoked (RFC 5280 6.3, RFC 6960; Apple Revocation, errSecCertificateRevoked; fatal)."
                + Self.lines(evidence)
        case .ocspGood(let signer):
            "An OCSP response (stapled by the server, or fetched from its responder when revocation is checked over the network), signed by \(signer), matches this certificate and says good, and the evaluation time lies within its thisUpdate..nextUpdate (RFC 6960 3.2, 4.2.2.2)."
        case .revocationNotChecked(let reason, let evidence):
            reason + Self.lines(evidence)
        case .responseRequired(let reason, let evidence):
            "\(reason) A positive response is required (kSecRevocationRequirePositiveResponse; Apple RevocationResponseRequired, errSecIncompleteCertRevocationCheck)."
                + Self.lines(evidence)
        }
    }

    /// The CRLs considered, numbered, on the detail's one line.
    private static func lines(_ evidence: [String]) -> String {
        guard !evidence.isEmpty else { return "" }
        return " CRLs considered: "
            + evidence.enumerated().map { "(\($0.offset + 1)) \($0.element)" }.joined(separator: "; ") + "."
    }

    /// RFC 5280 5.3.1's name for a CRLReason.
    static func reasonName(_ code: Int) -> String {
        let names = [
            "unspecified", "keyCompromise", "cACompromise", "affiliationChanged", "superseded", "cessationOfOperation",
            "certificateHold", "7", "removeFromCRL", "privilegeWithdrawn", "aACompromise",
        ]
        return names.indices.contains(code) ? names[code] : "\(code)"
    }
}
