import Foundation
import XCTest

@testable import TLSProbe

#if canImport(Glibc)
    import Glibc
#endif

/// Failures as users meet them, against in-process loopback servers that misbehave on purpose.
/// Each asserts the kind, the URLError URLSession would give, and that the probe ended within
/// its timeout plus one second (a correctness bound, not a benchmark).
final class FailureTests: XCTestCase {
    var servers: [TCPServer] = []
    override func tearDown() {
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
        _ urlError: Int?, file: StaticString = #filePath, line: UInt = #line
    ) throws -> ProbeError {
        let options = options ?? ProbeOptions(timeout: .milliseconds(Int64(timeout * 1000)))
        let start = Date()
        do {
            let h = try Probe.handshake(with: try ProbeTarget.parse(target), options: options)
            XCTFail("expected \(kind), got a handshake: \(h.version)", file: file, line: line)
            throw XCTSkip("unreachable")
        } catch let e as ProbeError {
            let elapsed = Date().timeIntervalSince(start)
            XCTAssertEqual(e.kind, kind, e.message, file: file, line: line)
            XCTAssertEqual(e.urlError, urlError, e.message, file: file, line: line)
            XCTAssertLessThan(elapsed, timeout + 1, "ended within the timeout", file: file, line: line)
            XCTAssertFalse(e.message.contains("\n"), "one line", file: file, line: line)
            return e
        }
    }

    func testUnknownHost() throws {
        // A 64-character label is refused by the stub resolver before any query leaves the host.
        let e = try expectFailure(String(repeating: "a", count: 64) + ".invalid", .unknownHost, -1003)
        XCTAssertTrue(e.message.hasPrefix("cannot find host"), e.message)
    }

    func testConnectionRefused() throws {
        // A port that was just free: bind, read the port, close.
        let port = TCPServer { _ in }.port
        let e = try expectFailure("127.0.0.1:\(port)", .connectionRefused, -1004)
        XCTAssertTrue(e.message.contains("refused"), e.message)
        try expectFailure("[::1]:\(port)", .connectionRefused, -1004)
    }

    func testServerThatNeverAnswers() throws {
        let port = serve { fd in
            _ = Wire.receive(fd); sleep(4)
        }
        // A third of a second tells a silent server from an answering one as well as a second.
        let e = try expectFailure("127.0.0.1:\(port)", timeout: 0.3, .timedOut, -1001)
        XCTAssertTrue(e.message.contains("no answer to the ClientHello"), e.message)
    }

    func testServerThatDripsBytesIsCutOffByTheWholeDeadline() throws {
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
        XCTAssertTrue(e.message.contains("the server sent"), e.message)
    }

    func testPlainHTTPOnTheTLSPort() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        let e = try expectFailure("127.0.0.1:\(port)", .notTLS, -1200)
        XCTAssertTrue(e.message.contains("plain HTTP"), e.message)
        XCTAssertTrue(e.message.contains("HTTP/1.1 400 Bad Request"), e.message)
    }

    func testMailBannerSuggestsStartTLS() throws {
        let port = serve { fd in
            _ = Wire.send(fd, "220 mail.test ESMTP\r\n")
            _ = Wire.receive(fd)
            _ = Wire.send(fd, "500 5.5.1 command unrecognized\r\n")
        }
        let e = try expectFailure("127.0.0.1:\(port)", .notTLS, -1200)
        XCTAssertTrue(e.message.contains("STARTTLS"), e.message)
    }

    func testClosedBeforeServerHello() throws {
        let port = serve { fd in _ = Wire.receive(fd) }
        let e = try expectFailure("127.0.0.1:\(port)", .closedDuringHandshake, -1200)
        XCTAssertTrue(e.message.contains("before answering the ClientHello"), e.message)
    }

    func testClosedAfterServerHello() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, Records.serverHello12)
        }
        let e = try expectFailure("127.0.0.1:\(port)", .closedDuringHandshake, -1200)
        XCTAssertTrue(e.message.contains("after its ServerHello"), e.message)
        XCTAssertEqual(e.partial?.version, .tls1_2)
    }

    func testGarbageAfterServerHello() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, Records.serverHello12 + [UInt8](repeating: 0xEE, count: 300))
            sleep(3)
        }
        let e = try expectFailure("127.0.0.1:\(port)", .malformedHandshake, -1200)
        XCTAssertTrue(e.message.contains("after its ServerHello"), e.message)
        XCTAssertFalse(e.details.isEmpty, "OpenSSL's reasons are kept as values")
    }

    func testGarbageInsteadOfServerHello() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, [0x16, 0x03, 0x03, 0x00, 0x04, 0xFF, 0xFF, 0xFF, 0xFF])
            sleep(3)
        }
        try expectFailure("127.0.0.1:\(port)", .malformedHandshake, -1200)
    }

    func testOneMegabyteCertificate() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            let huge = [UInt8](repeating: 0x30, count: 1024 * 1024)
            _ = Wire.send(fd, Records.serverHello12 + Records.certificate([huge]))
            sleep(3)
        }
        let e = try expectFailure("127.0.0.1:\(port)", .oversizedHandshake, -1200)
        XCTAssertTrue(e.message.contains("256 KiB"), e.message)
    }

    func testEndlessStreamIsBounded() throws {
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
        XCTAssertTrue(e.message.contains("512 KiB"), e.message)
    }

    func testAlertBeforeServerHello() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 80])
        }
        let e = try expectFailure("127.0.0.1:\(port)", .tlsAlert, -1200)
        XCTAssertEqual(e.alert?.code, 80)
        XCTAssertTrue(e.message.contains("internal_error (80)"), e.message)
    }

    func testHandshakeFailureAlertMeansNothingInCommon() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            _ = Wire.send(fd, [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 40])
        }
        let e = try expectFailure("127.0.0.1:\(port)", .noCommonCipher, -1200)
        XCTAssertTrue(e.message.contains("handshake_failure (40)"), e.message)
    }

    func testServerChoosingSSL3IsNoCommonVersion() throws {
        let port = serve { fd in
            _ = Wire.receive(fd)
            var hello = Records.serverHello12
            hello[9] = 3
            hello[10] = 0  // ServerHello.legacy_version = SSL 3.0
            _ = Wire.send(fd, hello)
            sleep(3)
        }
        let e = try expectFailure("127.0.0.1:\(port)", .noCommonVersion, -1200)
        XCTAssertTrue(e.message.contains("the server chose SSL 3.0, but only TLS 1.2-1.3 is allowed"), e.message)
    }
}
