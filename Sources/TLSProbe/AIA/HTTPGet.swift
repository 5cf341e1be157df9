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
        guard url.lowercased().hasPrefix("http://") else { throw AIAError("\(url): only http:// URLs are fetched") }
        var rest = Substring(url.dropFirst(7))
        var path = "/"
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) {
            path = String(rest[slash...])
            if path.hasPrefix("?") { path = "/" + path }
            rest = rest[..<slash]
        }
        if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
        // Bytes that would split the request line or smuggle a header.
        guard !path.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { throw AIAError("\(url): invalid path") }
        do {
            return (try Endpoint.parse(String(rest), defaultPort: 80), path)
        } catch {
            throw AIAError("\(url): \(error.message)")
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
        guard allowHost(endpoint.host) else { throw AIAError("\(url): host \(endpoint.host) is not allowed") }
        let addresses: [SocketAddress]
        do {
            addresses = try Resolver.resolve(endpoint, deadline: deadline)
        } catch {
            switch error {
            case .notFound(let why): throw AIAError("\(url): cannot find host \(endpoint.host): \(why)")
            case .timedOut: throw AIAError("\(url): timed out looking up \(endpoint.host)")
            }
        }
        let c: Connection
        do {
            c = try Connection.connect(to: addresses, deadline: deadline)
        } catch {
            switch error {
            case .refused(let a): throw AIAError("\(url): \(a) refused the connection")
            case .unreachable(let a, let e):
                throw AIAError("\(url): cannot connect to \(a): \(NetFailure.system(e).text)")
            case .timedOut: throw AIAError("\(url): timed out connecting")
            }
        }
        let host = endpoint.port == 80 ? endpoint.hostPart : endpoint.description
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: trustx\r\n"
            + "Accept: application/pkix-cert, application/pkcs7-mime, */*\r\nConnection: close\r\n\r\n"
        do {
            try c.send(Array(request.utf8), deadline: deadline)
            let statusLine = try c.readLine(deadline: deadline)
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                throw AIAError("\(url): not an HTTP response")
            }
            var length: Int?
            var chunked = false
            var location: String?
            var headerCount = 0
            while true {
                let line = try c.readLine(deadline: deadline)
                if line.isEmpty { break }
                headerCount += 1
                if headerCount > 100 { throw AIAError("\(url): too many response headers") }
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
                switch name {
                case "content-length": length = Int(value)
                case "transfer-encoding": chunked = value.lowercased().contains("chunked")
                case "location": location = value
                default: break
                }
            }
            if (300..<400).contains(status) { return Response(status: status, location: location, body: []) }
            let tooBig = AIAError("\(url): the response is larger than \(maximumBody / 1024) KiB")
            var body: [UInt8] = []
            if chunked {
                while true {
                    let sizeLine = try c.readLine(deadline: deadline)
                    let hex = sizeLine.split(separator: ";").first.map(String.init)?.trimmingWhitespace() ?? ""
                    guard let size = Int(hex, radix: 16), size >= 0 else {
                        throw AIAError("\(url): malformed chunked body")
                    }
                    if size == 0 { break }
                    guard body.count + size <= maximumBody else { throw tooBig }
                    body += try c.readExactly(size, deadline: deadline)
                    _ = try c.readLine(deadline: deadline)
                }
            } else if let length {
                guard length <= maximumBody else { throw tooBig }
                body = try c.readExactly(length, deadline: deadline)
            } else {
                body = c.takeBuffer()
                while true {
                    do {
                        body += try c.receive(deadline: deadline)
                    } catch NetFailure.closed {
                        break
                    }
                    guard body.count <= maximumBody else { throw tooBig }
                }
            }
            guard body.count <= maximumBody else { throw tooBig }
            return Response(status: status, location: location, body: body)
        } catch let e as AIAError {
            throw e
        } catch let e as NetFailure {
            throw AIAError(e == .timedOut ? "\(url): timed out" : "\(url): \(e.text)")
        } catch {
            throw AIAError("\(url): \(error)")
        }
    }
}

extension Endpoint {
    /// The host as it appears in a URL or Host header (IPv6 in brackets), without the port.
    var hostPart: String { IPLiteral.isIPv6(host) ? "[\(host)]" : host }
}
