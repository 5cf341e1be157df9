import Foundation

/// A loopback port that refuses every connection (ECONNREFUSED, URLError -1004) for as long as it
/// is held: bound but never listening. A port bound and closed again, or freed by a stopped
/// server, can be handed by the system to another suite's server running beside the test, which
/// then answers where a refusal was expected; a held port cannot.
public final class RefusingPort: @unchecked Sendable {  // fd is set once, then only closed
    /// The port.
    public let port: Int
    private let fd: Int32

    /// A port the system chooses.
    public convenience init() throws { try self.init(port: 0) }

    /// `port`, freed a moment ago by a server the test stopped (SO_REUSEADDR lets the bind succeed
    /// while its old connections wait out TIME_WAIT).
    /// - Throws: `POSIXError` when the port cannot be bound (another process took it first).
    public init(port: Int) throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw POSIXError(.EMFILE) }
        var reuse: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
            }
        }
        guard bound else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE
            close(socketFD)
            throw POSIXError(code)
        }
        fd = socketFD
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Frees the port. Call it where the test is done with the port: the call also keeps the
    /// value alive until then.
    public func release() { close(fd) }
}
