import AppleHello
import Foundation
import SuiteFixtures
import Synchronization
import Testing
import TrustCore

@testable import TLSProbe

#if canImport(Glibc)
    import Glibc
#endif

/// The iOS 26-shaped ClientHello sent to servers on 127.0.0.1: `openssl s_server` (OpenSSL 3.0,
/// which does not know 0x11EC) and in-process servers that answer as the middleboxes and servers
/// of docs/connecting.md's "The second hello" do.
@Suite(.serialized, .onTestThreads) final class AppleHelloProbeTests {
    var pki: TestPKI!
    var servers: [OpenSSLServer] = []
    var tcpServers: [TCPServer] = []

    init() throws { pki = try TestPKI.get() }

    deinit {
        servers = []
        tcpServers.forEach { $0.stop() }
    }

    func send(to port: UInt16, silence: Duration = .seconds(3)) throws -> AppleHelloReport {
        AppleHelloProbe.run(
            try ProbeTarget.parse("localhost:\(port)"), options: ProbeOptions(),
            deadline: EvaluationDeadline(after: .seconds(10)), silence: silence)
    }

    func openSSL(_ extra: [String]) throws -> UInt16 {
        let s = try OpenSSLServer(["-cert", "leaf.pem", "-key", "leaf.key"] + extra, cwd: pki.dir)
        servers.append(s)
        return s.tcpPort
    }

    @Test func openSSLPicksX25519FromTheKeySharesItKnows() throws {
        // RFC 8446 4.2.8: a server picks a group it supports among the client's shares and ignores
        // an unknown one (0x11EC, GREASE); a HelloRetryRequest only when no usable share was sent.
        // OpenSSL 3.0 knows x25519, whose share came second: a ServerHello with x25519. It takes
        // the client's suite order (no -serverpref): TLS_AES_256_GCM_SHA384 first.
        let report = try send(to: try openSSL([]))
        #expect(report.outcome == .serverHello, "\(report.summary)")
        #expect(report.version == "TLS 1.3")
        #expect(report.group == "x25519")
        #expect(report.cipherSuite == "TLS_AES_256_GCM_SHA384")
        #expect(!report.serverChoseHybrid)
        #expect(report.hybridShareBytes == 1216)
        #expect(report.helloBytes > 1460)
        #expect(report.summary.contains("connects without the post-quantum group"), "\(report.summary)")
    }

    @Test func openSSLLimitedToP256AsksForItsShare() throws {
        // RFC 8446 4.1.4/4.2.8: secp256r1 is offered in supported_groups without a share, so a
        // server that accepts only it answers with a HelloRetryRequest naming it.
        let report = try send(to: try openSSL(["-groups", "P-256"]))
        #expect(report.outcome == .helloRetryRequest, "\(report.summary)")
        #expect(report.group == "secp256r1")
        #expect(report.summary.contains("one more round trip"), "\(report.summary)")
    }

    /// The client's first TLS record as read from `fd`, in at most 64 reads: a hello is one
    /// record of under 16 KiB.
    static func firstRecord(_ fd: Int32) -> [UInt8] {
        var got: [UInt8] = []
        for _ in 0..<64 {
            if got.count >= 5, got.count >= 5 + (Int(got[3]) << 8 | Int(got[4])) { break }
            let chunk = Wire.receive(fd)
            if chunk.isEmpty { break }
            got += chunk
        }
        return got
    }

    /// A listener that reads the whole first record, then does `act` with its size.
    func responder(_ act: @escaping @Sendable (Int32, Int) -> Void) -> UInt16 {
        let server = TCPServer { fd in act(fd, Self.firstRecord(fd).count) }
        tcpServers.append(server)
        return server.port
    }

    @Test func theHelloReachesTheServerWithTheHybridShare() throws {
        let seen = Mutex<[UInt8]>([])
        let capture = TCPServer { fd in
            let got = Self.firstRecord(fd)
            seen.withLock { $0 = got }
        }
        tcpServers.append(capture)
        _ = try send(to: capture.port, silence: .milliseconds(300))
        let received = seen.withLock { $0 }
        // Read back by the byte-level tests' own parser: one record, the hybrid's 1,216-byte share
        // (draft-ietf-tls-ecdhe-mlkem) beside x25519's, and the name sent as SNI.
        let parsed = try AppleClientHelloTests.parse(received)
        #expect(parsed.recordLength == received.count - 5)
        let shares = try #require(parsed.data(0x0033))
        #expect(shares.count == 2 + (4 + 1) + (4 + 1216) + (4 + 32))
        #expect(Array(shares[7...10]) == [0x11, 0xEC, 0x04, 0xC0], "0x11EC, length 1,216")
        #expect(parsed.data(0x0000) == [0, 12, 0, 0, 9] + Array("localhost".utf8))
    }

    @Test func aServerAnsweringHRRForX25519FailsIOS26() throws {
        let hrr = ServerAnswerReaderTests.record(
            22,
            ServerAnswerReaderTests.handshake(
                ServerAnswerReaderTests.serverHello(
                    random: ServerAnswerReaderTests.hrrRandom,
                    extensions: ServerAnswerReaderTests.tls13 + [0x00, 0x33, 0, 2, 0x00, 0x1D])))
        let port = responder { fd, _ in _ = Wire.send(fd, hrr) }
        let report = try send(to: port)
        #expect(report.outcome == .helloRetryRequest)
        #expect(report.group == "x25519")
        #expect(report.summary.contains("illegal_parameter"), "\(report.summary)")
    }

    @Test func aMiddleboxResettingLargeHellos() throws {
        let port = responder { fd, size in
            guard size > 1024 else { return }
            // SO_LINGER 0: close sends a reset, as a middlebox dropping the flow does.
            var l = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        }
        let report = try send(to: port)
        #expect(report.outcome == .reset, "\(report.summary)")
        #expect(report.summary.contains("large or split ClientHello"))
    }

    @Test func aMiddleboxDroppingLargeHellosSilently() throws {
        let port = responder { _, size in if size > 1024 { usleep(1_500_000) } }
        let report = try send(to: port, silence: .milliseconds(400))
        #expect(report.outcome == .timedOut, "\(report.summary)")
        #expect(report.bytesReceived == 0)
        #expect((report.milliseconds ?? 0) >= 350)
    }

    @Test func aServerTricklingItsAnswerIsCutByTheDeadline() throws {
        // One byte every 50 ms: each read gets something, yet the wait must still end on time.
        let start: [UInt8] = [0x16, 3, 3, 0, 0x60, 2, 0, 0, 0x5C] + [UInt8](repeating: 3, count: 31)
        let port = responder { fd, _ in
            for byte in start {
                guard Wire.send(fd, [byte]) else { return }
                usleep(50_000)
            }
        }
        let report = try send(to: port, silence: .milliseconds(400))
        #expect(report.outcome == .timedOut, "\(report.summary)")
        #expect(report.bytesReceived > 0 && report.bytesReceived < 20)
        #expect(report.summary.contains("no complete answer"), "\(report.summary)")
    }

    @Test func aServerClosingWithoutAnAnswer() throws {
        let port = responder { fd, _ in shutdown(fd, Int32(SHUT_WR)) }
        let report = try send(to: port)
        #expect(report.outcome == .closed, "\(report.summary)")
    }

    @Test func nothingListeningIsNotSent() throws {
        let port = responder { _, _ in }
        tcpServers.removeLast().stop()
        let report = try send(to: port)
        #expect(report.outcome == .notSent)
        #expect(report.reason?.contains("refused") == true, "\(report.reason ?? "")")
    }
}
