import AppleHello
import XCTest

/// The iOS 26-shaped ClientHello's bytes, read back with a parser of the test's own written from
/// RFC 8446 4.1.2 (ClientHello), 4.2 (extensions), RFC 6066 3 (server_name), RFC 7301 3.1 (ALPN)
/// and draft-ietf-tls-ecdhe-mlkem (X25519MLKEM768 = 0x11EC, a client share of 1,184 + 32 bytes).
final class AppleClientHelloTests: XCTestCase {
    /// A fixed generator so that a failure can be replayed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// The test's reading of a hello: each field found by its length prefix.
    struct Parsed {
        var recordType: UInt8 = 0
        var recordVersion: UInt16 = 0
        var recordLength = 0
        var handshakeType: UInt8 = 0
        var handshakeLength = 0
        var legacyVersion: UInt16 = 0
        var sessionID: [UInt8] = []
        var suites: [UInt16] = []
        var compression: [UInt8] = []
        var extensions: [(type: UInt16, data: [UInt8])] = []

        func data(_ type: UInt16) -> [UInt8]? { extensions.first { $0.type == type }?.data }
    }

    struct Cursor {
        let b: [UInt8]
        var i = 0
        mutating func u8() throws -> UInt8 {
            guard i < b.count else { throw Short() }
            defer { i += 1 }
            return b[i]
        }
        mutating func u16() throws -> UInt16 { UInt16(try u8()) << 8 | UInt16(try u8()) }
        mutating func u24() throws -> Int { Int(try u8()) << 16 | Int(try u16()) }
        mutating func take(_ n: Int) throws -> [UInt8] {
            guard n >= 0, b.count - i >= n else { throw Short() }
            defer { i += n }
            return Array(b[i..<(i + n)])
        }
        var atEnd: Bool { i == b.count }
    }

    struct Short: Error {}

    static func parse(_ record: [UInt8]) throws -> Parsed {
        var p = Parsed()
        var c = Cursor(b: record)
        p.recordType = try c.u8()
        p.recordVersion = try c.u16()
        p.recordLength = Int(try c.u16())
        p.handshakeType = try c.u8()
        p.handshakeLength = try c.u24()
        p.legacyVersion = try c.u16()
        _ = try c.take(32)
        p.sessionID = try c.take(Int(try c.u8()))
        let suites = try c.take(Int(try c.u16()))
        p.suites = stride(from: 0, to: suites.count, by: 2).map { UInt16(suites[$0]) << 8 | UInt16(suites[$0 + 1]) }
        p.compression = try c.take(Int(try c.u8()))
        var e = Cursor(b: try c.take(Int(try c.u16())))
        XCTAssertTrue(c.atEnd, "bytes after the extensions")
        while !e.atEnd { p.extensions.append((try e.u16(), try e.take(Int(try e.u16())))) }
        return p
    }

    static func u16s(_ b: ArraySlice<UInt8>) -> [UInt16] {
        let a = Array(b)
        return stride(from: 0, to: a.count - 1, by: 2).map { UInt16(a[$0]) << 8 | UInt16(a[$0 + 1]) }
    }

    func hello(_ name: String? = "www.example.com", seed: UInt64 = 7) -> AppleClientHello {
        var g = Seeded(state: seed)
        return AppleClientHello(serverName: name, using: &g)
    }

    func testTheRecordAndHandshakeLengthsAddUp() throws {
        let h = hello()
        let p = try Self.parse(h.record)
        XCTAssertEqual(p.recordType, 22, "RFC 8446 5.1: handshake")
        XCTAssertEqual(p.recordVersion, 0x0301, "RFC 8446 5.1: 0x0301 allowed in an initial ClientHello")
        XCTAssertEqual(p.recordLength, h.record.count - 5)
        XCTAssertEqual(p.handshakeType, 1, "client_hello")
        XCTAssertEqual(p.handshakeLength, h.record.count - 9)
        XCTAssertEqual(p.legacyVersion, 0x0303, "RFC 8446 4.1.2: legacy_version 0x0303")
        XCTAssertEqual(p.sessionID.count, 32, "compatibility mode (RFC 8446 D.4)")
        XCTAssertEqual(p.compression, [0], "RFC 8446 4.1.2: exactly one byte, null")
        // Over 1,200 bytes, as Apple's article and every capture of a hello with the hybrid say, and
        // past one 1,460-byte TCP segment of a 1,500-byte path: the size that trips middleboxes.
        XCTAssertGreaterThan(h.record.count, 1460)
        XCTAssertLessThan(p.recordLength, 16_384, "RFC 8446 5.1: one record holds it")
    }

