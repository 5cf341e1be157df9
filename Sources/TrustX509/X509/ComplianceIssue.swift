/// A problem found while decoding a certificate that does not stop decoding but makes the
/// certificate non-compliant; the checks decide what each case costs under each profile.
public enum ComplianceIssue: Hashable, Sendable, CustomStringConvertible {
    /// An extension encodes its critical flag as FALSE, which DER omits (X.690 11.5).
    case encodedCriticalFalse(OID)
    /// The extension appears more than once (RFC 5280 4.2).
    case duplicateExtension(OID)
    /// A known extension whose value does not decode, with the decoder's reason.
    case malformedExtension(OID, reason: String)
    /// The outer signatureAlgorithm differs from tbsCertificate.signature (RFC 5280 4.1.1.2).
    case signatureAlgorithmMismatch

    /// The issue in one line, as the reports print it.
    public var description: String {
        switch self {
        case .encodedCriticalFalse(let oid): "\(oid.name): critical FALSE is encoded, DER omits it (X.690 11.5)"
        case .duplicateExtension(let oid): "duplicate extension \(oid.name) (RFC 5280 4.2)"
        case .malformedExtension(let oid, let reason): "malformed \(oid.name) extension: \(reason)"
        case .signatureAlgorithmMismatch:
            "signatureAlgorithm differs from tbsCertificate.signature (RFC 5280 4.1.1.2)"
        }
    }
}
