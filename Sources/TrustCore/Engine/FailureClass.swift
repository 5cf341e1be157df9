/// Apple's result subtypes, in SecTrust.c's priority order (highest first).
public enum FailureClass: Int, Hashable, Sendable, Comparable {
    case blocked = 11, revoked = 10, keySize = 9, weakHash = 8, denied = 7, compliance = 6
    case pinning = 5, trust = 4, usage = 3, name = 2, expired = 1, invalid = 0

    /// Orders by priority: a higher class wins.
    public static func < (a: FailureClass, b: FailureClass) -> Bool { a.rawValue < b.rawValue }

    /// Apple's name for the subtype.
    public var name: String {
        switch self {
        case .blocked: "Blocked"
        case .revoked: "Revoked"
        case .keySize: "KeySize"
        case .weakHash: "WeakHash"
        case .denied: "Denied"
        case .compliance: "Compliance"
        case .pinning: "Pinning"
        case .trust: "Trust"
        case .usage: "Usage"
        case .name: "Name"
        case .expired: "Expired"
        case .invalid: "Invalid"
        }
    }
}
