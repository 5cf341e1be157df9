/// A server that speaks only what OpenSSL 3 no longer has (RC4 or 3DES suites, SSL 3.0, SSL 2.0),
/// played by a small raw responder: it reads the client's first record (its ClientHello, up to a
/// bound) on the plain socket and answers with the bytes such a server sends, then closes. No
/// handshake ever completes, and none could with a current client: the answer is what makes the
/// client give up (D312).
public enum LabLegacyServer: Hashable, Sendable {
    /// A TLS 1.1-1.2 server whose only cipher suites are `suites` (badssl.com's rc4, rc4-md5 and
    /// 3des): a ClientHello offering none of them (every current client's) gets a fatal
    /// handshake_failure alert, as OpenSSL's "no shared cipher"; one below TLS 1.1 gets a
    /// protocol_version alert.
    case onlySuites([UInt16])
    /// An SSL 3.0-only server (ssl-v3): a ClientHello offering one of SSL 3.0's suites gets an SSL
    /// 3.0 ServerHello, the certificate and ServerHelloDone; one offering none (Apple's under ATS,
    /// which offers only forward-secret suites) gets a handshake_failure alert in an SSL 3.0 record.
    case ssl3
    /// An SSL 2.0-only server (ssl-v2): every ClientHello gets an SSL 2.0 SERVER-HELLO carrying the
    /// leaf and the server's two SSL 2.0 cipher kinds.
    case ssl2
}

extension LabLegacyServer {
    /// badssl.com's rc4 (`RC4:!MD5...`): TLS_ECDHE_RSA_WITH_RC4_128_SHA, TLS_RSA_WITH_RC4_128_SHA.
    public static let rc4: LabLegacyServer = .onlySuites([0xC011, 0x0005])
    /// badssl.com's rc4-md5 (`RC4:!SHA:MD5`): TLS_RSA_WITH_RC4_128_MD5.
    public static let rc4MD5: LabLegacyServer = .onlySuites([0x0004])
    /// badssl.com's 3des: TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA, TLS_RSA_WITH_3DES_EDE_CBC_SHA.
    public static let tripleDES: LabLegacyServer = .onlySuites([0xC012, 0x000A])

    /// SSL 3.0's suites this server would choose (RFC 6101's RSA key exchange and RFC 3268's AES,
    /// which OpenSSL allowed at SSL 3.0), in the server's order of preference. None needs a
    /// ServerKeyExchange, so the flight is ServerHello, Certificate, ServerHelloDone.
    static let ssl3Suites: [UInt16] = [0x0035, 0x002F, 0x000A, 0x0005, 0x0004]

    /// SSL 2.0's SSL_CK_RC4_128_WITH_MD5 and SSL_CK_DES_192_EDE3_CBC_WITH_MD5 (three bytes each).
    static let ssl2CipherKinds: [UInt8] = [0x01, 0x00, 0x80, 0x07, 0x00, 0xC0]

    /// The most of a client's first record the responder reads: a record's header and the
    /// largest plaintext TLS allows (2^14) plus the 2,048 bytes of expansion TLS 1.2 permits.
    public static let helloLimit = 5 + 16_384 + 2_048
}

/// The client's first record, as far as a legacy server reads it.
struct LabClientHello: Equatable {
    /// The version the ClientHello asks for (legacy_version: 0x0303 for TLS 1.2 and 1.3 clients;
    /// 0x0002 for an SSL 2.0 CLIENT-HELLO).
    var version: UInt16
    /// The TLS cipher suites offered (for an SSL 2.0 CLIENT-HELLO: those of its three-byte
    /// kinds whose first byte is 0, which are TLS suites).
    var suites: [UInt16]
    /// Whether it came in SSL 2.0's record format.
    var sslv2Format: Bool

    /// What a look at the bytes read so far finds.
    enum Parse: Equatable {
        /// The record is not complete yet (and within the limit).
        case incomplete
        /// A ClientHello.
        case hello(LabClientHello)
        /// Anything else: not a handshake record, not a ClientHello, or malformed.
        case notAClientHello
    }

    /// Reads the ClientHello from `bytes`, the start of what the client sent. Only the first
    /// record is read; every length is checked against the bytes at hand.
    static func parse(_ bytes: [UInt8]) -> Parse {
        guard let first = bytes.first else { return .incomplete }
        if first & 0x80 != 0 { return parseSSL2(bytes) }
        guard bytes.count >= 5 else { return first == 0x16 ? .incomplete : .notAClientHello }
        guard first == 0x16, bytes[1] == 0x03 else { return .notAClientHello }
        let length = Int(bytes[3]) << 8 | Int(bytes[4])
        guard length >= 4, 5 + length <= LabLegacyServer.helloLimit else { return .notAClientHello }
        guard bytes.count >= 5 + length else { return .incomplete }
        var r = ByteReader(bytes[5..<(5 + length)])
        // A ClientHello longer than its record continues in the next one; the suites come early,
        // so the first record is read as far as it goes.
        guard r.u8() == 1, r.u24() != nil, let version = r.u16(), r.skip(32), let session = r.u8(),
            r.skip(Int(session)), let suitesLength = r.u16(), suitesLength % 2 == 0
        else { return .notAClientHello }
        var suites: [UInt16] = []
        for _ in 0..<(Int(suitesLength) / 2) {
            guard let suite = r.u16() else { break }
            suites.append(suite)
        }
        return .hello(LabClientHello(version: version, suites: suites, sslv2Format: false))
    }

