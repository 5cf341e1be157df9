import AppleHello
import TrustCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends iOS 26's ClientHello on a TCP connection of its own, beside the real handshake, and
/// reads what comes back within a time and byte budget (docs/connecting.md, "The second hello").
/// It never continues the handshake: a ServerHello is reported as the server's choice, not as a
/// post-quantum handshake that completed.
public enum AppleHelloProbe {
    /// The longest wait for an answer: a server answers a ClientHello in one round trip, and a
    /// middlebox that drops it stays silent however long one waits (iOS itself waits far longer).
    public static let silenceLimit: Duration = .seconds(3)

    /// Connects as the real handshake did (proxy, STARTTLS), sends the hello, reads the answer.
    /// - Parameters:
    ///   - target: The server.
    ///   - options: How the real handshake connected (proxy, STARTTLS, ALPN).
    ///   - deadline: The run's deadline: the exchange takes at most half of what is left of it
    ///     and `silenceLimit`, so that evaluating the chain keeps its time.
    ///   - silence: The wait for an answer, when shorter than `silenceLimit` (tests).
    /// - Returns: What happened, never throwing: a failure to connect is `notSent`.
    public static func run(
        _ target: ProbeTarget, options: ProbeOptions, deadline: EvaluationDeadline, silence: Duration = silenceLimit
    ) -> AppleHelloReport {
        _ = ignoreSIGPIPE
        let alpn = options.effectiveALPN
        let hello = AppleClientHello(serverName: target.serverName, alpn: alpn)
        let left = deadline.instant - ContinuousClock.now
        let allowance = min(silence, left / 2)
        guard allowance >= .milliseconds(50) else {
            return AppleHelloReport(
                outcome: .notSent, helloBytes: hello.record.count, reason: "the run's deadline left no time for it")
        }
        let budget = Deadline(after: allowance)
        let opened: (Connection, [UInt8])
        switch open(target, options: options, deadline: budget) {
        case .success(let o): opened = o
        case .failure(let why):
            return AppleHelloReport(
                outcome: .notSent, helloBytes: hello.record.count, reason: "a second connection failed: \(why.message)")
        }
        let connection = opened.0
        var watch = Stopwatch()
        var received = opened.1
        let outcome = exchange(hello.record, on: connection, received: &received, deadline: budget)
        let ms = watch.lap()
        switch outcome {
        case .answer(let answer):
            return AppleHelloReport(
                answer: answer, helloBytes: hello.record.count, bytesReceived: received.count, milliseconds: ms)
        case .ended(let how):
            return AppleHelloReport(
                outcome: how, helloBytes: hello.record.count, bytesReceived: received.count, milliseconds: ms)
        }
    }

    /// A connection as the real handshake's: through the proxy, past the STARTTLS preamble, with
    /// any bytes read past the preamble.
    static func open(_ target: ProbeTarget, options: ProbeOptions, deadline: Deadline)
        -> Result<(Connection, [UInt8]), ProbeError>
    {
        do throws(ProbeError) {
            let proxy = try options.resolvedProxy(for: target.host)
            let dial = proxy?.endpoint ?? target.dialEndpoint
            let addresses: [SocketAddress]
            do {
                addresses = try Resolver.resolve(dial, deadline: deadline)
            } catch {
                throw ProbeError(.unknownHost, "cannot resolve \(dial.host)")
            }
            let connection: Connection
            do {
                connection = try Connection.connect(to: addresses, deadline: deadline)
            } catch {
                switch error {
                case .refused(let a): throw ProbeError(.connectionRefused, "\(a) refused the connection")
                case .unreachable(let a, let e): throw ProbeError(.cannotConnect, "\(a): \(NetFailure.system(e).text)")
                case .timedOut: throw ProbeError(.timedOut, "timed out connecting to \(dial)")
                }
            }
            let stream = BufferedStream(SocketStream(connection, deadline: deadline))
            if let proxy {
                try Preamble.connectTunnel(stream, to: target.dialEndpoint, proxy: proxy, deadline: deadline)
            }
            if let proto = options.startTLS { try Preamble.startTLS(proto, on: stream, deadline: deadline) }
            return .success((connection, stream.takeBuffer()))
        } catch {
            return .failure(error)
        }
    }

    enum Exchange {
        case answer(ServerAnswer)
        case ended(AppleHelloReport.Outcome)
    }

    /// Sends `record` and reads until the answer is decided, the peer ends the connection, the
    /// byte budget is spent or the deadline passes.
    static func exchange(_ record: [UInt8], on c: Connection, received: inout [UInt8], deadline: Deadline)
        -> Exchange
    {
        do {
            try c.send(record, deadline: deadline)
        } catch {
            // EPIPE or ECONNRESET while sending: the peer reset the connection mid-hello.
            return .ended(error == .timedOut ? .timedOut : .reset)
        }
        let budget = ServerAnswerReader.byteBudget
        // Each pass reads at least one byte or ends: bounded by the byte budget.
        while true {
            if let answer = ServerAnswerReader.answer(in: received, budget: budget) { return .answer(answer) }
            // A server trickling bytes must not outlast the deadline either.
            if deadline.isExpired { return .ended(.timedOut) }
            var chunk = [UInt8](repeating: 0, count: max(1, min(4096, budget - received.count)))
            let n = chunk.withUnsafeMutableBytes { raw in recv(c.fd, raw.baseAddress!, raw.count, 0) }
            if n > 0 {
                received += chunk[0..<n]
                continue
            }
            if n == 0 { return .ended(.closed) }
            let e = errno
            if e == EINTR { continue }
            if e == ECONNRESET { return .ended(.reset) }
            guard e == EAGAIN || e == EWOULDBLOCK else { return .ended(.reset) }
            do {
                try c.wait(for: Int16(POLLIN), deadline: deadline)
            } catch {
                return .ended(.timedOut)
            }
        }
    }
}
