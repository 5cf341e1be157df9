internal import COpenSSL
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connection's dialogue, run by the workers one non-blocking step at a time: the TLS handshake,
/// the HTTPS request and its answer page, SMTP before and after STARTTLS, plain HTTP for AIA
/// downloads, and the closing linger. Each function takes what the client's bytes (or the socket's
/// room) allow and says what it waits for next; the acceptor does the waiting.
extension LabServer {
    /// Runs a connection as far as its client's bytes (or the socket's room) allow, without
    /// waiting; says what it waits for next, or that it is done.
    func advance(_ c: Connection) -> Outcome {
        let now = monotonicSeconds()
        // A bound on stages per turn, so that a client pipelining commands shares the worker.
        for _ in 0..<64 {
            switch c.stage {
            case .sendPlain(let next):
                while c.sent < c.output.count {
                    let n = c.output.withUnsafeBytes { buffer in
                        send(
                            c.fd, buffer.baseAddress! + c.sent, buffer.count - c.sent,
                            Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                    }
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .write }
                    guard n > 0 else { return .finished(served: false) }
                    c.sent += n
                }
                c.output = []
                c.sent = 0
                c.expect(next, within: stageTime, now: now)
            case .smtpCommand:
                switch readPlainLine(c) {
                case .wait: return .read
                case .closed: return .finished(served: false)
                case .tooLong:
                    c.output = Array("500 5.5.2 Line too long\r\n".utf8)
                    c.expect(.sendPlain(then: .done(served: false)), within: stageTime, now: now)
                case .line(let line):
                    c.commands += 1
                    let (reply, next) = smtpBeforeTLS(line, commands: c.commands)
                    c.output = Array(reply.utf8)
                    c.expect(.sendPlain(then: next), within: stageTime, now: now)
                }
            case .handshake:
                guard case .tls(let context, let smtp, _) = handlers[c.endpoint] else {
                    return .finished(served: false)
                }
                guard c.startTLS(context) else { return .finished(served: false) }
                let result = c.tlsAccept()
                guard result == 1 else { return waitOrFail(c, result) }
                c.facts = c.tlsFacts()
                c.expect(smtp ? .smtpOverTLS : .httpsRequest, within: stageTime, now: now)
            case .httpsRequest:
                let before = c.input.count
                var ended = false
                switch readTLS(c, limit: LabServer.requestLimit) {
                case .wait(let outcome): return outcome
                case .failed: return .finished(served: false)
                case .more:
                    ended = LabServer.headerEnds(c.input, from: before) || c.input.count >= LabServer.requestLimit
                case .end: ended = true
                }
                if ended {
                    // Answer whatever arrived (as `openssl s_server -www` does), unless the
                    // header block did not end within the limit.
                    if c.input.count >= LabServer.requestLimit && !LabServer.headerEnds(c.input) {
                        c.output = Array(
                            "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                                .utf8)
                        c.expect(.sendTLS(then: .done(served: false)), within: stageTime, now: now)
                    } else {
                        guard case .tls(_, _, let page) = handlers[c.endpoint] else { return .finished(served: false) }
                        let body = Array((page + "\n" + c.facts).utf8)
                        let head =
                            "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                        c.output = Array(head.utf8) + body
                        c.expect(.sendTLS(then: .done(served: true)), within: stageTime, now: now)
                    }
                }
            case .smtpOverTLS:
                if let line = c.takeLine() {
                    c.commands += 1
                    guard case .tls(_, _, let page) = handlers[c.endpoint] else { return .finished(served: false) }
                    let (reply, next) = smtpOverTLS(line, page: page, commands: c.commands)
                    c.output = Array(reply.utf8)
                    c.expect(.sendTLS(then: next), within: stageTime, now: now)
                    continue
                }
                if c.input.count > LabServer.lineLimit {
                    c.output = Array("500 5.5.2 Line too long\r\n".utf8)
                    c.expect(.sendTLS(then: .done(served: true)), within: stageTime, now: now)
                    continue
                }
                switch readTLS(c, limit: c.input.count + 4096) {
                case .wait(let outcome): return outcome
                // The handshake was the lesson: a client that ends the dialogue early was served.
                case .failed, .end: return .finished(served: true)
                case .more: continue
                }
            case .sendTLS(let next):
                while c.sent < c.output.count {
                    let n = c.tlsWrite()
                    guard n > 0 else { return waitOrFail(c, n) }
                    c.sent += Int(n)
                }
                c.output = []
                c.sent = 0
                c.expect(next, within: stageTime, now: now)
            case .httpRequest:
                guard case .http(let files) = handlers[c.endpoint] else { return .finished(served: false) }
                switch readPlain(c, limit: LabServer.requestLimit) {
                case .wait: return .read
                case .closed where c.input.isEmpty: return .finished(served: false)
                case .more: continue
                case .closed, .end:
                    let (answer, served) = LabServer.answerHTTP(c.input, files: files)
                    c.output = answer
                    c.expect(.sendPlain(then: .done(served: served)), within: stageTime, now: now)
                }
            case .legacyHello:
                guard case .legacy(let server, let chain) = handlers[c.endpoint] else {
                    return .finished(served: false)
                }
                switch readPlain(c, limit: LabLegacyServer.helloLimit, untilHeaderEnds: false) {
                case .wait: return .read
                case .closed: return .finished(served: false)
                case .more, .end: break
                }
                switch LabClientHello.parse(c.input) {
                case .incomplete where c.input.count < LabLegacyServer.helloLimit: continue
                case .incomplete, .notAClientHello: return .finished(served: false)
                case .hello(let hello):
                    c.output = server.answer(to: hello, chain: chain, random: LabServer.randomBytes)
                    // The answer refuses the client (or is one it cannot take): a failed handshake.
                    c.expect(.sendPlain(then: .done(served: false)), within: stageTime, now: now)
                }
            case .done(let served):
                c.tlsShutdown()
                // Closing with unread input would send a reset, which can destroy the answer
                // before the client reads it: end our side, and read theirs away for a moment.
                // Counted before the client can see our end, so a client that has read its
                // answer to the end finds it in the statistics.
                if served {
                    servedCount.add(1, ordering: .relaxed)
                } else {
                    failedCount.add(1, ordering: .relaxed)
                }
                c.counted = true
                shutdown(c.fd, Int32(SHUT_WR))
                c.expect(.linger, within: min(stageTime, LabServer.lingerTime), now: now)
            case .linger:
                var buffer = [UInt8](repeating: 0, count: 4096)
                while c.drained < LabServer.lingerLimit {
                    let n = buffer.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .read }
                    guard n > 0 else { break }
                    c.drained += n
                }
                return .finished(served: true)
            }
        }
        return .again
    }

