internal import COpenSSL
import Dispatch
import Synchronization
import TrustCore
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the lab's plain HTTP endpoint serves (the AIA intermediate).
public struct LabHTTPFile: Sendable {
    /// The Content-Type header.
    public var contentType: String
    /// The body.
    public var body: [UInt8]

    /// Creates a file.
    public init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        self.body = body
    }
}

/// What an endpoint does with each connection.
public enum LabService: Sendable {
    /// TLS at once, then one HTTP request answered with a plain-text page (`page` and the
    /// connection's protocol and cipher), like `openssl s_server -www`.
    case https(LabTLSConfiguration, page: String)
    /// SMTP: a 220 banner, EHLO offering STARTTLS, `STARTTLS` -> 220, then TLS and a minimal
    /// SMTP dialogue whose EHLO answer carries `page`'s first line.
    case smtpStartTLS(LabTLSConfiguration, page: String)
    /// Plain HTTP GET of fixed paths (`/intermediate.der`), for AIA downloads.
    case http(files: [String: LabHTTPFile])
}

/// One listening port of a `LabServer`.
public struct LabEndpoint: Sendable {
    /// A name to find its port by (the scenario's name).
    public var name: String
    /// The port; 0 lets the kernel choose.
    public var port: UInt16
    /// What it serves.
    public var service: LabService

    /// Creates an endpoint.
    public init(name: String, port: UInt16 = 0, service: LabService) {
        self.name = name
        self.port = port
        self.service = service
    }
}

/// Limits that keep a training room's servers responsive.
public struct LabServerOptions: Sendable {
    /// The address every endpoint binds (loopback unless a classroom needs otherwise).
    public var listenAddress: String
    /// Worker threads shared by all endpoints: at most this many connections are handled at once.
    public var workers: Int
    /// Seconds a connection may take from accept to close (a silent or dripping client is cut off).
    public var connectionTimeout: Double
    /// Accepted connections waiting for a worker; beyond this new ones are closed at once.
    public var queueCapacity: Int
    /// Seconds a client has to send its first message, waiting off the workers meanwhile, and
    /// then to finish the TLS handshake on one (at most `connectionTimeout`): an idle client
    /// never holds a worker, a slow one holds it this long at most.
    public var handshakeTimeout: Double

    /// Creates options: 127.0.0.1, 32 workers, 10 s per connection, 3 s for the first message
    /// and the handshake, 1024 waiting.
    public init(
        listenAddress: String = "127.0.0.1", workers: Int = 32, connectionTimeout: Double = 10,
        queueCapacity: Int = 1024, handshakeTimeout: Double = 3
    ) {
        self.listenAddress = listenAddress
        self.workers = max(1, workers)
        self.connectionTimeout = connectionTimeout
        self.queueCapacity = max(1, queueCapacity)
        self.handshakeTimeout = handshakeTimeout
    }
}

/// Counters of what a `LabServer` did, for tests and the lab's status line.
public struct LabServerStatistics: Hashable, Sendable {
    /// Connections accepted.
    public var accepted: Int
    /// Connections served to the end (TLS handshake and answer, or an HTTP answer).
    public var served: Int
    /// TLS handshakes that failed (no common version, no client certificate, client gave up).
    public var failedHandshakes: Int
    /// Connections cut off at the deadline.
    public var timedOut: Int
    /// Connections closed unserved because the queue was full.
    public var dropped: Int
}

/// In-process TLS (and plain HTTP) servers on loopback sockets: one acceptor thread polling every
/// listener and every connection whose client has not spoken yet, a fixed pool of workers that
/// only get connections with a first message ready, a deadline per connection. Serves any chain, any protocol
/// range, with or without a required client certificate, over HTTPS or SMTP STARTTLS.
///
/// The server's threads keep it alive until `stop()` is called.
public final class LabServer: @unchecked Sendable {
    // @unchecked: mutable state is in LabLock/Atomic values; listeners, handlers and threads are set in init and only joined/closed by stop(), which runs once.
    private enum Handler: Sendable {
        case tls(ServerTLSContext, smtp: Bool, page: String)
        case http([String: LabHTTPFile])
    }

    private struct Work {
        var fd: Int32
        var handler: Int
    }

