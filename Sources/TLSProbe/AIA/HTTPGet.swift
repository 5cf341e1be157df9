import TrustCore
import TrustSupport
import TrustX509

/// The smallest HTTP/1.1 client AIA needs: one GET over plain TCP with `Connection: close`,
/// bounded headers and body, Content-Length, chunked or read-to-close bodies.
enum HTTPGet {
    struct Response {
        var status: Int
        var location: String?
        var body: [UInt8]
    }

    /// Splits `http://host[:port]/path`; anything but http:// is refused.
    static func split(_ url: String) throws(AIAError) -> (Endpoint, String) {
        guard url.lowercased().hasPrefix("http://") else {
            throw AIAError("\(quoted(url)): only http:// URLs are fetched")
        }
        var rest = Substring(url.dropFirst(7))
        var path = "/"
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) {
            path = String(rest[slash...])
            if path.hasPrefix("?") { path = "/" + path }
            rest = rest[..<slash]
        }
        if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
        // Bytes that would split the request line or smuggle a header.
        guard !path.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw AIAError("\(quoted(url)): invalid path")
        }
        do {
            return (try Endpoint.parse(String(rest), defaultPort: 80), path)
        } catch {
            throw AIAError("\(quoted(url)): \(error.message)")
        }
    }

    /// A Location header made absolute against the URL that sent it.
    static func resolve(_ location: String, against base: String) -> String {
        if location.contains("://") { return location }
        guard let (endpoint, _) = try? split(base) else { return location }
        let path = location.hasPrefix("/") ? location : "/" + location
        return
            "http://\(endpoint.port == 80 ? Endpoint(host: endpoint.host, port: 80).hostPart : endpoint.description)\(path)"
    }

    static func get(_ url: String, maximumBody: Int, allowHost: (String) -> Bool, deadline: Deadline) throws(AIAError)
        -> Response
    {
        let (endpoint, path) = try split(url)
        guard allowHost(endpoint.host) else {
            throw AIAError("\(quoted(url)): host \(quoted(endpoint.host)) is not allowed")
        }
        let addresses: [SocketAddress]
        do {
            addresses = try Resolver.resolve(endpoint, deadline: deadline)
        } catch {
            switch error {
            case .notFound(let why): throw AIAError("\(quoted(url)): cannot find host \(quoted(endpoint.host)): \(why)")
            case .timedOut: throw AIAError("\(quoted(url)): timed out looking up \(quoted(endpoint.host))")
            }
        }
        let c: Connection
        do {
            c = try Connection.connect(to: addresses, deadline: deadline)
        } catch {
            switch error {
            case .refused(let a): throw AIAError("\(quoted(url)): \(a) refused the connection")
            case .unreachable(let a, let e):
                throw AIAError("\(quoted(url)): cannot connect to \(a): \(NetFailure.system(e).text)")
            case .timedOut: throw AIAError("\(quoted(url)): timed out connecting")
            }
        }
        let host = endpoint.port == 80 ? endpoint.hostPart : endpoint.description
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: trustx\r\n"
            + "Accept: application/pkix-cert, application/pkcs7-mime, */*\r\nConnection: close\r\n\r\n"
        let stream = BufferedStream(SocketStream(c, deadline: deadline))
        do {
            try stream.send(Array(request.utf8))
            return try HTTPResponseReader.read(from: stream, maximumBody: maximumBody)
        } catch let e as HTTPReplyError {
            throw AIAError("\(quoted(url)): \(e.reason)")
        } catch let e as NetFailure {
            throw AIAError(e == .timedOut ? "\(quoted(url)): timed out" : "\(quoted(url)): \(e.text)")
        } catch {
            throw AIAError("\(quoted(url)): \(error)")
        }
    }

    /// A URL for a message: it comes from a certificate or a server's Location header, so it is
    /// cut to a few hundred bytes.
    static func quoted(_ url: String) -> String { InputExcerpt.quote(url) }
}

/// Why an HTTP reply was refused: malformed framing or a body over the bound.
struct HTTPReplyError: Error, Equatable {
    var reason: String
}

/// Reads one HTTP/1.1 response (RFC 9112) from a stream: the status line, at most 100 header
/// lines of at most 8 KiB, and a body framed by chunks, Content-Length or the end of the stream,
/// never more than `maximumBody` bytes. Every length a server sends is checked against what is
/// left of the bound before it is used (`size <= maximum - count`, never `count + size`), and
/// parsed digit by digit so that no value can overflow: `Content-Length: -1` and a chunk size of
/// `7fffffffffffffff` are malformed or too large, not a trap.
enum HTTPResponseReader {
    static let maximumHeaders = 100
    /// Most chunks in one body: a server cutting a CRL into one-byte chunks makes six bytes of
    /// framing per byte of body.
    static let maximumChunks = 65_536