    /// What a TLS read or handshake call that did not succeed means: wait, or give up.
    private func waitOrFail(_ c: Connection, _ result: Int32) -> Outcome {
        switch c.tlsError(result) {
        case SSL_ERROR_WANT_READ: .read
        case SSL_ERROR_WANT_WRITE: .write
        default: .finished(served: false)
        }
    }

    /// Seconds a closing connection reads away what its client still sends.
    static let lingerTime = 1.0
    /// Bytes a closing connection reads away at most (past them a reset is the client's doing).
    static let lingerLimit = 65_536

    /// The most the lab reads of an HTTP request (request line and headers; it reads no body).
    static let requestLimit = 16_384
    /// The longest SMTP command line accepted (RFC 5321 asks for 512 octets at least).
    static let lineLimit = 1000

    private enum TLSRead {
        case wait(Outcome)
        case more, end, failed
    }

    /// One SSL_read of at most `limit - input.count` bytes into `c.input`; `.end` when the limit
    /// is reached or the client closed.
    private func readTLS(_ c: Connection, limit: Int) -> TLSRead {
        let room = limit - c.input.count
        guard room > 0 else { return .end }
        var buffer = [UInt8](repeating: 0, count: min(room, 4096))
        let n = c.tlsRead(into: &buffer)
        guard n > 0 else {
            switch c.tlsError(n) {
            case SSL_ERROR_WANT_READ: return .wait(.read)
            case SSL_ERROR_WANT_WRITE: return .wait(.write)
            case SSL_ERROR_ZERO_RETURN: return .end
            default: return .failed
            }
        }
        c.input += buffer[0..<Int(n)]
        return .more
    }

    private enum PlainRead { case wait, more, end, closed }

