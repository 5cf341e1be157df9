import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustSupport
import TrustX509

@testable import TLSProbe
@testable import TrustBuilder

#if canImport(Glibc)
    import Glibc
#endif

/// What responders, mail servers, proxies and TLS servers send when they mean harm: lengths that
/// are negative or overflow, lines that never end, replies that never stop. Each shape must end
/// as a one-line reason, never a trap and never a hold. The HTTP shapes are fed from memory
/// through the same reader the sockets use, and over a loopback socket to the fetchers.
@Suite(.serialized, .onTestThreads) final class HostileReplyTests {
    var servers: [TCPServer] = []
    deinit {
        servers.forEach { $0.stop() }
        servers = []
    }

    /// A responder answering every request with `reply`.
    func responder(_ reply: [UInt8]) -> UInt16 {
        let server = TCPServer { fd in
            guard Wire.readRequestHead(fd) != nil else { return }
            _ = Wire.send(fd, reply)
        }
        servers.append(server)
        return server.port
    }

    func reply(_ text: String) -> String { PeerInput.httpResponse(Array(text.utf8)) }

    // MARK: HTTP framing, from memory

    @Test func testNegativeContentLengthIsAMalformedResponse() {
        #expect((reply("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nabc")) == "malformed Content-Length \"-1\"")
    }

    @Test func testContentLengthWithASignOrSpaceInsideIsMalformed() {
        #expect((reply("HTTP/1.1 200 OK\r\nContent-Length: +3\r\n\r\nabc")) == "malformed Content-Length \"+3\"")
        #expect((reply("HTTP/1.1 200 OK\r\nContent-Length: 1 2\r\n\r\nabc")) == "malformed Content-Length \"1 2\"")
        #expect((reply("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\nabc")) == "malformed Content-Length \"\"")
    }

    @Test func testContentLengthBeyondEveryIntegerIsTooLarge() {
        let digits = String(repeating: "9", count: 40)
        #expect((reply("HTTP/1.1 200 OK\r\nContent-Length: \(digits)\r\n\r\n")) == "the response is larger than 64 KiB")
    }

