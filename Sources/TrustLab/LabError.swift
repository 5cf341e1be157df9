import LabServers
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

    /// One line for people; a server's failure in `LabServerError`'s words.
    public var description: String {
        switch self {
        case .system(let operation, let code): LabServerError.system(operation: operation, errno: code).description
        case .bind(let address, let port, let code):
            LabServerError.bind(address: address, port: port, errno: code).description
        case .invalidAddress(let text): LabServerError.invalidAddress(text).description
        case .unknownScenario(let name):
            "no scenario named \(name) (known: \(LabScenario.all.map(\.name).joined(separator: ", ")))"
        case .portOutOfRange(let base): "port base \(base) leaves no room for every scenario below 65536"
        case .openssl(let operation, let detail):
            LabServerError.openssl(operation: operation, detail: detail).description
        case .pki(let error): "building the lab's certificates failed: \(error)"
        case .unknownGroup(let id):
            "no scenario group named \(id) (known: \(LabScenario.groups.map(\.id).joined(separator: ", ")))"
        }
    }

    /// A server's failure as the lab's, case for case.
    init(_ error: LabServerError) {
        switch error {
        case .system(let operation, let code): self = .system(operation: operation, errno: code)
        case .bind(let address, let port, let code): self = .bind(address: address, port: port, errno: code)
        case .invalidAddress(let text): self = .invalidAddress(text)
        case .openssl(let operation, let detail): self = .openssl(operation: operation, detail: detail)
        }
    }
}

extension LabListener {
    /// `bind(address:port:)`, failing with the lab's error.
    static func labBound(address: String, port: UInt16) throws(LabError) -> LabListener {
        do throws(LabServerError) { return try bind(address: address, port: port) } catch { throw LabError(error) }
    }
}

extension LabServer {
    /// Starts serving on `bound`, failing with the lab's error.
    static func labStarted(_ bound: [(LabListener, LabEndpoint)], options: LabServerOptions) throws(LabError)
        -> LabServer
    {
        do throws(LabServerError) { return try LabServer(bound: bound, options: options) } catch {
            throw LabError(error)
        }
    }
}
