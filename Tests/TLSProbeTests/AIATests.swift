import Foundation
import SuiteFixtures
import Synchronization
import Testing
import TrustCore
import TrustX509

@testable import TLSProbe

#if canImport(Glibc)
    import Glibc
#endif

/// Missing intermediates fetched from AIA caIssuers URLs served by an in-process HTTP server on
/// loopback. The fetcher is restricted to loopback hosts here, so no test can reach further.
@Suite(.serialized, .onTestThreads) final class AIATests {
    struct Reply: Sendable {
        var status = 200
        var headers: [String] = []
        var body: [UInt8] = []
        var chunked = false
        var stall = false
    }

    /// Routes the server answers; set after start when a certificate must name the port.
    final class Routes: Sendable {
        let table = Mutex<[String: Reply]>([:])
        func set(_ routes: [String: Reply]) { table.withLock { $0 = routes } }
        subscript(path: String) -> Reply? { table.withLock { $0[path] } }
    }

    var pki: TestPKI!
    var http: TCPServer!
    let routes = Routes()
    var servers: [OpenSSLServer] = []
    let loopbackOnly: @Sendable (String) -> Bool = { $0 == "127.0.0.1" || $0 == "::1" || $0 == "localhost" }

    init() throws { pki = try TestPKI.get() }
    deinit {
        http?.stop()
        servers = []
    }