    @Test func testConflictingContentLengthsAreRefused() {
        #expect(
            (reply("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 2\r\n\r\nabc"))
                == "conflicting Content-Length headers")
    }

    @Test func testContentLengthIsHonoured() {
        #expect((reply("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef")) == "HTTP 200, 3 bytes")
    }

    @Test func testChunkSizeThatOverflowsAfterAOneByteChunkIsTooLarge() {
        let shape = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nX\r\n7fffffffffffffff\r\n"
        #expect(reply(shape) == "the response is larger than 64 KiB")
        #expect(
            (reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nX\r\nffffffffffffffffffff\r\n"))
                == "the response is larger than 64 KiB")
    }

    @Test func testChunkSizeThatIsNotHexadecimalIsMalformed() {
        #expect(
            (reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nX\r\n0\r\n\r\n"))
                == "malformed chunk size \"-1\"")
    }

    @Test func testChunksAreJoinedWithTheirExtensionsIgnored() {
        let body = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
        #expect(reply(body) == "HTTP 200, 5 bytes")
        // Delivered one byte at a time, every read boundary falls inside a line or a length.
        #expect((PeerInput.httpResponse(Array(body.utf8), piece: 1)) == "HTTP 200, 5 bytes")
    }

    @Test func testChunkDataNotEndedByALineEndIsMalformed() {
        #expect(
            (reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nXY\r\n0\r\n\r\n"))
                == "malformed chunked body")
    }

    @Test func testEndlessOneByteChunksStopAtTheChunkBound() {
        var shape = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        shape += String(repeating: "1\r\nX\r\n", count: HTTPResponseReader.maximumChunks + 1)
        #expect(
            (PeerInput.httpResponse(Array(shape.utf8), maximumBody: 1024 * 1024))
                == ("more than \(HTTPResponseReader.maximumChunks) chunks"))
    }

    @Test func testHeaderFloodIsRefused() {
        let shape = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: 101) + "\r\n"
        #expect(reply(shape) == "more than 100 response headers")
    }

    @Test func testLineThatNeverEndsIsOverlong() {
        let shape = "HTTP/1.1 200 OK\r\nX-A: " + String(repeating: "a", count: 20_000)
        #expect(reply(shape) == NetFailure.overlong.text)
    }

    @Test func testBodyReadToTheCloseIsBounded() {
        let shape = "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "a", count: 70_000)
        #expect(reply(shape) == "the response is larger than 64 KiB")
    }

    @Test func testStatusLineIsQuotedAtMostEightyBytes() {
        let line = String(repeating: "Z", count: 5000)
        let r = reply(line + "\r\n\r\n")
        #expect(r.hasPrefix("not an HTTP response: \"ZZZ"), "\(r)")
        #expect(r.hasSuffix("… (5000 bytes)\""), "\(r)")
        #expect(r.utf8.count < 200)
    }

    // MARK: over a socket, through the fetchers

    @Test func testAIAFetchOfANegativeLengthFailsWithAReason() throws {
        let port = responder(Array("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n".utf8))
        let result = AIAFetcher(allowHost: { $0 == "127.0.0.1" }).fetch(
            "http://127.0.0.1:\(port)/int.cer", timeout: .seconds(5))
        guard case .failure(let e) = result else { Issue.record("fetched from a hostile responder"); return }
        #expect(e.message == ("http://127.0.0.1:\(port)/int.cer: malformed Content-Length \"-1\""))
    }

    @Test func testRevocationFetchesOfAnOverflowingChunkFailWithAReason() throws {
        let port = responder(
            Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nX\r\n7fffffffffffffff\r\n".utf8))
        let base = "http://127.0.0.1:\(port)"
        let now = Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        let rootKey = try KeyPair.generate(.ecP256)
        var r = CertificateBuilder(
            subject: NameBuilder(commonName: "Hostile Root"), publicKey: rootKey, notBefore: now.adding(seconds: -60),
            notAfter: now.adding(seconds: 86_400))
        r.basicConstraints = .init(isCA: true)
        let root = try r.selfSign(key: rootKey)
        var l = CertificateBuilder(
            subject: NameBuilder(commonName: "127.0.0.1"), publicKey: try KeyPair.generate(.ecP256),
            notBefore: now.adding(seconds: -60), notAfter: now.adding(seconds: 86_400))
        l.ocspURLs = [base + "/ocsp"]
        // cRLDistributionPoints: one DistributionPoint whose fullName is the URI (RFC 5280 4.2.1.13).
        let crldp = DERWriter.encode { w in
            w.sequence { w in
                w.sequence { w in
                    w.contextSpecific(0) { w in w.contextSpecific(0) { $0.generalName(.uri(base + "/ca.crl")) } }
                }
            }
        }
        l.rawExtensions = [.init(oid: OID(dotted: "2.5.29.31")!, critical: false, value: crldp)]
        let leaf = try l.sign(issuerKey: rootKey, issuer: root)

        let result = RevocationFetcher(allowHost: { $0 == "127.0.0.1" }).fetch(
            path: [leaf, root], timeout: .seconds(5))
        #expect(result.ocspResponses.isEmpty)
        #expect(result.revocationLists.isEmpty)
        #expect(result.attempts.map(\.url) == [base + "/ocsp", base + "/ca.crl"])
        #expect(
            result.attempts[0].outcome.hasSuffix(": the response is larger than 64 KiB"),
            "\(result.attempts[0].outcome)")
        #expect((result.attempts[1].outcome) == ("failed: \(base)/ca.crl: the response is larger than 4096 KiB"))
    }

    @Test func testRevocationFetchingStopsAtTheRunsDeadline() throws {
        // A deadline already passed: nothing is fetched, and the report says why.
        let deadline = EvaluationDeadline(at: ContinuousClock.now.advanced(by: .seconds(-1)), allowance: .seconds(2))
        let pki = try TestPKI.get()
        // The shared leaf has no OCSP URL: one with a URL, issued by the shared intermediate.
        try pki.issue(
            "deadline-ocsp-leaf", subject: "/CN=127.0.0.1", by: "int",
            ext: "basicConstraints=CA:FALSE\nauthorityInfoAccess=OCSP;URI:http://127.0.0.1:9/ocsp\n")
        let result = RevocationFetcher(allowHost: { $0 == "127.0.0.1" }).fetch(
            path: [try pki.certificate("deadline-ocsp-leaf"), try pki.certificate("int")], deadline: deadline)
        #expect(result.attempts.map(\.outcome) == ["not tried: the deadline had passed"])
    }

    @Test func testLongLocationIsQuotedAtMostAFewHundredBytes() throws {
        let target = "/" + String(repeating: "a", count: 6000)
        let port = responder(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8))
        let redirect = responder(
            Array("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(port)\(target)\r\n\r\n".utf8))
        let result = AIAFetcher(allowHost: { $0 == "127.0.0.1" }).fetch(
            "http://127.0.0.1:\(redirect)/int.cer", timeout: .seconds(5))
        guard case .failure(let e) = result else { Issue.record("fetched"); return }
        #expect(e.message.hasSuffix("bytes) answered HTTP 404"), "\(e.message)")
        #expect(e.message.utf8.count < 300, "\(e.message)")
    }

    // MARK: STARTTLS and proxies, from memory

    @Test func testSMTPReplyOfEndlessContinuationLinesIsBounded() {
        let shape = "220-hi\r\n" + String(repeating: "220-more\r\n", count: 300) + "220 ok\r\n"
        #expect(
            (PeerInput.startTLS(.smtp, replies: Array(shape.utf8)))
                == "the server sent an overlong reply while waiting for an SMTP server's 220 greeting and its answers to EHLO and STARTTLS (SMTP STARTTLS)"
        )
    }

    @Test func testIMAPUntaggedFloodIsBounded() {
        let shape = "* OK hi\r\n" + String(repeating: "* x\r\n", count: 200)
        #expect(
            (PeerInput.startTLS(.imap, replies: Array(shape.utf8)))
                == "the server sent an overlong reply while waiting for an IMAP server's * OK greeting and its answer to STARTTLS (IMAP STARTTLS)"
        )
    }

    @Test func testRefusalQuotesAtMostEightyBytesWithControlsRemoved() {
        let shape = "554 " + String(repeating: "\u{1B}[31mX", count: 800) + "\r\n"
        for proto in [StartTLSProtocol.smtp, .ftp] {
            let message = PeerInput.startTLS(proto, replies: Array(shape.utf8))
            #expect(message.contains("did not greet with 220"), "\(message)")
            #expect(!(message.unicodeScalars.contains { $0.value < 0x20 }), "\(message)")
            #expect(message.utf8.count < 200, "\(message)")
        }
    }

    @Test func testProxyRefusalReasonIsQuotedAtMostEightyBytes() {
        let shape = "HTTP/1.1 403 " + String(repeating: "\u{9B}2J no", count: 900) + "\r\n\r\n"
        let message = PeerInput.proxyReply(Array(shape.utf8))
        #expect(message.contains("refused the tunnel to example.com:443: 403"), "\(message)")
        #expect(!(message.unicodeScalars.contains { $0.value == 0x9B }), "\(message)")
        #expect(message.utf8.count < 300, "\(message)")
    }

    @Test func testPostgresAnswerOtherThanSOrNIsNamed() {
        #expect(
            (PeerInput.startTLS(.postgres, replies: [0x45]))
                == "PostgreSQL server answered the SSLRequest with byte 0x45")
    }

    // MARK: handshake messages

    @Test func testCertificateListWithLengthsPastItsEndCountsOnlyWhatIsThere() {
        // A Certificate message whose list claims 16 MiB and whose one entry claims more than is left.
        let body: [UInt8] = [0xFF, 0xFF, 0xFF] + [0x00, 0x00, 0x05, 1, 2, 3]
        #expect((PeerInput.handshakeMessages([11] + Records.u24(body.count) + body)) == 0)
        let ok: [UInt8] = Records.u24(6) + [0x00, 0x00, 0x03, 1, 2, 3]
        #expect((PeerInput.handshakeMessages([11] + Records.u24(ok.count) + ok)) == 1)
    }

    @Test func testSCTListWithALengthPastItsEndIsRefused() {
        #expect((PeerInput.sctList([0xFF, 0xFF, 0x00, 0x10, 0])) == nil)
    }

    @Test func testStapledOCSPThatIsNotDERIsMalformed() {
        #expect((PeerInput.stapledOCSP([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])) == "malformed -")
    }

    @Test func testOversizedCertificateStatusIsNamedAsSuch() throws {
        let leaf = try TestPKI.get().der("leaf")
        let server = TCPServer { fd in
            _ = Wire.receive(fd)
            // TLS 1.2, ECDHE-ECDSA-AES128-GCM-SHA256, with status_request acknowledged so that
            // a CertificateStatus follows the certificates; its header announces 300 KiB.
            let ext: [UInt8] =
                [0xFF, 0x01, 0x00, 0x01, 0x00] + [0x00, 0x05, 0x00, 0x00] + [0x00, 0x0B, 0x00, 0x02, 0x01, 0x00]
            let hello: [UInt8] =
                [3, 3] + [UInt8](repeating: 0x42, count: 32) + [0] + [0xC0, 0x2B] + [0] + Records.u16(ext.count) + ext
            let size = 300 * 1024
            let status: [UInt8] =
                [22] + Records.u24(size) + [1] + Records.u24(size - 4) + [UInt8](repeating: 0x30, count: 1000)
            _ = Wire.send(
                fd,
                Records.records(22, Records.handshake(2, hello)) + Records.certificate([leaf])
                    + Records.records(22, status))
            sleep(3)
        }
        servers.append(server)
        do {
            _ = try Probe.handshake(
                with: try ProbeTarget.parse("127.0.0.1:\(server.port)"), options: ProbeOptions(timeout: .seconds(5)))
            Issue.record("a handshake with an oversized status message completed")
        } catch {
            #expect(error.kind == .oversizedHandshake, "\(error.message)")
            #expect(
                error.message
                    == "the server's certificate status message (its stapled OCSP response) exceeds the 16 KiB OpenSSL accepts"
            )
        }
    }
}
