internal import COpenSSL
import Dispatch
import Synchronization
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// In-process TLS (and plain HTTP) servers on loopback sockets. One acceptor thread polls every
/// listener and every connection that waits for its client; a fixed pool of workers runs the
/// non-blocking step a connection can take once its client's bytes are there (read, handshake,
/// answer) and hands it back to wait again. Serves any chain, any protocol range, with or
/// without a required client certificate, over HTTPS or SMTP STARTTLS.
///
/// This file holds the accepting, waiting and scheduling; what a connection says and answers is
/// in LabServer+Dialogue.swift. The server's threads keep it alive until `stop()` is called.
public final class LabServer: @unchecked Sendable {
    // @unchecked: mutable state is in LabLock/Atomic values or owned by the acceptor thread
    // (`Acceptor`); listeners, handlers and threads are set in init and only joined/closed by
    // stop(), which runs once.

    /// What an endpoint serves: TLS (HTTPS, or SMTP upgraded with STARTTLS) with its answer page,
    /// or plain HTTP files (the AIA downloads).
    enum Handler: Sendable {
        case tls(ServerTLSContext, smtp: Bool, page: String)
        case http([String: LabHTTPFile])
        /// A raw responder and the chain's DER, leaf first.
        case legacy(LabLegacyServer, chain: [[UInt8]])
    }

    /// What a worker's step left the connection waiting for.
    enum Outcome {
        case read, write
        /// The step's bound was reached with input still buffered: back in the queue behind
        /// the others, not in the poll set (the socket may have nothing new to say).
        case again
        case finished(served: Bool)
    }

    private struct WorkQueue {
        /// One FIFO per endpoint, taken round-robin: a port flooded with ready handshakes delays
        /// the other ports by one connection each turn, not by its whole backlog.
        var byEndpoint: [[Connection]]
        var heads: [Int]
        var next = 0
        var count = 0
        var stopping = false
    }

    private let listeners: [LabListener]
    let handlers: [Handler]
    private let names: [String]
    private let options: LabServerOptions
    /// Connections the process keeps open at most: the descriptor limit less room for the rest
    /// of the process (the explorer runs the lab in its own process).
    private let processLimit: Int
    private let work: LabLock<WorkQueue>
    private let available = DispatchSemaphore(value: 0)
    /// Connections a worker has stepped, handed back to the acceptor.
    private let inbox = LabLock<[(Connection, Outcome)]>([])
    private let stopped = LabLock(false)
    private let stopping = Atomic<Bool>(false)
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var workers: [POSIXThread] = []
    private var acceptor: POSIXThread?
    /// The acceptor's own state: only its thread touches it until stop() has joined it.
    private let state: Acceptor