    /// One recv of at most `limit - input.count` bytes into `c.input`; `.end` once the limit is
    /// reached or (when `untilHeaderEnds`) an HTTP header block ended.
    private func readPlain(_ c: Connection, limit: Int, untilHeaderEnds: Bool = true) -> PlainRead {
        let room = limit - c.input.count
        guard room > 0 else { return .end }
        var buffer = [UInt8](repeating: 0, count: min(room, 4096))
        let n = buffer.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wait : .closed }
        if n == 0 { return .closed }
        let before = c.input.count
        c.input += buffer[0..<n]
        if c.input.count >= limit { return .end }
        return untilHeaderEnds && LabServer.headerEnds(c.input, from: before) ? .end : .more
    }

    /// `count` random bytes (OpenSSL's generator) for a legacy ServerHello's random and ids.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        // RAND_bytes failing is near impossible; zeros still make a well-formed answer.
        _ = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        return bytes
    }

    private enum LineRead {
        case wait, closed, tooLong
        case line(String)
    }

    /// One SMTP command line from the plain socket. It looks before it takes, and takes no byte
    /// past the line's end: after STARTTLS the client's next bytes are its ClientHello, OpenSSL's.
    private func readPlainLine(_ c: Connection) -> LineRead {
        while true {
            let room = LabServer.lineLimit + 1 - c.input.count
            guard room > 0 else { return .tooLong }
            var buffer = [UInt8](repeating: 0, count: room)
            let n = buffer.withUnsafeMutableBytes {
                recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT))
            }
            if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wait : .closed }
            if n == 0 { return .closed }
            let end = buffer[0..<n].firstIndex(of: 0x0A)
            let take = end.map { $0 + 1 } ?? n
            let taken = buffer.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, take, Int32(MSG_DONTWAIT)) }
            guard taken == take else { return .closed }
            c.input += buffer[0..<take]
            if end != nil, let line = c.takeLine() { return .line(line) }
        }
    }

    /// Whether an HTTP header block has ended in `bytes` (looking from `from` on, less the
    /// three bytes an end could straddle).
    static func headerEnds(_ bytes: [UInt8], from: Int = 0) -> Bool {
        let seen = bytes[max(0, from - 3)...]
        return seen.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]) != nil || seen.firstRange(of: [0x0A, 0x0A]) != nil
    }

    /// The plain part of RFC 3207 (banner sent, EHLO with STARTTLS, STARTTLS -> 220): the reply to
    /// one command and what follows it.
    private func smtpBeforeTLS(_ line: String, commands: Int) -> (String, Stage) {
        let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? ""
        switch verb {
        case "STARTTLS": return ("220 2.0.0 Ready to start TLS\r\n", .handshake)
        case "QUIT": return ("221 2.0.0 Bye\r\n", .done(served: false))
        default: break
        }
        // A bound on commands before STARTTLS: a client looping on NOOP is let go.
        guard commands < LabServer.commandLimit else {
            return ("421 4.7.0 Too many commands\r\n", .done(served: false))
        }
        switch verb {
        case "EHLO": return ("250-trustx-lab\r\n250-8BITMIME\r\n250 STARTTLS\r\n", .smtpCommand)
        case "HELO": return ("250 trustx-lab\r\n", .smtpCommand)
        case "NOOP", "RSET": return ("250 2.0.0 OK\r\n", .smtpCommand)
        default: return ("530 5.7.0 Must issue a STARTTLS command first\r\n", .smtpCommand)
        }
    }

    /// After STARTTLS: EHLO answered with the lesson, QUIT ends; nothing is ever delivered.
    private func smtpOverTLS(_ line: String, page: String, commands: Int) -> (String, Stage) {
        let firstLine = page.split(separator: "\n").first.map(String.init) ?? "trustx lab"
        let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? ""
        switch verb {
        case "QUIT": return ("221 2.0.0 Bye\r\n", .done(served: true))
        default: break
        }
        guard commands < 2 * LabServer.commandLimit else {
            return ("421 4.7.0 Too many commands\r\n", .done(served: true))
        }
        switch verb {
        case "EHLO", "HELO": return ("250-trustx-lab\r\n250 \(firstLine)\r\n", .smtpOverTLS)
        default: return ("502 5.5.1 trustx lab only demonstrates STARTTLS\r\n", .smtpOverTLS)
        }
    }

    /// Commands an SMTP client may send before STARTTLS (and twice as many in all).
    static let commandLimit = 20

    /// The answer to a plain HTTP request for one of `files`, and whether it served one.
    static func answerHTTP(_ request: [UInt8], files: [String: LabHTTPFile]) -> ([UInt8], Bool) {
        let close = "Content-Length: 0\r\nConnection: close\r\n\r\n"
        guard request.count < requestLimit || headerEnds(request) else {
            return (Array("HTTP/1.1 431 Request Header Fields Too Large\r\n\(close)".utf8), false)
        }
        let firstLine = request.split(separator: 0x0A).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let parts = firstLine.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" || parts[0] == "HEAD" else {
            return (Array("HTTP/1.1 405 Method Not Allowed\r\n\(close)".utf8), false)
        }
        guard let file = files[String(parts[1])] else {
            return (Array("HTTP/1.1 404 Not Found\r\n\(close)".utf8), false)
        }
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: \(file.contentType)\r\nContent-Length: \(file.body.count)\r\nConnection: close\r\n\r\n"
        return (Array(head.utf8) + (parts[0] == "HEAD" ? [] : file.body), true)
    }
}
