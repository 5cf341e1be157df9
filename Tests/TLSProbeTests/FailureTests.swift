import Foundation
import SuiteFixtures
import Testing

@testable import TLSProbe

#if canImport(Glibc)
    import Glibc
#endif

/// Failures as users meet them, against in-process loopback servers that misbehave on purpose.
/// Each asserts the kind, the URLError URLSession would give, and that the probe ended within
/// its timeout plus one second (a correctness bound, not a benchmark).
@Suite(.serialized, .onTestThreads) final class FailureTests {
    var servers: [TCPServer] = []
    deinit {
        servers.forEach { $0.stop() }
        servers = []
    }

    func serve(ipv6: Bool = false, _ handler: @escaping @Sendable (Int32) -> Void) -> UInt16 {
        let s = TCPServer(ipv6: ipv6, handler: handler)
        servers.append(s)
        return s.port
    }

    @discardableResult
    func expectFailure(
        _ target: String, timeout: Double = 2, options: ProbeOptions? = nil, _ kind: ProbeError.Kind,
        _ urlError: Int?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProbeError {
        let options = options ?? ProbeOptions(timeout: .milliseconds(Int64(timeout * 1000)))
        let start = Date()
        do {
            let h = try Probe.handshake(with: try ProbeTarget.parse(target), options: options)
            Issue.record("expected \(kind), got a handshake: \(h.version)", sourceLocation: sourceLocation)
            try Test.cancel("unreachable")
        } catch let e as ProbeError {
            let elapsed = Date().timeIntervalSince(start)
            #expect(e.kind == kind, "\(e.message)", sourceLocation: sourceLocation)
            #expect(e.urlError == urlError, "\(e.message)", sourceLocation: sourceLocation)
            #expect(elapsed < (timeout + 1), "ended within the timeout", sourceLocation: sourceLocation)
            #expect(!e.message.contains("\n"), "one line", sourceLocation: sourceLocation)
            return e
        }
    }

    @Test func testUnknownHost() throws {
        // A 64-character label is refused by the stub resolver before any query leaves the host.
        let e = try expectFailure(String(repeating: "a", count: 64) + ".invalid", .unknownHost, -1003)
        #expect(e.message.hasPrefix("cannot find host"), "\(e.message)")
    }

    @Test func testConnectionRefused() throws {
        // A port that was just free: bind, read the port, close.
        let port = TCPServer { _ in }.port
        let e = try expectFailure("127.0.0.1:\(port)", .connectionRefused, -1004)
        #expect(e.message.contains("refused"), "\(e.message)")
        try expectFailure("[::1]:\(port)", .connectionRefused, -1004)
    }

    @Test func testServerThatNeverAnswers() throws {
        let port = serve { fd in
            _ = Wire.receive(fd); sleep(4)
        }
        // A third of a second tells a silent server from an answering one as well as a second.
        let e = try expectFailure("127.0.0.1:\(port)", timeout: 0.3, .timedOut, -1001)
        #expect(e.message.contains("no answer to the ClientHello"), "\(e.message)")
    }

    @Test func testServerThatDripsBytesIsCutOffByTheWholeDeadline() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            // A byte every 150 ms: each read makes progress, so only the handshake's whole
            // deadline (0.4 s) can end it; a per-read one would wait for the 0.75 s drip and then
            // some.
            for b: UInt8 in [0x16, 0x03, 0x03, 0x40, 0x00] {
                guard Wire.send(fd, [b]) else { return }
                usleep(150_000)
            }
        }
        let e = try expectFailure("127.0.0.1:\(port)", timeout: 0.4, .timedOut, -1001)
        #expect(e.message.contains("the server sent"), "\(e.message)")
    }

    @Test func testPlainHTTPOnTheTLSPort() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        let e = try expectFailure("127.0.0.1:\(port)", .notTLS, -1200)
        #expect(e.message.contains("plain HTTP"), "\(e.message)")
        #expect(e.message.contains("HTTP/1.1 400 Bad Request"), "\(e.message)")
    }

    @Test func testMailBannerSuggestsStartTLS() throws {
        let port = serve { fd in
            _ = Wire.send(fd, "220 mail.test ESMTP\r\n")
            _ = Wire.receive(fd)
            _ = Wire.send(fd, "500 5.5.1 command unrecognized\r\n")
        }
        let e = try expectFailure("127.0.0.1:\(port)", .notTLS, -1200)
        #expect(e.message.contains("STARTTLS"), "\(e.message)")
    }

    @Test func testClosedBeforeServerHello() throws {
        let port = serve { fd in _ = Wire.receive(fd) }
        let e = try expectFailure("127.0.0.1:\(port)", .closedDuringHandshake, -1200)
        #expect(e.message.contains("before answering the ClientHello"), "\(e.message)")
    }

    @Test func testClosedAfterServerHello() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, Records.serverHello12)
        }
        let e = try expectFailure("127.0.0.1:\(port)", .closedDuringHandshake, -1200)
        #expect(e.message.contains("after its ServerHello"), "\(e.message)")
        #expect(e.partial?.version == .tls1_2)
    }

    @Test func testGarbageAfterServerHello() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, Records.serverHello12 + [UInt8](repeating: 0xEE, count: 300))
            sleep(3)
        }
        let e = try expectFailure("127.0.0.1:\(port)", .malformedHandshake, -1200)
        #expect(e.message.contains("after its ServerHello"), "\(e.message)")
        #expect(!e.details.isEmpty, "OpenSSL's reasons are kept as values")
    }

    @Test func testGarbageInsteadOfServerHello() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, [0x16, 0x03, 0x03, 0x00, 0x04, 0xFF, 0xFF, 0xFF, 0xFF])
            sleep(3)
        }
        try expectFailure("127.0.0.1:\(port)", .malformedHandshake, -1200)
    }

    @Test func testOneMegabyteCertificate() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            let huge = [UInt8](repeating: 0x30, count: 1024 * 1024)
            _ = Wire.send(fd, Records.serverHello12 + Records.certificate([huge]))
            sleep(3)
        }
        let e = try expectFailure("127.0.0.1:\(port)", .oversizedHandshake, -1200)
        #expect(e.message.contains("256 KiB"), "\(e.message)")
    }

    @Test func testEndlessStreamIsBounded() throws {
        // Valid-looking record headers with endless bodies: the input bound ends it, not memory.
        let port = serve { fd in
            _ = Wire.receive(fd)
            guard Wire.send(fd, Records.serverHello12) else { return }
            var header: [UInt8] = [0x16, 0x03, 0x03] + Records.u16(16384) + [11] + Records.u24(0xFFFFFF)
            header += [UInt8](repeating: 0, count: 16380)
            while Wire.send(fd, header) {}
        }
        let options = ProbeOptions(
            timeout: .seconds(2), maximumCertificateListBytes: 16 * 1024 * 1024,
            maximumHandshakeBytes: 512 * 1024)
        let e = try expectFailure("127.0.0.1:\(port)", options: options, .oversizedHandshake, -1200)
        #expect(e.message.contains("512 KiB"), "\(e.message)")
    }

    @Test func testAlertBeforeServerHello() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 80])
        }
        let e = try expectFailure("127.0.0.1:\(port)", .tlsAlert, -1200)
        #expect(e.alert?.code == 80)
        #expect(e.message.contains("internal_error (80)"), "\(e.message)")
    }

    @Test func testHandshakeFailureAlertMeansNothingInCommon() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 40])
        }
        let e = try expectFailure("127.0.0.1:\(port)", .noCommonCipher, -1200)
        #expect(e.message.contains("handshake_failure (40)"), "\(e.message)")
    }

    @Test func testServerChoosingSSL3IsNoCommonVersion() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            var hello = Records.serverHello12
            hello[9] = 3
            hello[10] = 0  // ServerHello.legacy_version = SSL 3.0
            _ = Wire.send(fd, hello)
            sleep(3)
        }
        let e = try expectFailure("127.0.0.1:\(port)", .noCommonVersion, -1200)
        #expect(e.message.contains("the server chose SSL 3.0, but only TLS 1.2-1.3 is allowed"), "\(e.message)")
    }
}
