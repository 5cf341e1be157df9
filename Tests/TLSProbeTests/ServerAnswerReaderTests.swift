import AppleHello
import XCTest

/// Answers to the Apple hello, built byte by byte from RFC 8446's layouts (5.1 records, 4.1.3
/// ServerHello and HelloRetryRequest, 4.2.1 supported_versions, 4.2.8 key_share, 6 alerts), and
/// hostile ones: truncated, oversized, past the byte budget, not TLS at all.
final class ServerAnswerReaderTests: XCTestCase {
    static let hrrRandom: [UInt8] = [
        0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
        0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
    ]

    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A ServerHello body: 0x0303, random, a 32-byte session echo, suite, null compression, extensions.
    static func serverHello(random: [UInt8], suite: Int = 0x1302, extensions: [UInt8]) -> [UInt8] {
        [3, 3] + random + [32] + [UInt8](repeating: 7, count: 32) + be16(suite) + [0] + be16(extensions.count)
            + extensions
    }

    static func handshake(_ body: [UInt8]) -> [UInt8] {
        [2, 0] + be16(body.count) + body
    }

    static func record(_ type: UInt8, _ payload: [UInt8]) -> [UInt8] { [type, 3, 3] + be16(payload.count) + payload }

    static let tls13 = [0x00, 0x2B, 0, 2, 3, 4] as [UInt8]

    static func keyShare(group: Int, keyBytes: Int) -> [UInt8] {
        [0x00, 0x33] + be16(4 + keyBytes) + be16(group) + be16(keyBytes) + [UInt8](repeating: 9, count: keyBytes)
    }

    func testAServerHelloChoosingX25519() {
        let body = Self.serverHello(
            random: [UInt8](repeating: 1, count: 32), extensions: Self.tls13 + Self.keyShare(group: 0x1D, keyBytes: 32))
        let answer = ServerAnswerReader.answer(in: Self.record(22, Self.handshake(body)))
        XCTAssertEqual(
            answer, .serverHello(ServerHelloFacts(version: 0x0304, cipherSuite: 0x1302, group: 0x1D, keyShareBytes: 32))
        )
    }

    func testAServerHelloChoosingTheHybridCarriesItsCiphertext() {
        // draft-ietf-tls-ecdhe-mlkem: the server's share is the 1,088-byte ML-KEM ciphertext + 32.
        let body = Self.serverHello(
            random: [UInt8](repeating: 1, count: 32),
            extensions: Self.tls13 + Self.keyShare(group: 0x11EC, keyBytes: 1120))
        let report = AppleHelloReport(
            answer: ServerAnswerReader.answer(in: Self.record(22, Self.handshake(body)))!, helloBytes: 1700,
            bytesReceived: 0, milliseconds: nil)
        XCTAssertEqual(report.group, "X25519MLKEM768")
        XCTAssertTrue(report.serverChoseHybrid)
        XCTAssertTrue(report.summary.contains("not completed here"), report.summary)
    }

    func testAHelloRetryRequestNamesItsGroup() {
        let body = Self.serverHello(
            random: Self.hrrRandom, extensions: Self.tls13 + [0x00, 0x33, 0, 2] + Self.be16(0x0017))
        let answer = ServerAnswerReader.answer(in: Self.record(22, Self.handshake(body)))
        XCTAssertEqual(answer, .helloRetryRequest(ServerHelloFacts(version: 0x0304, cipherSuite: 0x1302, group: 0x17)))
    }

    func testAHelloRetryRequestForAGroupAlreadySharedIsFatalForTheClient() {
        // RFC 8446 4.2.8: a selected_group the first ClientHello already sent a share for makes the
        // client abort with illegal_parameter.
        let body = Self.serverHello(random: Self.hrrRandom, extensions: Self.tls13 + [0x00, 0x33, 0, 2, 0, 0x1D])
        let report = AppleHelloReport(
            answer: ServerAnswerReader.answer(in: Self.record(22, Self.handshake(body)))!, helloBytes: 1700,
            bytesReceived: 0, milliseconds: nil)
        XCTAssertEqual(report.outcome, .helloRetryRequest)
        XCTAssertEqual(report.group, "x25519")
        XCTAssertTrue(report.summary.contains("illegal_parameter"), report.summary)
    }

    func testAServerHelloOrRetryForAGroupNotSharedIsFatalForTheClient() {
        // RFC 8446 4.2.8: a ServerHello's share must be in a group the client sent a share for, and
        // a HelloRetryRequest must name a group of supported_groups; otherwise illegal_parameter.
        let hello = Self.serverHello(
            random: [UInt8](repeating: 1, count: 32), extensions: Self.tls13 + Self.keyShare(group: 0x17, keyBytes: 65))
        let chosen = AppleHelloReport(
            answer: ServerAnswerReader.answer(in: Self.record(22, Self.handshake(hello)))!, helloBytes: 1700,
            bytesReceived: 0, milliseconds: nil)
        XCTAssertEqual(chosen.group, "secp256r1")
        XCTAssertTrue(chosen.summary.contains("no share for"), chosen.summary)
        let retry = Self.serverHello(random: Self.hrrRandom, extensions: Self.tls13 + [0x00, 0x33, 0, 2, 0x01, 0x00])
        let asked = AppleHelloReport(
            answer: ServerAnswerReader.answer(in: Self.record(22, Self.handshake(retry)))!, helloBytes: 1700,
            bytesReceived: 0, milliseconds: nil)
        XCTAssertEqual(asked.group, "ffdhe2048")
        XCTAssertTrue(asked.summary.contains("does not offer"), asked.summary)
    }