    /// An SSL 2.0 CLIENT-HELLO (RFC 6101 appendix E.1's backward-compatible form included): a
    /// two-byte header, message type 1, version, then the cipher specs.
    private static func parseSSL2(_ bytes: [UInt8]) -> Parse {
        guard bytes.count >= 2 else { return .incomplete }
        let length = Int(bytes[0] & 0x7F) << 8 | Int(bytes[1])
        guard length >= 9 else { return .notAClientHello }
        guard bytes.count >= 2 + length else { return .incomplete }
        var r = ByteReader(bytes[2..<(2 + length)])
        guard r.u8() == 1, let version = r.u16(), let specsLength = r.u16(), r.u16() != nil, r.u16() != nil,
            specsLength % 3 == 0
        else { return .notAClientHello }
        var suites: [UInt16] = []
        for _ in 0..<(Int(specsLength) / 3) {
            guard let high = r.u8(), let low = r.u16() else { break }
            if high == 0 { suites.append(low) }
        }
        return .hello(LabClientHello(version: version, suites: suites, sslv2Format: true))
    }
}

/// Big-endian reads from a slice, each nil past its end.
private struct ByteReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    mutating func u8() -> UInt8? { bytes.popFirst() }

    mutating func u16() -> UInt16? {
        guard let a = u8(), let b = u8() else { return nil }
        return UInt16(a) << 8 | UInt16(b)
    }

    mutating func u24() -> Int? {
        guard let a = u8(), let b = u16() else { return nil }
        return Int(a) << 16 | Int(b)
    }

    mutating func skip(_ n: Int) -> Bool {
        guard bytes.count >= n else { return false }
        bytes = bytes.dropFirst(n)
        return true
    }
}

extension LabLegacyServer {
    /// TLS's handshake_failure (40) and protocol_version (70) alerts.
    static let handshakeFailure: UInt8 = 40
    static let protocolVersion: UInt8 = 70

    /// What this server sends in answer to `hello`: the whole answer, after which it closes.
    /// `chain` is the certificate chain (DER, leaf first) and `random` supplies the ServerHello's
    /// random bytes and session or connection id.
    func answer(to hello: LabClientHello, chain: [[UInt8]], random: (Int) -> [UInt8]) -> [UInt8] {
        switch self {
        case .onlySuites:
            // OpenSSL settles the version before the suite: below TLS 1.1 nothing is in common.
            guard hello.version >= 0x0302 else { return Self.alert(Self.protocolVersion, recordVersion: 0x0301) }
            // A client offering one of the suites would go on with badssl.com's server; no
            // current client does, and the responder has no RC4 or 3DES to go on with, so every
            // client gets what current ones get.
            return Self.alert(Self.handshakeFailure, recordVersion: min(hello.version, 0x0303))
        case .ssl3:
            guard hello.version >= 0x0300 || hello.sslv2Format,
                let suite = hello.suites.first(where: { Self.ssl3Suites.contains($0) })
            else { return Self.alert(Self.handshakeFailure, recordVersion: 0x0300) }
            var serverHello: [UInt8] = [0x03, 0x00] + random(32)
            serverHello += [32] + random(32)
            serverHello += [UInt8(suite >> 8), UInt8(suite & 0xFF), 0x00]
            var certificates: [UInt8] = []
            for der in chain { certificates += Self.u24(der.count) + der }
            let messages =
                Self.handshake(2, serverHello) + Self.handshake(11, Self.u24(certificates.count) + certificates)
                + Self.handshake(14, [])
            return Self.records(type: 0x16, version: 0x0300, messages)
        case .ssl2:
            let leaf = chain.first ?? []
            let connectionID = random(16)
            var message: [UInt8] = [4, 0, 1, 0x00, 0x02]
            message += Self.u16(leaf.count) + Self.u16(Self.ssl2CipherKinds.count) + Self.u16(connectionID.count)
            message += leaf + Self.ssl2CipherKinds + connectionID
            // SSL 2.0's two-byte header holds lengths up to 32,767.
            guard message.count <= 0x7FFF else { return [] }
            return [0x80 | UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        }
    }

    static func alert(_ description: UInt8, recordVersion: UInt16) -> [UInt8] {
        [0x15] + u16(Int(recordVersion)) + [0x00, 0x02, 0x02, description]
    }

    static func handshake(_ type: UInt8, _ body: [UInt8]) -> [UInt8] { [type] + u24(body.count) + body }

    /// `payload` cut into records of at most 2^14 bytes.
    static func records(type: UInt8, version: UInt16, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < payload.count {
            let end = min(payload.count, start + 16_384)
            out += [type] + u16(Int(version)) + u16(end - start) + payload[start..<end]
            start = end
        }
        return out
    }

    static func u16(_ n: Int) -> [UInt8] { [UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] }
    static func u24(_ n: Int) -> [UInt8] { [UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] }
}
