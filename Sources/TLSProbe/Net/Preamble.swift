import TrustCore
import TrustSupport
import TrustX509

/// Plaintext exchanges before the ClientHello: the proxy's CONNECT and the STARTTLS upgrades.
/// Each reads bounded lines under the probe's deadline and fails with a sentence.
enum Preamble {
    static func failure(_ kind: ProbeError.Kind, _ what: String, _ e: NetFailure, deadline: Deadline) -> ProbeError {
        switch e {
        case .timedOut: ProbeError(.timedOut, "timed out after \(deadline.totalSecondsText) \(what)")
        case .closed: ProbeError(kind, "the server closed the connection \(what)")
        case .system, .overlong: ProbeError(kind, "\(e.text) \(what)")
        }
    }

    // MARK: HTTP CONNECT

    /// Opens a tunnel to `target` through an HTTP proxy (RFC 9110 9.3.6).
    static func connectTunnel(_ c: BufferedStream, to target: Endpoint, proxy: ProxyAddress, deadline: Deadline)
        throws(ProbeError)
    {
        let authority = target.description
        var request = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: trustx\r\n"
        if let credentials = proxy.credentials {
            request += "Proxy-Authorization: Basic \(Base64.encode(Array(credentials.utf8)))\r\n"
        }
        request += "\r\n"
        let what = "while the proxy \(proxy) opened a tunnel to \(authority)"
        do {
            try c.send(Array(request.utf8))
            let status = try c.readLine()
            // Headers are read and dropped: nothing in them changes what happens next.
            var headers = 0
            while try !c.readLine().isEmpty {
                headers += 1
                if headers > 100 { throw NetFailure.overlong }
            }
            let parts = status.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
                throw ProbeError(
                    .proxyFailed, "the proxy \(proxy) did not answer CONNECT in HTTP: \"\(printable(status))\"")
            }
            guard (200..<300).contains(code) else {
                let reason = parts.count > 2 ? " \(printable(String(parts[2])))" : ""
                throw ProbeError(
                    .proxyFailed, "the proxy \(proxy) refused the tunnel to \(authority): \(code)\(reason)")
            }
        } catch let e as NetFailure {
            throw failure(.proxyFailed, what, e, deadline: deadline)
        } catch let e as ProbeError {
            throw e
        } catch {
            throw ProbeError(.proxyFailed, "\(error) \(what)")
        }
    }

    // MARK: STARTTLS

    /// Speaks `proto` up to the point where the server expects a ClientHello.
    static func startTLS(_ proto: StartTLSProtocol, on c: BufferedStream, deadline: Deadline) throws(ProbeError) {
        let what = "while waiting for \(proto.awaitedExchange)"
        do {
            switch proto {
            case .smtp: try smtp(c)
            case .imap: try imap(c)
            case .pop3: try pop3(c)
            case .ftp: try ftp(c)
            case .postgres: try postgres(c)
            }
        } catch let e as NetFailure {
            throw failure(.startTLSFailed, what, e, deadline: deadline)
        } catch let e as ProbeError {
            throw e
        } catch {
            throw ProbeError(.startTLSFailed, "\(error) \(what)")
        }
    }

    static func refuse(_ proto: StartTLSProtocol, _ why: String, _ line: String) -> ProbeError {
        ProbeError(.startTLSFailed, "\(proto.rawValue.uppercased()) server \(why): \"\(printable(line))\"")
    }

    /// Reads an SMTP/FTP reply, following `250-` continuation lines; returns the code and lines.
    static func reply(_ c: BufferedStream) throws -> (Int, [String]) {
        var lines: [String] = []
        while true {
            let line = try c.readLine()
            lines.append(line)
            if lines.count > 200 { throw NetFailure.overlong }
            let bytes = Array(line.utf8)
            guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)) else {
                return (0, lines)
            }
            // "250-..." continues a multi-line reply; "250 ..." or "250" ends it.
            if bytes.count == 3 || bytes[3] != UInt8(ascii: "-") { return (code, lines) }
        }
    }

    static func smtp(_ c: BufferedStream) throws {
        let (greet, greeting) = try reply(c)
        guard greet == 220 else { throw refuse(.smtp, "did not greet with 220", greeting.last ?? "") }
        try c.send(Array("EHLO trustx.invalid\r\n".utf8))
        let (ehlo, lines) = try reply(c)
        guard ehlo == 250 else { throw refuse(.smtp, "refused EHLO", lines.last ?? "") }
        guard lines.contains(where: { $0.dropFirst(4).uppercased().hasPrefix("STARTTLS") }) else {
            throw ProbeError(.startTLSFailed, "SMTP server does not offer STARTTLS in its EHLO reply")
        }
        try c.send(Array("STARTTLS\r\n".utf8))
        let (go, last) = try reply(c)
        guard go == 220 else { throw refuse(.smtp, "refused STARTTLS", last.last ?? "") }
    }

    static func imap(_ c: BufferedStream) throws {
        let greeting = try c.readLine()
        guard greeting.uppercased().hasPrefix("* OK") else { throw refuse(.imap, "did not greet with * OK", greeting) }
        try c.send(Array("T1 STARTTLS\r\n".utf8))
        // Untagged lines may come first; the tagged one answers the command.
        for _ in 0..<100 {
            let line = try c.readLine()
            if line.hasPrefix("T1 ") {
                guard line.uppercased().hasPrefix("T1 OK") else { throw refuse(.imap, "refused STARTTLS", line) }
                return
            }
        }
        throw NetFailure.overlong
    }

    static func pop3(_ c: BufferedStream) throws {
        let greeting = try c.readLine()
        guard greeting.hasPrefix("+OK") else { throw refuse(.pop3, "did not greet with +OK", greeting) }
        try c.send(Array("STLS\r\n".utf8))
        let line = try c.readLine()
        guard line.hasPrefix("+OK") else { throw refuse(.pop3, "refused STLS", line) }
    }

    static func ftp(_ c: BufferedStream) throws {
        let (greet, greeting) = try reply(c)
        guard greet == 220 else { throw refuse(.ftp, "did not greet with 220", greeting.last ?? "") }
        try c.send(Array("AUTH TLS\r\n".utf8))
        let (code, lines) = try reply(c)
        guard code == 234 else { throw refuse(.ftp, "refused AUTH TLS", lines.last ?? "") }
    }

    /// PostgreSQL's SSLRequest: length 8, code 80877103; the answer is one byte, `S` or `N`.
    static func postgres(_ c: BufferedStream) throws {
        try c.send([0, 0, 0, 8, 0x04, 0xD2, 0x16, 0x2F])
        let answer = try c.readExactly(1)[0]
        switch answer {
        case UInt8(ascii: "S"): return
        case UInt8(ascii: "N"): throw ProbeError(.startTLSFailed, "PostgreSQL server does not accept SSL (answered N)")
        default:
            throw ProbeError(
                .startTLSFailed, "PostgreSQL server answered the SSLRequest with byte 0x\(hexString([answer]))")
        }
    }

    /// A line from a peer made safe to quote: control bytes dropped, at most 80 bytes kept, and
    /// what could still steer a terminal (C1 controls, bidi overrides) escaped.
    static func printable(_ s: String) -> String {
        let cleaned = String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        return TerminalSanitizer.sanitize(InputExcerpt.quote(cleaned, limit: 80))
    }
}