    func testATLS12ServerHelloHasNoGroupYet() {
        let body = Self.serverHello(random: [UInt8](repeating: 1, count: 32), suite: 0xC02F, extensions: [])
        XCTAssertEqual(
            ServerAnswerReader.answer(in: Self.record(22, Self.handshake(body))),
            .serverHello(ServerHelloFacts(version: 0x0303, cipherSuite: 0xC02F, group: nil)))
    }

    func testAnAlert() {
        XCTAssertEqual(ServerAnswerReader.answer(in: Self.record(21, [2, 40])), .alert(level: 2, description: 40))
        XCTAssertEqual(TLSNames.alert(level: 2, description: 40), "fatal handshake_failure (40)")
    }

    func testAServerHelloSplitAcrossRecordsIsReassembled() {
        let message = Self.handshake(
            Self.serverHello(random: [UInt8](repeating: 1, count: 32), extensions: Self.tls13))
        let bytes = Self.record(22, Array(message.prefix(10))) + Self.record(22, Array(message.dropFirst(10)))
        XCTAssertEqual(
            ServerAnswerReader.answer(in: bytes),
            .serverHello(ServerHelloFacts(version: 0x0304, cipherSuite: 0x1302, group: nil)))
    }

    func testEveryTruncationAsksForMoreBytes() {
        let whole = Self.record(
            22, Self.handshake(Self.serverHello(random: [UInt8](repeating: 1, count: 32), extensions: Self.tls13)))
        for n in 0..<whole.count {
            XCTAssertNil(ServerAnswerReader.answer(in: Array(whole.prefix(n))), "prefix of \(n) bytes")
        }
        XCTAssertNotNil(ServerAnswerReader.answer(in: whole))
    }

    func testHostileLengthsAreRefusedNotAwaited() {
        // RFC 8446 5.1: no record is longer than 2^14 (+256 protected).
        guard case .malformed(let why) = ServerAnswerReader.answer(in: [22, 3, 3, 0xFF, 0xFF]) else {
            return XCTFail("a 65,535-byte record was awaited")
        }
        XCTAssertTrue(why.contains("65535"), why)
        // A ServerHello claiming 16 MB is past the budget.
        XCTAssertEqual(
            ServerAnswerReader.answer(in: Self.record(22, [2, 0xFF, 0xFF, 0xFF])),
            .malformed("a ServerHello of 16777215 bytes, past the 16384-byte budget"))
        // Once the budget is read, an answer still incomplete is decided, not awaited.
        let partial = [22, 3, 3, 0, 100] + [UInt8](repeating: 0, count: 59)
        XCTAssertNil(ServerAnswerReader.answer(in: Array(partial.prefix(63)), budget: 64))
        XCTAssertEqual(
            ServerAnswerReader.answer(in: partial, budget: 64), .malformed("no complete answer in the first 64 bytes"))
        // A session ID echo longer than RFC 8446's 32 bytes.
        var body = Self.serverHello(random: [UInt8](repeating: 1, count: 32), extensions: Self.tls13)
        body[34] = 33
        XCTAssertEqual(
            ServerAnswerReader.answer(in: Self.record(22, Self.handshake(body))), .malformed("a truncated ServerHello"))
        // Extensions whose length runs past the message.
        let overrun = Self.serverHello(random: [UInt8](repeating: 1, count: 32), extensions: [0x00, 0x2B, 0, 9, 3, 4])
        XCTAssertEqual(
            ServerAnswerReader.answer(in: Self.record(22, Self.handshake(overrun))),
            .malformed("a ServerHello extension that overruns its block"))
    }

    func testPlaintextIsNotTLSAndQuotedPrintably() {
        guard case .malformed(let why) = ServerAnswerReader.answer(in: Array("HTTP/1.1 400 Bad\r\n\u{1b}[2J".utf8))
        else { return XCTFail("HTTP taken for TLS") }
        XCTAssertTrue(why.hasPrefix("not TLS"), why)
        XCTAssertTrue(why.contains("HTTP/1.1 400 Bad"), why)
        XCTAssertFalse(why.contains("\u{1b}"), "control bytes reach no terminal")
        XCTAssertEqual(
            ServerAnswerReader.answer(in: Self.record(23, [1, 2, 3])).map {
                if case .malformed = $0 { true } else { false }
            },
            true)
    }
}