    private let acceptedCount = Atomic<Int>(0)
    let servedCount = Atomic<Int>(0)
    let failedCount = Atomic<Int>(0)
    private let timedOutCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)
    private let evictedCount = Atomic<Int>(0)

    /// The bound port of each endpoint, by endpoint name.
    public let ports: [String: UInt16]

    /// Binds every endpoint on `options.listenAddress` and starts serving.
    /// - Throws: `LabServerError` when a port cannot be bound or a TLS configuration is refused;
    ///   nothing keeps running then.
    public convenience init(endpoints: [LabEndpoint], options: LabServerOptions = LabServerOptions())
        throws(LabServerError)
    {
        var bound: [(LabListener, LabEndpoint)] = []
        for endpoint in endpoints {
            bound.append((try LabListener.bind(address: options.listenAddress, port: endpoint.port), endpoint))
        }
        try self.init(bound: bound, options: options)
    }

    /// Starts serving on listeners bound beforehand (the lab binds its AIA port before it can
    /// write the AIA URL into a certificate).
    package init(bound: [(LabListener, LabEndpoint)], options: LabServerOptions) throws(LabServerError) {
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
            case .legacy(let server, let chain): handlers.append(.legacy(server, chain: chain.map(\.der)))
            }
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw .system(operation: "pipe", errno: errno) }
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
        // Neither end may block: a full pipe already means "wake up".
        for fd in pipeFDs {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        listeners = bound.map(\.0)
        names = bound.map(\.1.name)
        self.handlers = handlers
        self.options = options
        let descriptors = raiseOpenFileLimit()
        processLimit = min(LabServer.processConnectionLimit, max(64, descriptors - 256 - 2 * bound.count))
        work = LabLock(
            WorkQueue(
                byEndpoint: Array(repeating: [], count: bound.count), heads: Array(repeating: 0, count: bound.count)))
        state = Acceptor(endpoints: bound.count)
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
            dropped: droppedCount.load(ordering: .relaxed), evicted: evictedCount.load(ordering: .relaxed))
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
        wake()
        acceptor?.join()
        for listener in listeners { listener.close() }
        work.withLock { $0.stopping = true }
        for _ in workers { available.signal() }
        for thread in workers { thread.join() }
        workers = []
        acceptor = nil
        // Every thread is gone: what is left in the queue and the inbox is this thread's to close.
        let queued = work.withLock { queue in
            var all: [Connection] = []
            for (e, items) in queue.byEndpoint.enumerated() { all += items[queue.heads[e]...] }
            queue.byEndpoint = queue.byEndpoint.map { _ in [] }
            return all
        }
        for connection in queued { connection.release() }
        for (connection, _) in inbox.withLock({ $0 }) { connection.release() }
        inbox.withLock { $0 = [] }
        systemClose(wakeRead)
        systemClose(wakeWrite)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = systemWrite(wakeWrite, &byte, 1)
    }

    // MARK: - Accepting and waiting

    /// Connections waiting for their clients, and how many each endpoint and peer holds open.
    private final class Acceptor {
        /// Waiting connections, by endpoint and descriptor.
        var waiting: [[Int32: Connection]]
        var openByEndpoint: [Int]
        var openByPeer: [PeerSlot: Int] = [:]
        var open = 0
        /// Counts parkings: the order of "longest waiting" (connections accepted in one round
        /// share a clock reading).
        var parkings = 0
        /// Accepting pauses briefly when the process is out of descriptors and nothing waits.
        var acceptResumes = 0.0

        init(endpoints: Int) {
            waiting = Array(repeating: [:], count: endpoints)
            openByEndpoint = Array(repeating: 0, count: endpoints)
        }
    }

    private struct PeerSlot: Hashable {
        var endpoint: Int
        var address: [UInt8]
    }

    private func acceptLoop() {
        var fds: [pollfd] = []
        var polled: [Connection] = []
        while !stopping.load(ordering: .sequentiallyConsistent) {
            var now = monotonicSeconds()
            fds.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            let accepting = now >= state.acceptResumes
            // poll ignores negative descriptors: a paused listener stays in place.
            for listener in listeners {
                fds.append(pollfd(fd: accepting ? listener.fd : -1, events: Int16(POLLIN), revents: 0))
            }
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            var next = now + 1
            if !accepting { next = min(next, state.acceptResumes) }
            for endpoint in state.waiting {
                for connection in endpoint.values {
                    let events = connection.waitsToWrite ? POLLOUT : POLLIN
                    fds.append(pollfd(fd: connection.fd, events: Int16(events), revents: 0))
                    polled.append(connection)
                    next = min(next, connection.deadline)
                }
            }
            let wait = Int32(max(0, min(1000, ((next - now) * 1000).rounded(.up))))
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if stopping.load(ordering: .sequentiallyConsistent) { break }
            now = monotonicSeconds()
            let base = listeners.count + 1
            if ready > 0 {
                for (k, connection) in polled.enumerated() where fds[base + k].revents != 0 {
                    unpark(connection)
                    enqueue(connection)
                }
                if fds[base - 1].revents != 0 { drainWakePipe() }
            }
            for (connection, outcome) in inbox.withLock({ items in
                defer { items.removeAll(keepingCapacity: true) }
                return items
            }) {
                switch outcome {
                case .read:
                    connection.waitsToWrite = false
                    park(connection, now: now)
                case .write:
                    connection.waitsToWrite = true
                    park(connection, now: now)
                case .again where connection.closeBy <= now:
                    finish(connection, .timedOut)
                case .again:
                    enqueue(connection)
                case .finished(let served):
                    finish(connection, served ? .served : .failed)
                }
            }
            for endpoint in state.waiting.indices {
                for connection in state.waiting[endpoint].values where connection.deadline <= now {
                    unpark(connection)
                    finish(connection, .timedOut)
                }
            }
            guard ready > 0 else { continue }
            for i in 0..<listeners.count where fds[i].revents & Int16(POLLIN) != 0 {
                acceptAll(listener: i, now: now)
            }
        }
        for endpoint in state.waiting {
            for connection in endpoint.values { connection.release() }
        }
        state.waiting = state.waiting.map { _ in [:] }
    }

    private func drainWakePipe() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while bytes.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Puts a connection in the poll set until its client acts or its deadline passes.
    private func park(_ connection: Connection, now: Double) {
        state.parkings += 1
        connection.waitingSince = state.parkings
        connection.deadline = min(connection.closeBy, connection.stageDeadline)
        state.waiting[connection.endpoint][connection.fd] = connection
    }

    private func unpark(_ connection: Connection) {
        state.waiting[connection.endpoint].removeValue(forKey: connection.fd)
    }

    private enum Ending { case served, failed, timedOut, evicted }

    /// Closes a connection the acceptor holds, counts why (unless it was counted when it was
    /// answered, before lingering), and gives its room back.
    private func finish(_ connection: Connection, _ ending: Ending) {
        if !connection.counted {
            switch ending {
            case .served: servedCount.add(1, ordering: .relaxed)
            case .failed: failedCount.add(1, ordering: .relaxed)
            case .timedOut: timedOutCount.add(1, ordering: .relaxed)
            case .evicted: evictedCount.add(1, ordering: .relaxed)
            }
        }
        state.openByEndpoint[connection.endpoint] -= 1
        state.open -= 1
        let slot = PeerSlot(endpoint: connection.endpoint, address: connection.peer)
        if let count = state.openByPeer[slot], count > 1 {
            state.openByPeer[slot] = count - 1
        } else {
            state.openByPeer.removeValue(forKey: slot)
        }
        connection.release()
    }

    /// Closes the longest-waiting connection of `endpoint` (of `peer` only, when given); false
    /// when none waits (every one is being worked on, which takes a bounded time).
    private func evictOldest(endpoint: Int, peer: [UInt8]?) -> Bool {
        var oldest: Connection?
        for connection in state.waiting[endpoint].values where peer == nil || connection.peer == peer {
            if oldest == nil || connection.waitingSince < oldest!.waitingSince { oldest = connection }
        }
        guard let oldest else { return false }
        unpark(oldest)
        finish(oldest, .evicted)
        return true
    }

    /// Makes room for a new connection of `endpoint` from `peer`: the peer's own oldest waiting
    /// connection at the peer limit, the port's at the port limit, the fullest port's at the
    /// process limit. False when no waiting connection could make room.
    private func admit(endpoint: Int, peer: [UInt8]) -> Bool {
        if state.openByPeer[PeerSlot(endpoint: endpoint, address: peer)] ?? 0 >= options.connectionsPerPeer {
            guard evictOldest(endpoint: endpoint, peer: peer) else { return false }
        }
        if state.openByEndpoint[endpoint] >= options.connectionsPerPort {
            guard evictOldest(endpoint: endpoint, peer: nil) else { return false }
        }
        if state.open >= processLimit {
            return evictFromFullestPort()
        }
        return true
    }

    /// The process is out of room: the port holding the most connections gives one up, so the
    /// abusers of one port pay for it and the other ports keep theirs.
    private func evictFromFullestPort() -> Bool {
        let byLoad = state.openByEndpoint.indices.sorted { state.openByEndpoint[$0] > state.openByEndpoint[$1] }
        for endpoint in byLoad where evictOldest(endpoint: endpoint, peer: nil) { return true }
        return false
    }

    private func acceptAll(listener index: Int, now: Double) {
        // Bounded per round so one busy port cannot starve the others' accepts.
        for _ in 0..<64 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listeners[index].fd, $0, &length) }
            }
            guard fd >= 0 else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    // Out of descriptors (another part of the process took them): make room, or
                    // leave the connection in the backlog a moment instead of spinning on it.
                    if !evictFromFullestPort() { state.acceptResumes = now + 0.05 }
                }
                return
            }
            // accept4 is not visible to Swift (a _GNU_SOURCE declaration); keep the socket from
            // leaking into a process the host application spawns, and never block on it.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            acceptedCount.add(1, ordering: .relaxed)
            let peer = peerAddress(address)
            guard admit(endpoint: index, peer: peer) else {
                droppedCount.add(1, ordering: .relaxed)
                systemClose(fd)
                continue
            }
            state.open += 1
            state.openByEndpoint[index] += 1
            state.openByPeer[PeerSlot(endpoint: index, address: peer), default: 0] += 1
            let connection = Connection(
                fd: fd, endpoint: index, peer: peer, closeBy: now + options.connectionTimeout)
            switch handlers[index] {
            case .tls(_, smtp: true, _):
                // SMTP: the server speaks first.
                connection.output = Array("220 trustx-lab ESMTP ready\r\n".utf8)
                connection.expect(.sendPlain(then: .smtpCommand), within: stageTime, now: now)
                enqueue(connection)
            case .tls:
                connection.expect(.handshake, within: stageTime, now: now)
                park(connection, now: now)
            case .http:
                connection.expect(.httpRequest, within: stageTime, now: now)
                park(connection, now: now)
            case .legacy:
                connection.expect(.legacyHello, within: stageTime, now: now)
                park(connection, now: now)
            }
        }
    }

    /// The source address's bytes (IPv4 or IPv6), the key of the per-peer limit.
    private func peerAddress(_ storage: sockaddr_storage) -> [UInt8] {
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: storage) { raw -> [UInt8] in
            if family == AF_INET {
                let offset = MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!
                return Array(raw[offset..<offset + 4])
            }
            if family == AF_INET6 {
                let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
                return Array(raw[offset..<offset + 16])
            }
            return []
        }
    }

    /// Seconds a connection has for each stage of its dialogue.
    var stageTime: Double { min(options.readTimeout, options.connectionTimeout) }

    // MARK: - Working

    private func enqueue(_ connection: Connection) {
        work.withLock { queue in
            let e = connection.endpoint
            if queue.heads[e] > 256 && queue.heads[e] * 2 > queue.byEndpoint[e].count {
                queue.byEndpoint[e].removeFirst(queue.heads[e])
                queue.heads[e] = 0
            }
            queue.byEndpoint[e].append(connection)
            queue.count += 1
        }
        available.signal()
    }

    private func dequeue() -> Connection? {
        work.withLock { queue -> Connection? in
            guard queue.count > 0, !queue.stopping else { return nil }
            let endpoints = queue.byEndpoint.count
            for turn in 0..<endpoints {
                let e = (queue.next + turn) % endpoints
                guard queue.heads[e] < queue.byEndpoint[e].count else { continue }
                let connection = queue.byEndpoint[e][queue.heads[e]]
                queue.heads[e] += 1
                queue.count -= 1
                queue.next = (e + 1) % endpoints
                return connection
            }
            return nil
        }
    }

    private func workerLoop() {
        while true {
            available.wait()
            if stopping.load(ordering: .sequentiallyConsistent) { return }
            guard let connection = dequeue() else { continue }
            let outcome = advance(connection)
            // OpenSSL's error queue is per thread: leave it empty for the next connection.
            ERR_clear_error()
            inbox.withLock { $0.append((connection, outcome)) }
            wake()
        }
    }

    /// Connections the process keeps open at most, whatever the descriptor limit: each may hold
    /// a partial request (16 KiB) and TLS state, so this bounds the lab's memory too.
    static let processConnectionLimit = 8192
}
