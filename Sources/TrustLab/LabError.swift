import TrustBuilder
import TrustCore
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the lab could not start (or a part of it failed).
public enum LabError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed with `errno`.
    case system(operation: String, errno: Int32)
    /// A port could not be bound (in use, or an address this machine does not have).
    case bind(address: String, port: UInt16, errno: Int32)
    /// The listen address is not an IPv4 or IPv6 address.
    case invalidAddress(String)
    /// No scenario has this name.
    case unknownScenario(String)
    /// A port base so high that some scenario's port exceeds 65535.
    case portOutOfRange(Int)
    /// OpenSSL refused to configure a server or write a file; `detail` is its error queue.
    case openssl(operation: String, detail: String)
    /// Building the lab's PKI failed.
    case pki(BuilderError)
    /// No scenario group has this id.
    case unknownGroup(String)

    /// One line for people.
    public var description: String {
        switch self {
        case .system(let operation, let code): "\(operation) failed: \(LabError.message(code))"
        case .bind(let address, let port, let code):
            "cannot listen on \(address.contains(":") ? "[\(address)]" : address):\(port): \(LabError.message(code))"
        case .invalidAddress(let text): "\(text) is not an IPv4 or IPv6 address"
        case .unknownScenario(let name):
            "no scenario named \(name) (known: \(LabScenario.all.map(\.name).joined(separator: ", ")))"
        case .portOutOfRange(let base): "port base \(base) leaves no room for every scenario below 65536"
        case .openssl(let operation, let detail): "\(operation) failed: \(detail)"
        case .pki(let error): "building the lab's certificates failed: \(error)"
        case .unknownGroup(let id):
            "no scenario group named \(id) (known: \(LabScenario.groups.map(\.id).joined(separator: ", ")))"
        }
    }

    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// Drains OpenSSL's (thread-local) error queue into one error value.
    static func openssl(_ operation: String) -> LabError {
        .openssl(operation: operation, detail: drainOpenSSLErrors())
    }
}

/// OpenSSL's error queue as one line, emptied.
func drainOpenSSLErrors() -> String { OpenSSLErrorQueue.drainedLine() }
