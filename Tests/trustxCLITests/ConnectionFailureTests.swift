import Foundation
import SuiteFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Connection failures through the command line: one line for a person, exit 69, and in JSON a
/// `connection.error` with the URLError URLSession would give (docs/connecting.md's error table).
@Suite(.serialized, .onTestThreads) final class ConnectionFailureTests {
    func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    func error(_ r: RunResult) throws -> (kind: String, urlError: Int?, verdictURLError: Int?) {
        let json = try r.json()
        let connection = try #require(json["connection"] as? [String: Any])
        let error = try #require(connection["error"] as? [String: Any], "\(r.out)")
        let verdict = try #require(json["verdict"] as? [String: Any])
        #expect((verdict["trusted"] as? Bool) == false)
        #expect(verdict["osstatus"] is NSNull)
        #expect(((json["presented"] as? [Any])?.count) == 0)
        return (try #require(error["kind"] as? String), error["urlError"] as? Int, verdict["urlError"] as? Int)
    }

    @Test func testARefusedConnectionIsCannotConnectToHost() throws {
        let port = freePort()
        let r = try CLI.run(["check", "127.0.0.1:\(port)", "--format", "json"])
        #expect(r.status == 69)
        let e = try error(r)
        #expect(e.kind == "connection-refused")
        #expect(e.urlError == -1004)
        #expect(e.verdictURLError == -1004)
    }

    @Test func testPlainHTTPOnTheTLSPortIsSecureConnectionFailed() throws {
        // A web server on a port where TLS was expected: it answers anything with a 400.
        let server = try LoopbackListener { c in
            // Room for iOS 26's 1,514-byte hello too: a close with unread bytes would be a reset.
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(c, &buffer, buffer.count)
            let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)
            _ = write(c, reply, reply.count)
            close(c)
        }
        defer { server.stop() }
        let r = try CLI.run(["check", "127.0.0.1:\(server.port)", "--format", "json", "--timeout", "5"])
        #expect(r.status == 69)
        let e = try error(r)
        #expect(e.kind == "not-tls")
        #expect(e.urlError == -1200)
        let text = try CLI.run(["check", "127.0.0.1:\(server.port)", "--timeout", "5"])
        #expect(text.status == 69)
        #expect(text.out == "")
        // The reason, then what iOS 26's hello met: the same 400 (not a TLS record) answers it.
        let lines = text.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(text.err)")
        #expect(lines[0].hasPrefix("Error: "), "\(text.err)")
        #expect(lines[0].hasSuffix("; URLSession reports NSURLErrorSecureConnectionFailed (-1200)"), "\(text.err)")
        #expect(lines.count > 1 && lines[1].hasPrefix("apple hello: iOS 26's "), "\(text.err)")
        #expect(lines.count > 1 && lines[1].contains("not TLS"), "\(text.err)")
        let without = try CLI.run(["check", "127.0.0.1:\(server.port)", "--timeout", "5", "--no-apple-hello"])
        #expect(!without.err.contains("apple hello"), "\(without.err)")
        #expect(without.err.hasPrefix("Error: "), "\(without.err)")
    }

    @Test func testConnectionOptionsAreRefusedWithChainFiles() throws {
        let r = try CLI.run(["check", "--chain", "leaf.pem", "--sni", "example.test"])
        #expect(r.status == 64)
        #expect(r.err.hasPrefix("Error: --sni applies to a server target, not to --chain files\n"), "\(r.err)")
    }
}
