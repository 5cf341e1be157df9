import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a server could not start or be configured: the part of TrustLab's `LabError` that knows
/// nothing of the catalogue, which the lab lifts into `LabError` case for case, words unchanged.
public enum LabServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed with `errno`.
    case system(operation: String, errno: Int32)
    /// A port could not be bound (in use, or an address this machine does not have).
    case bind(address: String, port: UInt16, errno: Int32)
    /// The listen address is not an IPv4 or IPv6 address.
    case invalidAddress(String)
    /// OpenSSL refused to configure a server or write a file; `detail` is its error queue.
    case openssl(operation: String, detail: String)

    /// One line for people.
    public var description: String {
        switch self {
        case .system(let operation, let code): "\(operation) failed: \(LabServerError.message(code))"
        case .bind(let address, let port, let code):
            "cannot listen on \(address.contains(":") ? "[\(address)]" : address):\(port): \(LabServerError.message(code))"
        case .invalidAddress(let text): "\(text) is not an IPv4 or IPv6 address"
        case .openssl(let operation, let detail): "\(operation) failed: \(detail)"
        }
    }

    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// Drains OpenSSL's (thread-local) error queue into one error value.
    static func openssl(_ operation: String) -> LabServerError {
        .openssl(operation: operation, detail: OpenSSLErrorQueue.drainedLine())
    }
}
