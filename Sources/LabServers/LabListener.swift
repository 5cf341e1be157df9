#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening TCP socket; closed in deinit (or earlier by `close()`).
package final class LabListener: @unchecked Sendable {
    // @unchecked: `fd` is immutable; `closed` is only touched by the server's stop(), which runs once under its lock.
    package let fd: Int32
    /// The bound port (the kernel's choice when 0 was asked for).
    package let port: UInt16
    private var closed = false

    private init(fd: Int32, port: UInt16) {
        self.fd = fd
        self.port = port
    }

    /// Binds and listens on `address` (IPv4 or IPv6 text) and `port` (0 for any free port).
    /// - Throws: `LabServerError.invalidAddress`, `LabServerError.bind` or `LabServerError.system`.
    package static func bind(address: String, port: UInt16) throws(LabServerError) -> LabListener {
        var v4 = in_addr()
        var v6 = in6_addr()
        let family: Int32
        if inet_pton(AF_INET, address, &v4) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, address, &v6) == 1 {
            family = AF_INET6
        } else {
            throw .invalidAddress(address)
        }
        let fd = socket(family, systemSocketStream, 0)
        guard fd >= 0 else { throw .system(operation: "socket", errno: errno) }
        // A fixed port base must be reusable right after the previous lab stopped (TIME_WAIT).
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var result: Int32
        if family == AF_INET {
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port.bigEndian
            sa.sin_addr = v4
            result = withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemBind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } else {
            var sa = sockaddr_in6()
            sa.sin6_family = sa_family_t(AF_INET6)
            sa.sin6_port = port.bigEndian
            sa.sin6_addr = v6
            result = withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemBind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            systemClose(fd)
            throw .bind(address: address, port: port, errno: code)
        }
        // A training room's burst of connections waits in the backlog, not refused.
        guard listen(fd, 256) == 0 else {
            let code = errno
            systemClose(fd)
            throw .system(operation: "listen", errno: code)
        }
        // Non-blocking: a connection that vanishes between poll and accept must not block the acceptor.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var bound = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            systemClose(fd)
            throw .system(operation: "getsockname", errno: code)
        }
        // sin_port and sin6_port sit at the same offset.
        return LabListener(fd: fd, port: UInt16(bigEndian: bound.sin6_port))
    }

    /// Closes the socket: new connections are refused from now on.
    package func close() {
        guard !closed else { return }
        closed = true
        systemClose(fd)
    }

    deinit { close() }
}
