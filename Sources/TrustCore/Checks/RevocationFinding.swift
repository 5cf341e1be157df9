import TrustSupport

/// What the `revocation` step found (RevocationCheck).
enum RevocationFinding: RuleFinding {
    case notRevoked(issuer: String)
    case certificateRevoked(date: Timestamp, source: String)
    case ocspGood(signer: String)
    case revocationNotChecked(reason: String)

    var storage: Finding.Storage { .revocation(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .certificateRevoked: AppleFailure("Revocation", .revoked, -67820, fatal: true)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .notRevoked: "Not revoked"
        case .certificateRevoked(let date, _): "Revoked on \(date.rfc3339)"
        case .ocspGood: "OCSP response: good"
        case .revocationNotChecked: "Revocation not checked"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .notRevoked(let issuer):
            "A current CRL signed by \(issuer) does not list this certificate's serial number (RFC 5280 6.3)."
        case .certificateRevoked(_, let source):
            "\(source) says this certificate is revoked (RFC 5280 6.3, RFC 6960; Apple Revocation, errSecCertificateRevoked; fatal)."
        case .ocspGood(let signer):
            "An OCSP response (stapled by the server, or fetched from its responder when revocation is checked over the network), signed by \(signer), matches this certificate and says good, and the evaluation time lies within its thisUpdate..nextUpdate (RFC 6960 3.2, 4.2.2.2)."
        case .revocationNotChecked(let reason):
            reason
        }
    }
}