    /// An accepted connection whose client has not yet sent its whole first message.
    private struct Waiting {
        var fd: Int32
        var handler: Int
        var deadline: Double
    }

    private struct QueueState {
        var items: [Work] = []
        var head = 0
        var stopping = false
        var count: Int { items.count - head }
    }

    private let listeners: [LabListener]
    private let handlers: [Handler]
    private let names: [String]
    private let options: LabServerOptions
    private let queue = LabLock(QueueState())
    private let available = DispatchSemaphore(value: 0)
    /// Connections being handled and their deadlines; the acceptor shuts down overdue ones.
    private let active = LabLock<[Int32: Double]>([:])
    private let stopped = LabLock(false)
    private let stopping = Atomic<Bool>(false)
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var workers: [POSIXThread] = []
    private var acceptor: POSIXThread?

    private let acceptedCount = Atomic<Int>(0)
    private let servedCount = Atomic<Int>(0)
    private let failedCount = Atomic<Int>(0)
    private let timedOutCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)

    /// The bound port of each endpoint, by endpoint name.
    public let ports: [String: UInt16]

    /// Binds every endpoint on `options.listenAddress` and starts serving.
    /// - Throws: `LabError` when a port cannot be bound or a TLS configuration is refused;
    ///   nothing keeps running then.
    public convenience init(endpoints: [LabEndpoint], options: LabServerOptions = LabServerOptions())
        throws(LabError)
    {
        var bound: [(LabListener, LabEndpoint)] = []
        for endpoint in endpoints {
            bound.append((try LabListener.bind(address: options.listenAddress, port: endpoint.port), endpoint))
        }
        try self.init(bound: bound, options: options)
    }

    /// Starts serving on listeners bound beforehand (the lab binds its AIA port before it can
    /// write the AIA URL into a certificate).
    init(bound: [(LabListener, LabEndpoint)], options: LabServerOptions) throws(LabError) {
        // A client closing mid-write must not kill the process (SSL_write uses write(2)).
        signal(SIGPIPE, SIG_IGN)
        var handlers: [Handler] = []
        for (_, endpoint) in bound {
            switch endpoint.service {
            case .https(let configuration, let page):
                handlers.append(.tls(try ServerTLSContext(configuration), smtp: false, page: page))
            case .smtpStartTLS(let configuration, let page):
                handlers.append(.tls(try ServerTLSContext(configuration), smtp: true, page: page))
            case .http(let files): handlers.append(.http(files))
            }
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw .system(operation: "pipe", errno: errno) }
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
        listeners = bound.map(\.0)
        names = bound.map(\.1.name)
        self.handlers = handlers
        self.options = options
        var ports: [String: UInt16] = [:]
        for (listener, endpoint) in bound { ports[endpoint.name] = listener.port }
        self.ports = ports
        do {
            // The threads hold the server strongly until stop() joins them: call stop().
            for _ in 0..<options.workers {
                workers.append(try POSIXThread { [self] in workerLoop() })
            }
            acceptor = try POSIXThread { [self] in acceptLoop() }
        } catch {
            stop()
            throw .system(operation: "pthread_create", errno: error.errno)
        }
    }

    deinit { stop() }

    /// The bound port of the endpoint named `name`.
    public func port(of name: String) -> UInt16? { ports[name] }

    /// What the server has done so far.
    public var statistics: LabServerStatistics {
        LabServerStatistics(
            accepted: acceptedCount.load(ordering: .relaxed), served: servedCount.load(ordering: .relaxed),
            failedHandshakes: failedCount.load(ordering: .relaxed), timedOut: timedOutCount.load(ordering: .relaxed),
            dropped: droppedCount.load(ordering: .relaxed))
    }

    /// Stops accepting, closes every listener (connections are refused from now on), cuts off
    /// connections in progress and joins every thread. Idempotent.
    public func stop() {
        let first = stopped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        stopping.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        acceptor?.join()
        for listener in listeners { listener.close() }
        let pending = queue.withLock { state in
            state.stopping = true
            let pending = state.items[state.head...].map(\.fd)
            state.items = []
            state.head = 0
            return pending
        }
        for fd in pending { systemClose(fd) }
        active.withLock { connections in
            for fd in connections.keys { shutdown(fd, Int32(SHUT_RDWR)) }
        }
        for _ in workers { available.signal() }
        for thread in workers { thread.join() }
        workers = []
        acceptor = nil
        systemClose(wakeRead)
        systemClose(wakeWrite)
    }

    // MARK: - Accepting

    private func acceptLoop() {
        // Connections whose client has not sent its first message: only this thread touches them.
        var waiting: [Waiting] = []
        var fds: [pollfd] = []
        while !stopping.load(ordering: .sequentiallyConsistent) {
            fds.removeAll(keepingCapacity: true)
            for listener in listeners { fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)) }
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for w in waiting { fds.append(pollfd(fd: w.fd, events: Int16(POLLIN), revents: 0)) }
            // 100 ms: the granularity of connection deadlines.
            let ready = poll(&fds, nfds_t(fds.count), 100)
            if stopping.load(ordering: .sequentiallyConsistent) { break }
            reapOverdueConnections()
            let base = listeners.count + 1
            let now = monotonicSeconds()
            var still: [Waiting] = []
            still.reserveCapacity(waiting.count)
            for (k, w) in waiting.enumerated() {
                if ready > 0 && fds[base + k].revents != 0 {
                    switch firstMessage(w.fd, handler: w.handler) {
                    case .complete:
                        enqueue(Work(fd: w.fd, handler: w.handler))
                        continue
                    case .closed:
                        failedCount.add(1, ordering: .relaxed)
                        systemClose(w.fd)
                        continue
                    case .partial: break
                    }
                }
                if w.deadline < now {
                    timedOutCount.add(1, ordering: .relaxed)
                    systemClose(w.fd)
                } else {
                    still.append(w)
                }
            }
            waiting = still
            guard ready > 0 else { continue }
            for i in 0..<listeners.count where fds[i].revents & Int16(POLLIN) != 0 {
                acceptAll(listener: i, waiting: &waiting)
            }
        }
        for w in waiting { systemClose(w.fd) }
    }

    private enum FirstMessage { case complete, partial, closed }

    /// Whether the client's first message has fully arrived, looked at without reading it: a
    /// whole TLS record (the ClientHello), or an HTTP request's header block (or 4 KiB of it).
    private func firstMessage(_ fd: Int32, handler: Int) -> FirstMessage {
        var buffer = [UInt8](repeating: 0, count: 5 + 16_384)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
        if n == 0 { return .closed }
        if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .partial : .closed }
        switch handlers[handler] {
        case .tls:
            // RFC 8446 5.1: a record is a 5-octet header (type, version, length) and `length`
            // octets. Anything that is not a handshake record is the worker's to refuse.
            guard buffer[0] == 22 else { return .complete }
            guard n >= 5 else { return .partial }
            let length = Int(buffer[3]) << 8 | Int(buffer[4])
            return n >= 5 + length || n == buffer.count ? .complete : .partial
        case .http:
            let seen = buffer[0..<n]
            if n >= 4096 || seen.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]) != nil
                || seen.firstRange(of: [0x0A, 0x0A]) != nil
            {
                return .complete
            }
            return .partial
        }
    }

    /// Hands a connection to the workers; false (and the connection closed) when the queue is full.
    private func enqueue(_ work: Work) {
        let queued = queue.withLock { state -> Bool in
            guard !state.stopping, state.count < options.queueCapacity else { return false }
            if state.head > 1024 && state.head * 2 > state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            state.items.append(work)
            return true
        }
        if queued {
            available.signal()
        } else {
            droppedCount.add(1, ordering: .relaxed)
            systemClose(work.fd)
        }
    }

    private func acceptAll(listener index: Int, waiting: inout [Waiting]) {
        // Bounded per round so one busy port cannot starve the others' accepts.
        for _ in 0..<64 {
            let fd = accept(listeners[index].fd, nil, nil)
            guard fd >= 0 else { return }
            // accept4 is not visible to Swift (a _GNU_SOURCE declaration); keep the socket from
            // leaking into a process the host application spawns.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            acceptedCount.add(1, ordering: .relaxed)
            if case .tls(_, smtp: true, _) = handlers[index] {
                // SMTP: the server speaks first, so the worker starts at once (under the
                // handshake deadline).
                enqueue(Work(fd: fd, handler: index))
            } else if waiting.count < options.queueCapacity {
                let wait = min(options.handshakeTimeout, options.connectionTimeout)
                waiting.append(Waiting(fd: fd, handler: index, deadline: monotonicSeconds() + wait))
            } else {
                droppedCount.add(1, ordering: .relaxed)
                systemClose(fd)
            }
        }
    }

    private func reapOverdueConnections() {
        let now = monotonicSeconds()
        active.withLock { connections in
            for (fd, deadline) in connections where deadline < now {
                // Shutting the socket down makes the worker's blocked read or write return at once;
                // the worker still owns and closes the descriptor (it unregisters under this lock first).
                shutdown(fd, Int32(SHUT_RDWR))
                connections[fd] = .infinity
                timedOutCount.add(1, ordering: .relaxed)
            }
        }
    }

    // MARK: - Working

    private func workerLoop() {
        while true {
            available.wait()
            let work = queue.withLock { state -> Work? in
                guard state.count > 0 else { return nil }
                let work = state.items[state.head]
                state.head += 1
                return work
            }
            guard let work else {
                if stopping.load(ordering: .sequentiallyConsistent) { return }
                continue
            }
            // Registered under the same lock stop() takes to cut connections off: either stop()
            // sees this connection, or this worker sees that the server is stopping.
            // A TLS connection first gets the handshake deadline; serveTLS extends it once the
            // handshake is done.
            let limit: Double
            if case .tls = handlers[work.handler] {
                limit = min(options.handshakeTimeout, options.connectionTimeout)
            } else {
                limit = options.connectionTimeout
            }
            let registered = active.withLock { connections -> Bool in
                guard !stopping.load(ordering: .sequentiallyConsistent) else { return false }
                connections[work.fd] = monotonicSeconds() + limit
                return true
            }
            guard registered else {
                systemClose(work.fd)
                continue
            }
            let served: Bool
            switch handlers[work.handler] {
            case .tls(let context, let smtp, let page):
                served = serveTLS(fd: work.fd, context: context, smtp: smtp, page: page)
            case .http(let files):
                served = serveHTTP(fd: work.fd, files: files)
            }
            if served {
                servedCount.add(1, ordering: .relaxed)
            } else {
                failedCount.add(1, ordering: .relaxed)
            }
            active.withLock { _ = $0.removeValue(forKey: work.fd) }
            systemClose(work.fd)
        }
    }

    // MARK: - Protocols

    private func serveTLS(fd: Int32, context: ServerTLSContext, smtp: Bool, page: String) -> Bool {
        // OpenSSL's error queue is per thread: leave it empty for the next connection.
        defer { ERR_clear_error() }
        if smtp {
            guard smtpBeforeTLS(fd: fd) else { return false }
        }
        guard let ssl = SSL_new(context.context) else { return false }
        defer { SSL_free(ssl) }
        guard SSL_set_fd(ssl, fd) == 1, SSL_accept(ssl) == 1 else { return false }
        // Handshake done in time: the rest of the connection's time applies (unless the reaper
        // has already cut it off, which it marks with an infinite deadline).
        active.withLock { connections in
            if let deadline = connections[fd], deadline != .infinity {
                connections[fd] =
                    deadline - min(options.handshakeTimeout, options.connectionTimeout)
                    + options.connectionTimeout
            }
        }
        let facts = connectionFacts(ssl)
        if smtp {
            smtpOverTLS(ssl, page: page)
        } else {
            // Read the request (or whatever arrives) before answering, as an HTTP server does.
            _ = readRequest { buffer, count in SSL_read(ssl, buffer, count) }
            let body = Array((page + "\n" + facts).utf8)
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            _ = writeAll(ssl, Array(head.utf8) + body)
        }
        _ = SSL_shutdown(ssl)
        return true
    }

    /// Protocol, cipher and client certificate, for the answer page.
    private func connectionFacts(_ ssl: OpaquePointer) -> String {
        var lines: [String] = []
        if let version = SSL_get_version(ssl) { lines.append("Protocol: \(String(cString: version))") }
        if let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher) {
            lines.append("Cipher: \(String(cString: name))")
        }
        if let peer = SSL_get0_peer_certificate(ssl), let name = X509_get_subject_name(peer),
            let text = X509_NAME_oneline(name, nil, 0)
        {
            lines.append("Client certificate: \(String(cString: text))")
            CRYPTO_free(text, nil, 0)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads until the end of an HTTP header block, EOF or 16 KiB; returns what was read.
    private func readRequest(_ read: (UnsafeMutableRawPointer, Int32) -> Int32) -> [UInt8] {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.count < 16_384 {
            let n = buffer.withUnsafeMutableBytes { read($0.baseAddress!, Int32($0.count)) }
            guard n > 0 else { break }
            request += buffer[0..<Int(n)]
            if request.count >= 4, request.suffix(4) == [0x0D, 0x0A, 0x0D, 0x0A] { break }
            if request.count >= 2, request.suffix(2) == [0x0A, 0x0A] { break }
        }
        return request
    }

    private func writeAll(_ ssl: OpaquePointer, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + offset, Int32(bytes.count - offset)) }
            guard n > 0 else { return false }
            offset += Int(n)
        }
        return true
    }

    /// The plain part of RFC 3207: banner, EHLO with STARTTLS, STARTTLS -> 220. True when TLS follows.
    private func smtpBeforeTLS(fd: Int32) -> Bool {
        guard sendAll(fd, Array("220 trustx-lab ESMTP ready\r\n".utf8)) else { return false }
        // A bound on commands before STARTTLS: a client looping on NOOP cannot hold a worker.
        for _ in 0..<20 {
            guard let line = readLine(fd) else { return false }
            let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? ""
            let reply: String
            switch verb {
            case "EHLO": reply = "250-trustx-lab\r\n250-8BITMIME\r\n250 STARTTLS\r\n"
            case "HELO": reply = "250 trustx-lab\r\n"
            case "STARTTLS": return sendAll(fd, Array("220 2.0.0 Ready to start TLS\r\n".utf8))
            case "NOOP", "RSET": reply = "250 2.0.0 OK\r\n"
            case "QUIT":
                _ = sendAll(fd, Array("221 2.0.0 Bye\r\n".utf8))
                return false
            default: reply = "530 5.7.0 Must issue a STARTTLS command first\r\n"
            }
            guard sendAll(fd, Array(reply.utf8)) else { return false }
        }
        return false
    }

    /// After STARTTLS: EHLO answered with the lesson, QUIT ends; nothing is ever delivered.
    private func smtpOverTLS(_ ssl: OpaquePointer, page: String) {
        let firstLine = page.split(separator: "\n").first.map(String.init) ?? "trustx lab"
        for _ in 0..<20 {
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while line.count < 1000 {
                guard SSL_read(ssl, &byte, 1) == 1 else { return }
                if byte == 0x0A { break }
                if byte != 0x0D { line.append(byte) }
            }
            let verb = String(decoding: line, as: UTF8.self).split(separator: " ").first.map { $0.uppercased() } ?? ""
            switch verb {
            case "EHLO", "HELO":
                guard writeAll(ssl, Array("250-trustx-lab\r\n250 \(firstLine)\r\n".utf8)) else { return }
            case "QUIT":
                _ = writeAll(ssl, Array("221 2.0.0 Bye\r\n".utf8))
                return
            default:
                guard writeAll(ssl, Array("502 5.5.1 trustx lab only demonstrates STARTTLS\r\n".utf8)) else { return }
            }
        }
    }

    /// A plain HTTP GET of one of `files`.
    private func serveHTTP(fd: Int32, files: [String: LabHTTPFile]) -> Bool {
        let request = readRequest { buffer, count in Int32(truncatingIfNeeded: recv(fd, buffer, Int(count), 0)) }
        let firstLine = request.split(separator: 0x0A).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let parts = firstLine.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" || parts[0] == "HEAD" else {
            _ = sendAll(
                fd, Array("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return false
        }
        guard let file = files[String(parts[1])] else {
            _ = sendAll(fd, Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return false
        }
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: \(file.contentType)\r\nContent-Length: \(file.body.count)\r\nConnection: close\r\n\r\n"
        return sendAll(fd, Array(head.utf8) + (parts[0] == "HEAD" ? [] : file.body))
    }
}
