import Foundation
import Testing

@testable import LabServers
@testable import TrustLab

/// The raw responders that play the servers OpenSSL 3 cannot be (rc4, rc4-md5, 3des, ssl-v3,
/// ssl-v2): how they read a client's first record, within a bound, and the bytes they answer.
/// The expected bytes are the protocols' own (RFC 5246 6.2 and 7.2, RFC 6101 5.6, SSL 2.0's
/// SERVER-HELLO); what real clients make of them is in BadsslTLSCheckTests.
@Suite struct LabLegacyResponderTests {
    /// A TLS record holding a ClientHello that asks for `version` and offers `suites`.
    static func clientHello(version: UInt16 = 0x0303, suites: [UInt16]) -> [UInt8] {
        var body: [UInt8] = [UInt8(version >> 8), UInt8(version & 0xFF)] + [UInt8](repeating: 7, count: 32) + [0]
        body += LabLegacyServer.u16(suites.count * 2) + suites.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        body += [1, 0]
        let message = LabLegacyServer.handshake(1, body)
        return [0x16, 0x03, 0x01] + LabLegacyServer.u16(message.count) + message
    }

    static func random(_ n: Int) -> [UInt8] { [UInt8](repeating: 0xAB, count: n) }

    @Test func testTheClientHelloIsReadFromItsRecordAndNothingElseIsTakenForOne() {
        let hello = Self.clientHello(suites: [0x1301, 0xC02F, 0x0035])
        #expect(
            LabClientHello.parse(hello)
                == .hello(LabClientHello(version: 0x0303, suites: [0x1301, 0xC02F, 0x0035], sslv2Format: false)))
        // Part of the record: wait for the rest.
        #expect(LabClientHello.parse(Array(hello.prefix(3))) == .incomplete)
        #expect(LabClientHello.parse(Array(hello.dropLast())) == .incomplete)
        // Not a ClientHello: a plain HTTP request, an alert, a record longer than TLS allows.
        #expect(LabClientHello.parse(Array("GET / HTTP/1.1\r\n\r\n".utf8)) == .notAClientHello)
        #expect(LabClientHello.parse([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]) == .notAClientHello)
        #expect(LabClientHello.parse([0x16, 0x03, 0x01, 0xFF, 0xFF]) == .notAClientHello)
        // A session id running past its record is malformed, not waited for (record header 5,
        // handshake header 4, version 2, random 32: the session id's length is byte 43).
        var cut = hello
        cut[43] = 0xFF
        #expect(LabClientHello.parse(cut) == .notAClientHello)
    }

    @Test func testTheRC4And3DESServersAnswerAHandshakeFailureAlertAtTheNegotiatedVersion() {
        let hello = LabClientHello(version: 0x0303, suites: [0x1301, 0xC02F], sslv2Format: false)
        // Alert record: type 21, the version, length 2, fatal (2), handshake_failure (40).
        for server in [LabLegacyServer.rc4, .rc4MD5, .tripleDES] {
            #expect(
                server.answer(to: hello, chain: [], random: Self.random) == [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 40])
        }
        // Below their TLS 1.1 floor: protocol_version (70).
        let old = LabClientHello(version: 0x0301, suites: [0x0005], sslv2Format: false)
        #expect(LabLegacyServer.rc4.answer(to: old, chain: [], random: Self.random) == [0x15, 3, 1, 0, 2, 2, 70])
    }

    @Test func testTheSSL3ServerAnswersAnSSL3ServerHelloOrAnAlertWhenNoSSL3SuiteIsOffered() {
        let leaf: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x01]
        let offered = LabClientHello(version: 0x0303, suites: [0xC02F, 0x002F, 0x0035], sslv2Format: false)
        let answer = LabLegacyServer.ssl3.answer(to: offered, chain: [leaf], random: Self.random)
        // One SSL 3.0 handshake record: ServerHello (2) for 3.0 with the client's first SSL 3.0
        // suite, Certificate (11), ServerHelloDone (14).
        #expect(Array(answer.prefix(3)) == [0x16, 0x03, 0x00])
        #expect(Int(answer[3]) << 8 | Int(answer[4]) == answer.count - 5)
        #expect(answer[5] == 2)
        #expect(Array(answer[9...10]) == [0x03, 0x00])
        let suiteAt = 5 + 4 + 2 + 32 + 1 + 32
        #expect(Array(answer[suiteAt...(suiteAt + 2)]) == [0x00, 0x2F, 0x00])
        #expect(answer[suiteAt + 3] == 11)
        #expect(Array(answer.suffix(4)) == [14, 0, 0, 0])
        #expect(answer.count == suiteAt + 3 + 4 + 3 + 3 + leaf.count + 4)
        // ATS's ClientHello offers ECDHE only: an alert, in an SSL 3.0 record.
        let ats = LabClientHello(version: 0x0303, suites: [0x1301, 0xC02B, 0xC013], sslv2Format: false)
        #expect(LabLegacyServer.ssl3.answer(to: ats, chain: [leaf], random: Self.random) == [0x15, 3, 0, 0, 2, 2, 40])
    }

    @Test func testTheSSL2ServerAnswersAnSSL2ServerHelloWithItsCertificateAndCipherKinds() {
        let leaf: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x01]
        let hello = LabClientHello(version: 0x0303, suites: [0x1301], sslv2Format: false)
        let answer = LabLegacyServer.ssl2.answer(to: hello, chain: [leaf], random: Self.random)
        // Two-byte header with the high bit set, SERVER-HELLO (4), no session hit, X.509 (1),
        // version 0.2, then the lengths of certificate, cipher specs and connection id.
        let length = 11 + leaf.count + 6 + 16
        #expect(Array(answer.prefix(2)) == [0x80, UInt8(length)])
        #expect(Array(answer[2..<7]) == [4, 0, 1, 0, 2])
        #expect(Array(answer[7..<13]) == [0, UInt8(leaf.count), 0, 6, 0, 16])
        #expect(Array(answer[13..<(13 + leaf.count)]) == leaf)
        #expect(Array(answer[(13 + leaf.count)..<(19 + leaf.count)]) == [0x01, 0x00, 0x80, 0x07, 0x00, 0xC0])
        #expect(answer.count == 2 + length)
    }

    /// A client that sends no ClientHello gets nothing and is let go: the responder is a server
    /// like the others (bounded read, closed at once on anything but a ClientHello).
    @Test func testARespondersPortClosesOnAnythingButAClientHelloAndAnswersOne() throws {
        let lab = try Lab.start(LabOptions(scenarios: ["rc4"]).patient)
        defer { lab.stop() }
        let s = try #require(lab.scenario("rc4"))
        func exchange(_ bytes: [UInt8]) throws -> [UInt8] {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = s.port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try #require(connected == 0)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Until the server closes (it does at once; the lab's patient deadline bounds it).
            while answer.count < 65_536 {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { break }
                answer += buffer[0..<n]
            }
            return answer
        }
        #expect(try exchange(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)).isEmpty)
        #expect(try exchange(Self.clientHello(suites: [0x1301, 0xC02F])) == [0x15, 3, 3, 0, 2, 2, 40])
    }
}
