/// A TLS protocol version: what the probe offers and negotiates, and what a lab server speaks.
public enum TLSVersion: Int, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// TLS 1.0 (RFC 2246).
    case tls1_0 = 0x0301
    /// TLS 1.1 (RFC 4346).
    case tls1_1 = 0x0302
    /// TLS 1.2 (RFC 5246).
    case tls1_2 = 0x0303
    /// TLS 1.3 (RFC 8446).
    case tls1_3 = 0x0304

    /// Parses `1.0`, `1.1`, `1.2`, `1.3` (also `tls1.2`, `TLSv1.2`).
    public init?(_ text: String) {
        var t = Substring(text.lowercased())
        for prefix in ["tlsv", "tls"] where t.hasPrefix(prefix) {
            t = t.dropFirst(prefix.count)
            break
        }
        switch t {
        case "1.0", "1": self = .tls1_0
        case "1.1": self = .tls1_1
        case "1.2": self = .tls1_2
        case "1.3": self = .tls1_3
        default: return nil
        }
    }

    /// `TLS 1.2`.
    public var description: String {
        switch self {
        case .tls1_0: "TLS 1.0"
        case .tls1_1: "TLS 1.1"
        case .tls1_2: "TLS 1.2"
        case .tls1_3: "TLS 1.3"
        }
    }

    /// The wire value, e.g. 0x0303.
    public var wireValue: UInt16 { UInt16(rawValue) }

    /// Orders by protocol age.
    public static func < (a: TLSVersion, b: TLSVersion) -> Bool { a.rawValue < b.rawValue }
}