    func testTheHybridShareIs1216BytesAndComesWithX25519s() throws {
        let p = try Self.parse(hello().record)
        let ks = try XCTUnwrap(p.data(0x0033))
        var c = Cursor(b: ks)
        let listLength = Int(try c.u16())
        XCTAssertEqual(listLength, ks.count - 2)
        var shares: [(UInt16, [UInt8])] = []
        while !c.atEnd { shares.append((try c.u16(), try c.take(Int(try c.u16())))) }
        XCTAssertEqual(shares.count, 3)
        XCTAssertTrue(AppleClientHello.isGREASE(shares[0].0), "RFC 8701: a GREASE share first")
        XCTAssertEqual(shares[0].1.count, 1)
        XCTAssertEqual(shares[1].0, 0x11EC, "X25519MLKEM768")
        XCTAssertEqual(shares[1].1.count, 1216, "draft-ietf-tls-ecdhe-mlkem: 1,184-byte ML-KEM-768 key + 32")
        XCTAssertEqual(shares[2].0, 0x001D, "x25519")
        XCTAssertEqual(shares[2].1.count, 32, "RFC 7748: 32 bytes")
        // FIPS 203 7.2: the encapsulation key's 768 12-bit coefficients are each below q = 3,329.
        let key = shares[1].1.prefix(1152)
        for i in stride(from: 0, to: 1152, by: 3) {
            let a = Int(key[key.startIndex + i]) | (Int(key[key.startIndex + i + 1]) & 0x0F) << 8
            let b = Int(key[key.startIndex + i + 1]) >> 4 | Int(key[key.startIndex + i + 2]) << 4
            XCTAssertLessThan(a, 3329)
            XCTAssertLessThan(b, 3329)
        }
        // RFC 8446 4.2.8: shares in supported_groups' order, hybrid first as Apple's article says.
        let groups = Self.u16s(try XCTUnwrap(p.data(0x000A)).dropFirst(2))
        XCTAssertTrue(AppleClientHello.isGREASE(groups[0]))
        XCTAssertEqual(Array(groups.dropFirst()), [0x11EC, 0x001D, 0x0017, 0x0018, 0x0019])
        XCTAssertEqual(groups[0], shares[0].0, "the GREASE share's group is the GREASE group offered")
    }

    func testTheOtherExtensionsAndTheirOrder() throws {
        let p = try Self.parse(hello().record)
        let types = p.extensions.map { AppleClientHello.isGREASE($0.type) ? 0x0A0A : $0.type }
        XCTAssertEqual(types, AppleClientHello.extensionOrder)
        XCTAssertNotEqual(p.extensions.first?.type, p.extensions.last?.type, "RFC 8701: two GREASE extensions differ")
        // RFC 6066 3: a list of one host_name (type 0) entry.
        XCTAssertEqual(p.data(0x0000), [0, 18, 0, 0, 15] + Array("www.example.com".utf8))
        // RFC 7301 3.1: h2 then http/1.1, as URLSession offers for HTTPS.
        XCTAssertEqual(p.data(0x0010), [0, 12, 2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8))
        let versions = try XCTUnwrap(p.data(0x002B))
        XCTAssertEqual(Int(versions[0]), versions.count - 1)
        XCTAssertEqual(Array(Self.u16s(versions.dropFirst()).dropFirst()), [0x0304, 0x0303], "TLS 1.3 and 1.2 only")
        XCTAssertEqual(p.data(0x002D), [1, 1], "psk_dhe_ke")
        XCTAssertEqual(Self.u16s(try XCTUnwrap(p.data(0x000D)).dropFirst(2)), AppleClientHello.signatureAlgorithms)
        XCTAssertEqual(Array(p.suites.dropFirst()), AppleClientHello.cipherSuites)
        XCTAssertTrue(AppleClientHello.isGREASE(p.suites[0]))
        XCTAssertEqual(p.suites[1], 0x1302, "TLS_AES_256_GCM_SHA384 first: the suite Apple's article shows negotiated")
        XCTAssertNil(p.data(0x0015), "no padding: the hello is past 512 bytes")
    }

    func testAnIPAddressTargetSendsNoServerName() throws {
        let p = try Self.parse(hello(nil).record)
        XCTAssertNil(p.data(0x0000), "RFC 6066 3: no IP literals in server_name")
        XCTAssertEqual(p.extensions.count, AppleClientHello.extensionOrder.count - 1)
    }

    func testTwoHellosDifferInTheirRandomParts() throws {
        let a = try Self.parse(hello(seed: 1).record)
        let b = try Self.parse(hello(seed: 2).record)
        XCTAssertNotEqual(a.data(0x0033), b.data(0x0033))
        XCTAssertNotEqual(a.sessionID, b.sessionID)
    }
}