    func startHTTP(_ table: [String: Reply]) -> UInt16 {
        routes.set(table)
        let routes = self.routes
        http = TCPServer { fd in
            guard let line = Wire.readRequestHead(fd) else { return }
            let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let reply = routes[path] ?? Reply(status: 404)
            if reply.stall {
                sleep(4)
                return
            }
            var head =
                "HTTP/1.1 \(reply.status) X\r\nConnection: close\r\n" + reply.headers.map { $0 + "\r\n" }.joined()
            if reply.chunked {
                head += "Transfer-Encoding: chunked\r\n\r\n"
                var body: [UInt8] = []
                var i = 0
                while i < reply.body.count {
                    let chunk = reply.body[i..<min(i + 100, reply.body.count)]
                    body += Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8)
                    i += 100
                }
                _ = Wire.send(fd, Array(head.utf8) + body + Array("0\r\n\r\n".utf8))
            } else {
                head += "Content-Length: \(reply.body.count)\r\n\r\n"
                _ = Wire.send(fd, Array(head.utf8) + reply.body)
            }
        }
        return http.port
    }

    func fetcher(maximumFetches: Int = 4) -> AIAFetcher {
        AIAFetcher(maximumFetches: maximumFetches, allowHost: loopbackOnly)
    }

    @Test func testHandshakeThenFetchTheMissingIntermediate() throws {
        let intDER = try pki.der("int")
        let port = startHTTP(["/int.der": Reply(headers: ["Content-Type: application/pkix-cert"], body: intDER)])
        try pki.issue(
            "aialeaf", subject: "/CN=127.0.0.1", by: "int",
            ext: TestPKI.serverExt(aia: "http://127.0.0.1:\(port)/int.der"))
        let server = try OpenSSLServer(["-cert", "aialeaf.pem", "-key", "aialeaf.key"], cwd: pki.dir)
        servers.append(server)

        let h = try Probe.handshake(
            with: ProbeTarget(host: "127.0.0.1", port: server.tcpPort), options: ProbeOptions(timeout: .seconds(5)))
        #expect(h.presentedChain.count == 1, "the server leaves out its intermediate")
        let presented = try h.presentedChain.map { try Certificate(der: $0) }
        #expect((AIAFetcher.caIssuersURLs(of: presented[0])) == (["http://127.0.0.1:\(port)/int.der"]))

        let result = fetcher().completeChain(
            presented: presented, anchors: [try pki.certificate("root")], timeout: .seconds(3))
        #expect(result.fetched.map(\.der) == [intDER])
        #expect(result.attempts.count == 1)
        #expect(result.attempts.first?.outcome == .fetched(1))
        #expect(result.attempts.first?.subject == (presented[0].subject.description))

        // With the intermediate presented nothing is fetched.
        let complete = fetcher().completeChain(
            presented: presented + [try pki.certificate("int")], anchors: [try pki.certificate("root")])
        #expect(complete.attempts.isEmpty)
        #expect(complete.fetched.isEmpty)
    }

    @Test func testResponseFormatsAndChunkedBodies() throws {
        let intDER = try pki.der("int")
        try pki.sh(["openssl", "crl2pkcs7", "-nocrl", "-certfile", "int.pem", "-outform", "DER", "-out", "int.p7c"])
        let p7c = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pki.path("int.p7c"))))
        let pem = Array(try String(contentsOfFile: pki.path("int.pem"), encoding: .utf8).utf8)
        let port = startHTTP([
            "/int.der": Reply(body: intDER), "/int.pem": Reply(body: pem), "/int.p7c": Reply(body: p7c),
            "/chunked.der": Reply(body: intDER, chunked: true),
        ])
        for path in ["/int.der", "/int.pem", "/int.p7c", "/chunked.der"] {
            let certs = try fetcher().fetch("http://127.0.0.1:\(port)\(path)", timeout: .seconds(2)).get()
            #expect(certs.map(\.der) == [intDER], "\(path)")
        }
    }

    @Test func testRedirectsAreBounded() throws {
        let intDER = try pki.der("int")
        let port = startHTTP([
            "/r1": Reply(status: 302, headers: ["Location: /r2"]),
            "/r2": Reply(status: 301, headers: ["Location: /r3"]),
            "/r3": Reply(status: 307, headers: ["Location: /int.der"]),
            "/int.der": Reply(body: intDER),
            "/loop": Reply(status: 302, headers: ["Location: /loop"]),
            "/away": Reply(status: 302, headers: ["Location: http://192.0.2.1/int.der"]),
            "/tls": Reply(status: 302, headers: ["Location: https://127.0.0.1/int.der"]),
        ])
        #expect(
            (try fetcher().fetch("http://127.0.0.1:\(port)/r1").get().map(\.der)) == [intDER],
            "3 redirects are followed")
        if let thrown = #expect(
            throws: (any Error).self, performing: { try fetcher().fetch("http://127.0.0.1:\(port)/loop").get() })
        {
            #expect((thrown as! AIAError).message.contains("more than 3 redirects"), "\(thrown)")
        }
        if let thrown = #expect(
            throws: (any Error).self, performing: { try fetcher().fetch("http://127.0.0.1:\(port)/away").get() })
        {
            #expect((thrown as! AIAError).message.contains("not allowed"), "\(thrown)")
        }
        if let thrown = #expect(
            throws: (any Error).self, performing: { try fetcher().fetch("http://127.0.0.1:\(port)/tls").get() })
        {
            #expect((thrown as! AIAError).message.contains("only http://"), "\(thrown)")
        }
    }

    @Test func testSizeAndTimeBounds() throws {
        let port = startHTTP([
            "/big": Reply(body: [UInt8](repeating: 0x30, count: 100 * 1024)),
            "/bigchunked": Reply(body: [UInt8](repeating: 0x30, count: 100 * 1024), chunked: true),
            "/stall": Reply(stall: true),
            "/notcert": Reply(body: Array("hello".utf8)),
            "/missing": Reply(status: 404),
        ])
        for path in ["/big", "/bigchunked"] {
            if let thrown = #expect(
                throws: (any Error).self, performing: { try fetcher().fetch("http://127.0.0.1:\(port)\(path)").get() })
            {
                #expect((thrown as! AIAError).message.contains("larger than 64 KiB"), "\(thrown)")
            }
        }
        let start = Date()
        if let thrown = #expect(
            throws: (any Error).self,
            performing: { try fetcher().fetch("http://127.0.0.1:\(port)/stall", timeout: .milliseconds(300)).get() })
        {
            #expect((thrown as! AIAError).message.contains("timed out"), "\(thrown)")
        }
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(throws: (any Error).self, performing: { try fetcher().fetch("http://127.0.0.1:\(port)/notcert").get() })
        if let thrown = #expect(
            throws: (any Error).self, performing: { try fetcher().fetch("http://127.0.0.1:\(port)/missing").get() })
        {
            #expect((thrown as! AIAError).message.contains("404"), "\(thrown)")
        }
    }

    @Test func testIterativeFetchingAndItsCountBound() throws {
        // leaf2 -> int2 -> int -> root, where leaf2 points at int2 and int2 points at int.
        let port = startHTTP([:])
        try pki.issue(
            "int2", subject: "/CN=Probe Test Intermediate 2", by: "int",
            ext: TestPKI.caExt + "authorityInfoAccess=caIssuers;URI:http://127.0.0.1:\(port)/int.der\n")
        try pki.issue(
            "leaf2", subject: "/CN=leaf2", by: "int2", ext: TestPKI.serverExt(aia: "http://127.0.0.1:\(port)/int2.der"))
        let intDER = try pki.der("int")
        let int2DER = try pki.der("int2")
        routes.set(["/int.der": Reply(body: intDER), "/int2.der": Reply(body: int2DER)])

        let leaf = try pki.certificate("leaf2")
        let root = try pki.certificate("root")
        let all = fetcher().completeChain(presented: [leaf], anchors: [root], timeout: .seconds(3))
        #expect(all.fetched.map(\.der) == [int2DER, intDER])
        #expect(all.attempts.map(\.outcome) == ([.fetched(1), .fetched(1)]))

        let bounded = fetcher(maximumFetches: 1).completeChain(presented: [leaf], anchors: [root], timeout: .seconds(3))
        #expect(bounded.fetched.map(\.der) == [int2DER])
        #expect(bounded.attempts.count == 2)
        if case .skipped(let why) = bounded.attempts.last?.outcome {
            #expect(why.contains("limit of 1"), "\(why)")
        } else {
            Issue.record("the second fetch should be skipped")
        }
    }
}
