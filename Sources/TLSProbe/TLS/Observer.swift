import ATSModel
import TrustCore

/// Watches the handshake through OpenSSL's message callback: the chain exactly as sent (order,
/// duplicates, even certificates OpenSSL would not parse), the version the ServerHello chose,
/// a CertificateRequest, session tickets and alerts in either direction. Used on one thread,
/// the one running the handshake; OpenSSL calls it synchronously from inside SSL_do_handshake.
final class HandshakeObserver {
    let maximumChainLength: Int

    private(set) var serverHelloSeen = false
    private(set) var serverVersion: TLSVersion?
    /// The version in an unusable ServerHello (SSL 3.0, or beyond 1.3), for messages.
    private(set) var serverWireVersion: UInt16?
    private(set) var chain: [[UInt8]] = []
    /// The number of certificates the server's Certificate message held (may exceed `chain`).
    private(set) var chainCount = 0
    private(set) var certificateRequested = false
    private(set) var clientCertificateSent = false
    private(set) var ticketReceived = false
    private(set) var alertReceived: TLSAlert?
    private(set) var alertSent: TLSAlert?
    /// The last handshake message type received, for "closed after …" messages.
    private(set) var lastReceived: UInt8?

    init(maximumChainLength: Int) {
        self.maximumChainLength = maximumChainLength
    }

    var chainTooLong: Bool { chainCount > maximumChainLength }

    /// Called for every protocol message (content types 20-23 and pseudo types 256+).
    func record(sent: Bool, contentType: Int32, _ bytes: UnsafeRawBufferPointer) {
        switch contentType {
        case 21 where bytes.count >= 2:  // alert: level, description
            let alert = TLSAlert(code: bytes[1], fatal: bytes[0] == 2)
            if sent { alertSent = alertSent ?? alert } else { alertReceived = alertReceived ?? alert }
        case 22 where bytes.count >= 4:  // handshake: type, u24 length, body
            let type = bytes[0]
            let body = Array(bytes[4...])
            if sent {
                if type == 11 {
                    clientCertificateSent = Self.certificateListIsNonEmpty(body, tls13: serverVersion == .tls1_3)
                }
                return
            }
            lastReceived = type
            switch type {
            case 2: parseServerHello(body)
            case 11: parseCertificate(body)
            case 13: certificateRequested = true
            case 4: ticketReceived = true
            default: break
            }
        default:
            break
        }
    }

    private func parseServerHello(_ body: [UInt8]) {
        var r = ByteReader(body)
        guard let legacy = r.u16(), r.skip(32), let sidLen = r.u8(), r.skip(Int(sidLen)), r.skip(3) else { return }
        serverHelloSeen = true
        var version = legacy
        if let extLen = r.u16(), var exts = r.sub(Int(extLen)) {
            while let type = exts.u16(), let len = exts.u16(), var data = exts.sub(Int(len)) {
                // supported_versions (RFC 8446 4.2.1) carries the real choice in TLS 1.3.
                if type == 43, len == 2, let v = data.u16() { version = v }
            }
        }
        serverWireVersion = version
        serverVersion = TLSVersion(rawValue: Int(version))
    }

    private func parseCertificate(_ body: [UInt8]) {
        var r = ByteReader(body)
        let tls13 = serverVersion == .tls1_3
        if tls13 {
            guard let ctxLen = r.u8(), r.skip(Int(ctxLen)) else { return }
        }
        guard let listLen = r.u24(), var list = r.sub(listLen) else { return }
        var certs: [[UInt8]] = []
        var count = 0
        while let len = list.u24(), let der = list.bytes(len) {
            count += 1
            // Keep at most one beyond the bound: enough to say the chain is too long.
            if certs.count <= maximumChainLength { certs.append(der) }
            if tls13 {
                guard let extLen = list.u16(), list.skip(Int(extLen)) else { break }
            }
        }
        chain = certs
        chainCount = count
    }

    static func certificateListIsNonEmpty(_ body: [UInt8], tls13: Bool) -> Bool {
        var r = ByteReader(body)
        if tls13 {
            guard let ctxLen = r.u8(), r.skip(Int(ctxLen)) else { return false }
        }
        return (r.u24() ?? 0) > 0
    }
}

/// A bounds-checked big-endian reader: hostile input yields nil, never a trap.
struct ByteReader {
    private let data: [UInt8]
    private var offset: Int
    private let end: Int

    init(_ data: [UInt8]) {
        self.data = data
        offset = 0
        end = data.count
    }

    private init(_ data: [UInt8], offset: Int, end: Int) {
        self.data = data
        self.offset = offset
        self.end = end
    }

    var isAtEnd: Bool { offset >= end }

    mutating func u8() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return data[offset]
    }

    mutating func u16() -> UInt16? {
        guard end - offset >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(data[offset]) << 8 | UInt16(data[offset + 1])
    }

    mutating func u24() -> Int? {
        guard end - offset >= 3 else { return nil }
        defer { offset += 3 }
        return Int(data[offset]) << 16 | Int(data[offset + 1]) << 8 | Int(data[offset + 2])
    }

    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, end - offset >= n else { return false }
        offset += n
        return true
    }

    mutating func bytes(_ n: Int) -> [UInt8]? {
        guard n >= 0, end - offset >= n else { return nil }
        defer { offset += n }
        return Array(data[offset..<offset + n])
    }

    mutating func sub(_ n: Int) -> ByteReader? {
        guard n >= 0, end - offset >= n else { return nil }
        defer { offset += n }
        return ByteReader(data, offset: offset, end: offset + n)
    }
}