    static func read(from s: BufferedStream, maximumBody: Int) throws -> HTTPGet.Response {
        let statusLine = try s.readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].utf8.count == 3,
            case .value(let status) = parseLength(parts[1], radix: 10, limit: 999)
        else {
            throw HTTPReplyError(reason: "not an HTTP response: \"\(InputExcerpt.quote(statusLine, limit: 80))\"")
        }
        var length: Int?
        var chunked = false
        var location: String?
        var headerCount = 0
        while true {
            let line = try s.readLine()
            if line.isEmpty { break }
            headerCount += 1
            if headerCount > maximumHeaders {
                throw HTTPReplyError(reason: "more than \(maximumHeaders) response headers")
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            switch name {
            case "content-length":
                switch parseLength(value, radix: 10, limit: maximumBody) {
                case .value(let n):
                    // Two different lengths leave the framing ambiguous (RFC 9112 6.3).
                    if let length, length != n { throw HTTPReplyError(reason: "conflicting Content-Length headers") }
                    length = n
                case .tooLarge:
                    if !chunked { throw tooLarge(maximumBody) }
                case .malformed:
                    throw HTTPReplyError(
                        reason: "malformed Content-Length \"\(InputExcerpt.quote(value, limit: 40))\"")
                }
            case "transfer-encoding": chunked = value.lowercased().contains("chunked")
            case "location": location = value
            default: break
            }
        }
        if (300..<400).contains(status) { return HTTPGet.Response(status: status, location: location, body: []) }
        let body: [UInt8]
        if chunked {
            body = try readChunks(from: s, maximumBody: maximumBody)
        } else if let length {
            body = try s.readExactly(length)
        } else {
            do {
                body = try s.readToEnd(limit: maximumBody)
            } catch .overlong {
                throw tooLarge(maximumBody)
            }
        }
        return HTTPGet.Response(status: status, location: location, body: body)
    }

    static func tooLarge(_ maximumBody: Int) -> HTTPReplyError {
        HTTPReplyError(reason: "the response is larger than \(maximumBody / 1024) KiB")
    }

    /// A chunked body (RFC 9112 7.1): hexadecimal sizes, each checked against what is left.
    static func readChunks(from s: BufferedStream, maximumBody: Int) throws -> [UInt8] {
        var body: [UInt8] = []
        for _ in 0..<maximumChunks {
            let sizeLine = try s.readLine()
            let hex = String(sizeLine.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingWhitespace()
            let size: Int
            switch parseLength(hex, radix: 16, limit: maximumBody - body.count) {
            case .value(let n): size = n
            case .tooLarge: throw tooLarge(maximumBody)
            case .malformed:
                throw HTTPReplyError(
                    reason: "malformed chunk size \"\(InputExcerpt.quote(sizeLine, limit: 40))\"")
            }
            if size == 0 { return body }
            body += try s.readExactly(size)
            guard try s.readLine().isEmpty else { throw HTTPReplyError(reason: "malformed chunked body") }
        }
        throw HTTPReplyError(reason: "more than \(maximumChunks) chunks")
    }

    enum Length: Equatable {
        case value(Int)
        case tooLarge
        case malformed
    }

    /// A length as RFC 9110 and 9112 write it: digits of `radix` only (no sign, no space, not
    /// empty), at most `limit`. The value is built digit by digit and checked before each step,
    /// so however many digits come it never overflows.
    static func parseLength<S: StringProtocol>(_ text: S, radix: Int, limit: Int) -> Length {
        guard !text.isEmpty, limit >= 0 else { return .malformed }
        var value = 0
        var tooLarge = false
        for byte in text.utf8 {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = Int(byte - UInt8(ascii: "A")) + 10
            default: return .malformed
            }
            // Keep reading once too large: a later non-digit still makes the text malformed.
            if tooLarge { continue }
            if value > limit / radix {
                tooLarge = true
                continue
            }
            value *= radix
            if digit > limit - value {
                tooLarge = true
                continue
            }
            value += digit
        }
        return tooLarge ? .tooLarge : .value(value)
    }
}

extension Endpoint {
    /// The host as it appears in a URL or Host header (IPv6 in brackets), without the port.
    var hostPart: String { IPLiteral.isIPv6(host) ? "[\(host)]" : host }
}
