#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a socket operation ended early.
enum NetFailure: Error, Sendable, Equatable {
    case timedOut
    /// The peer closed (EOF, or a reset).
    case closed
    case system(Int32)
    /// A line or header block longer than any sane peer sends.
    case overlong

    var text: String {
        switch self {
        case .timedOut: "timed out"
        case .closed: "connection closed"
        case .system(let e): String(cString: strerror(e))
        case .overlong: "the server sent an overlong reply"
        }
    }
}

/// Ignores SIGPIPE once for the process: a peer that closes while we write must give EPIPE,
/// not kill the process silently (every send also passes MSG_NOSIGNAL).
let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// A non-blocking TCP socket. Every wait is a poll() bounded by a deadline; the descriptor is
/// closed in deinit.
final class Connection {
    let fd: Int32
    let peer: SocketAddress
    /// Every byte received on this connection, for the handshake's input bound.
    private(set) var bytesReceived = 0

    private init(fd: Int32, peer: SocketAddress) {
        self.fd = fd
        self.peer = peer
    }

    deinit { close(fd) }

    enum ConnectFailure: Error {
        case refused(String)
        case unreachable(String, Int32)
        case timedOut(String)
    }

    /// Connects to the first address that answers. Each address gets an equal share of the time
    /// left, the last gets all of it, so one black-holed address cannot eat the whole deadline.
    static func connect(to addresses: [SocketAddress], deadline: Deadline) throws(ConnectFailure) -> Connection {
        _ = ignoreSIGPIPE
        var lastError: ConnectFailure = .timedOut("")
        for (i, address) in addresses.enumerated() {
            if deadline.isExpired { throw .timedOut(address.text) }
            let share = deadline.remaining / (addresses.count - i)
            let fd = socket(
                address.family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                    | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = .unreachable(address.text, errno)
                continue
            }
            // Handshake flights are small and latency-bound: send them at once.
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let rc = address.bytes.withUnsafeBytes { raw in
                Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            var err: Int32 = rc == 0 ? 0 : errno
            if rc != 0 && err == EINPROGRESS {
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var ready: Int32 = -1
                repeat {
                    ready = poll(&pfd, 1, deadline.pollTimeout(atMost: share))
                } while ready < 0 && errno == EINTR
                if ready == 0 {
                    close(fd)
                    lastError = .timedOut(address.text)
                    continue
                }
                var soError: Int32 = 0
                var len = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
                err = soError
            }
            if err == 0 { return Connection(fd: fd, peer: address) }
            close(fd)
            lastError = err == ECONNREFUSED ? .refused(address.text) : .unreachable(address.text, err)
        }
        throw lastError
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8], deadline: Deadline) throws(NetFailure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
                continue
            }
            let e = errno
            if e == EINTR { continue }
            guard e == EAGAIN || e == EWOULDBLOCK else { throw e == EPIPE || e == ECONNRESET ? .closed : .system(e) }
            try wait(for: Int16(POLLOUT), deadline: deadline)
        }
    }

    /// Receives at most `max` bytes, waiting until some arrive; throws `.closed` on EOF.
    func receive(max: Int = 16384, deadline: Deadline) throws(NetFailure) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: max)
        while true {
            let n = chunk.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress!, raw.count, 0) }
            if n > 0 {
                bytesReceived += n
                return Array(chunk[0..<n])
            }
            if n == 0 { throw .closed }
            let e = errno
            if e == EINTR { continue }
            guard e == EAGAIN || e == EWOULDBLOCK else { throw e == ECONNRESET ? .closed : .system(e) }
            try wait(for: Int16(POLLIN), deadline: deadline)
        }
    }

    /// Waits until the socket is ready, or the deadline (or `limit`) passes.
    func wait(for events: Int16, deadline: Deadline, limit: Duration? = nil) throws(NetFailure) {
        var pfd = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let timeout = limit.map { deadline.pollTimeout(atMost: $0) } ?? deadline.pollTimeout
            let rc = poll(&pfd, 1, timeout)
            if rc > 0 { return }
            if rc == 0 { throw .timedOut }
            if errno != EINTR { throw .system(errno) }
        }
    }
}
