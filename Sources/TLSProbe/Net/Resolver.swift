import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A resolved socket address, as bytes (a value that can cross threads).
struct SocketAddress: Sendable {
    let family: Int32
    let bytes: [UInt8]

    /// `127.0.0.1:443` or `[::1]:443`.
    var text: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var serv = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let rc = bytes.withUnsafeBytes { raw in
            getnameinfo(
                raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count),
                &host, socklen_t(host.count), &serv, socklen_t(serv.count), NI_NUMERICHOST | NI_NUMERICSERV)
        }
        guard rc == 0 else { return "?" }
        let h = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let s = String(decoding: serv.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(h)]:\(s)" : "\(h):\(s)"
    }
}

/// Name resolution bounded by the deadline. getaddrinfo has no timeout of its own, so names are
/// resolved on a detached thread and the caller waits on a pipe with poll(); a resolver stuck
/// past the deadline is abandoned (it finishes and frees its job later). IP literals are parsed
/// in place with AI_NUMERICHOST, which never blocks.
enum Resolver {
    enum Failure: Error, Sendable {
        case notFound(String)
        case timedOut
    }

    static func resolve(_ endpoint: Endpoint, deadline: Deadline) throws(Failure) -> [SocketAddress] {
        let port = String(endpoint.port)
        if IPLiteral.isIP(endpoint.host) {
            return try lookup(endpoint.host, port, numeric: true).get()
        }
        let job = ResolveJob(host: endpoint.host, port: port)
        guard job.start() else {
            // No thread (resource exhaustion): resolve inline rather than fail.
            return try lookup(endpoint.host, port, numeric: false).get()
        }
        var pfd = pollfd(fd: job.readFD, events: Int16(POLLIN), revents: 0)
        while true {
            let rc = poll(&pfd, 1, deadline.pollTimeout)
            if rc > 0 { break }
            if rc == 0 { throw .timedOut }
            if errno != EINTR { throw .timedOut }
        }
        guard let outcome = job.outcome.withLock({ $0 }) else { throw .timedOut }
        return try outcome.get()
    }

    static func lookup(_ host: String, _ port: String, numeric: Bool) -> Result<[SocketAddress], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = numeric ? (AI_NUMERICHOST | AI_NUMERICSERV) : AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, port, &hints, &list)
        guard rc == 0, let list else {
            let reason = rc == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(rc))
            return .failure(.notFound(reason))
        }
        defer { freeaddrinfo(list) }
        var out: [SocketAddress] = []
        var p: UnsafeMutablePointer<addrinfo>? = list
        while let ai = p {
            if let addr = ai.pointee.ai_addr, ai.pointee.ai_family == AF_INET || ai.pointee.ai_family == AF_INET6 {
                let bytes = [UInt8](UnsafeRawBufferPointer(start: addr, count: Int(ai.pointee.ai_addrlen)))
                out.append(SocketAddress(family: ai.pointee.ai_family, bytes: bytes))
            }
            p = ai.pointee.ai_next
        }
        if out.isEmpty { return .failure(.notFound("no IPv4 or IPv6 address")) }
        return .success(out)
    }
}

/// One resolution handed to a worker thread. Both the caller and the worker hold a reference;
/// whoever lets go last closes the pipe, so the worker never writes to a closed pipe.
final class ResolveJob: Sendable {
    let host: String
    let port: String
    let outcome = Mutex<Result<[SocketAddress], Resolver.Failure>?>(nil)
    let readFD: Int32
    let writeFD: Int32

    init(host: String, port: String) {
        self.host = host
        self.port = port
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        if readFD >= 0 { close(readFD) }
        if writeFD >= 0 { close(writeFD) }
    }

    /// Starts the worker; false when no pipe or thread could be made.
    func start() -> Bool {
        guard readFD >= 0 else { return false }
        let retained = Unmanaged.passRetained(self).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(
            &tid, nil,
            { raw in
                let job = Unmanaged<ResolveJob>.fromOpaque(raw!).takeRetainedValue()
                let result = Resolver.lookup(job.host, job.port, numeric: false)
                job.outcome.withLock { $0 = result }
                var byte: UInt8 = 1
                _ = write(job.writeFD, &byte, 1)
                return nil
            }, retained)
        guard rc == 0 else {
            Unmanaged<ResolveJob>.fromOpaque(retained).release()
            return false
        }
        pthread_detach(tid)
        return true
    }
}
