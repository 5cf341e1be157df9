import AppleHello
import Synchronization
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP front on 127.0.0.1 before a TLS server on the same host: it reads each client's first
/// record, asks its `FrontRule` what to do, and then passes the connection on, resets it, stays
/// silent or answers itself. The lab's middlebox and buggy-server lessons are such fronts before
/// an ordinary lab server, so a client with a small ClientHello reaches the server and iOS 26's
/// large one meets the rule (docs/connecting.md, "The second hello").
public final class HelloFront: Sendable {
    /// The port the front listens on.
    public let port: UInt16
    private let listener: Int32
    private let stopped = Mutex(false)

    /// The longest a connection is served: a front outlives no client that stopped talking.
    public static let connectionLifetime: Int32 = 30_000

    /// Listens on `address` before the server at `upstreamPort` on the same address (127.0.0.1
    /// when `address` is the wildcard 0.0.0.0).
    /// - Parameters:
    ///   - rule: What to do with each client's first record.
    ///   - address: An IPv4 address to listen on (a lab's listen address).
    ///   - port: The port to listen on; 0 lets the kernel pick (tests), a lab gives its scenario's.
    ///   - upstreamPort: The TLS server's port.
    /// - Throws: `HelloFrontError` when no socket could listen (an IPv6 address among them).
    public init(
        rule: FrontRule, address: String = "127.0.0.1", port requested: UInt16 = 0, upstreamPort: UInt16
    ) throws(HelloFrontError) {
        var ip = in_addr()
        guard inet_pton(AF_INET, address, &ip) == 1 else {
            throw HelloFrontError(what: "IPv4 address", errno: EAFNOSUPPORT)
        }
        let upstream = ip.s_addr == 0 ? UInt32(0x7F00_0001).bigEndian : ip.s_addr
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HelloFrontError(what: "socket", errno: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var local = Self.address(ip.s_addr, port: requested)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let e = errno
            close(fd)
            throw HelloFrontError(what: "bind/listen", errno: e)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: local.sin_port)
        do throws(POSIXThreadError) {
            _ = try POSIXThread(detached: true) { [listener] in
                // Ends when stop() closes the listener and accept fails.
                while true {
                    let client = accept(listener, nil, nil)
                    if client < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    // No child a test starts meanwhile may inherit the connection.
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    if (try? POSIXThread(
                        detached: true, { Self.serve(client, rule: rule, upstream: (upstream, upstreamPort)) }))
                        == nil
                    {
                        close(client)
                    }
                }
            }
        } catch {
            close(fd)
            throw HelloFrontError(what: "pthread_create", errno: error.errno)
        }
    }

    /// Stops accepting (connections in progress finish on their own); calling it again does nothing.
    public func stop() {
        let first = stopped.withLock { s in
            defer { s = true }
            return !s
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    /// `ip` (network order) and `port` as a socket address.
    static func address(_ ip: UInt32, port: UInt16) -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = ip
        a.sin_port = port.bigEndian
        return a
    }

    /// Reads the first segment and then the rest of the first record (at most 16 KiB more, for at
    /// most five seconds), and acts on the rule's decision.
    static func serve(_ client: Int32, rule: FrontRule, upstream: (ip: UInt32, port: UInt16)) {
        var received = read(client, max: FrontRule.segmentBytes, waitMs: 5000)
        let first = received
        // At most 16 reads of up to 4 KiB: a ClientHello record is under 16 KiB + 5.
        for _ in 0..<16 where ClientHelloSummary.read(received) == nil && !received.isEmpty {
            let more = read(client, max: 4096, waitMs: 1000)
            if more.isEmpty { break }
            received += more
        }
        switch rule.decide(first, ClientHelloSummary.read(received)) {
        case .forward: forward(client, sent: received, upstream: upstream)
        case .reset:
            var l = linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        case .silence:
            // Swallow whatever comes until the client gives up or the lifetime ends.
            var waited: Int32 = 0
            while waited < connectionLifetime {
                let chunk = read(client, max: 4096, waitMs: 1000)
                if chunk.isEmpty && !isOpen(client) { break }
                waited += 1000
            }
        case .answer(let bytes): _ = write(client, bytes)
        }
        close(client)
    }

    /// Connects to the server behind, replays `sent` and copies both ways until either side ends.
    static func forward(_ client: Int32, sent: [UInt8], upstream: (ip: UInt32, port: UInt16)) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard server >= 0 else { return }
        defer { close(server) }
        var address = Self.address(upstream.ip, port: upstream.port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0, write(server, sent) else { return }
        var fds = [
            pollfd(fd: client, events: Int16(POLLIN), revents: 0),
            pollfd(fd: server, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 16384)
        var idle: Int32 = 0
        // Each pass moves bytes or counts a second of idleness: bounded by the lifetime.
        while idle < connectionLifetime {
            let ready = poll(&fds, 2, 1000)
            if ready < 0 && errno != EINTR { return }
            if ready <= 0 {
                idle += 1000
                continue
            }
            for (from, to) in [(0, 1), (1, 0)] where fds[from].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(fds[from].fd, $0.baseAddress!, $0.count, 0) }
                if n <= 0 { return }
                if !write(fds[to].fd, Array(buffer[0..<n])) { return }
            }
        }
    }

    /// Up to `max` bytes, waiting at most `waitMs`; empty on end, error or time.
    static func read(_ fd: Int32, max: Int, waitMs: Int32) -> [UInt8] {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, waitMs) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: max)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// Whether the peer has not closed: a readable socket with nothing to read has.
    static func isOpen(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 0) > 0 else { return true }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK)) > 0
    }

    /// Writes all of `bytes`; false when the peer went away.
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

/// Why a front could not start.
public struct HelloFrontError: Error, Sendable, CustomStringConvertible {
    /// The call that failed.
    public var what: String
    /// Its errno.
    public var errno: Int32

    /// `bind/listen: Address already in use`.
    public var description: String { "\(what): \(String(cString: strerror(errno)))" }
}
