/// SecTrustResultType as SecTrustGetTrustResult would report it.
public enum TrustResultType: String, Hashable, Sendable {
    case unspecified, proceed, deny, recoverableTrustFailure, fatalTrustFailure
}
