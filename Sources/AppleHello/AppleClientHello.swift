/// A ClientHello shaped as iOS and macOS 26's: X25519MLKEM768 first in supported_groups with its
/// 1,216-byte key share beside x25519's, so that the record is as large as the devices' and a
/// middlebox that cannot take it shows itself (docs/connecting.md, "The second hello").
///
/// Where each value comes from (D431): Apple's support article "Prepare your network for
/// quantum-secure encryption in TLS" (support.apple.com/122756) says that the ClientHello of iOS,
/// iPadOS, macOS and visionOS 26 includes X25519MLKEM768 in supported_groups and a matching share
/// in key_share, and that such a server negotiates TLS 1.3 (0x0304) with TLS_AES_256_GCM_SHA384
/// (0x1302). The rest (the suites and their order, the extension order, the signature algorithms,
/// GREASE, the last one-byte GREASE extension) follows the published captures of Safari 26's
/// ClientHello (its JA4 fingerprints t13d2014h2 and, without the padding a large hello no longer
/// needs, t13d2013h2) and is UNCONFIRMED by Apple.
public struct AppleClientHello: Sendable {
    /// X25519MLKEM768's code point (draft-ietf-tls-ecdhe-mlkem, IANA TLS Supported Groups).
    public static let x25519MLKEM768: UInt16 = 0x11EC
    /// x25519 (RFC 8446 4.2.7).
    public static let x25519: UInt16 = 0x001D
    /// ML-KEM-768's encapsulation key (FIPS 203, table 3: 384 k + 32 bytes, k = 3).
    public static let mlkemEncapsulationKeyBytes = 1184
    /// X25519MLKEM768's client share: the ML-KEM-768 encapsulation key, then the X25519 key
    /// (draft-ietf-tls-ecdhe-mlkem 4.1: 1,184 + 32).
    public static let hybridShareBytes = mlkemEncapsulationKeyBytes + 32

    /// The cipher suites after the GREASE value, in the captures' order (UNCONFIRMED by Apple):
    /// the three TLS 1.3 suites with AES-256 first, then the TLS 1.2 suites Safari still offers.
    public static let cipherSuites: [UInt16] = [
        0x1302, 0x1303, 0x1301, 0xC02C, 0xC02B, 0xCCA9, 0xC030, 0xC02F, 0xCCA8, 0xC00A, 0xC009, 0xC014,
        0xC013, 0x009D, 0x009C, 0x0035, 0x002F, 0xC008, 0xC012, 0x000A,
    ]
    /// supported_groups after the GREASE value: the hybrid first (Apple's article), then x25519
    /// and the NIST curves.
    public static let groups: [UInt16] = [x25519MLKEM768, x25519, 0x0017, 0x0018, 0x0019]
    /// signature_algorithms as the captures show them, rsa_pss_rsae_sha384 twice included.
    public static let signatureAlgorithms: [UInt16] = [
        0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0805, 0x0501, 0x0806, 0x0601, 0x0201,
    ]
    /// The extension types in the order sent, GREASE shown as 0x0A0A.
    public static let extensionOrder: [UInt16] = [
        0x0A0A, 0x0000, 0x0017, 0xFF01, 0x000A, 0x000B, 0x0010, 0x0005, 0x000D, 0x0012, 0x0033, 0x002D,
        0x002B, 0x001B, 0x0A0A,
    ]

    /// The TLS record as sent: header, then the ClientHello handshake message.
    public let record: [UInt8]
    /// The server name sent, nil when none (an IP-address target, as Apple's clients send).
    public let serverName: String?

    /// Builds a hello with fresh random values.
    /// - Parameters:
    ///   - serverName: The server_name to send; nil or an empty name sends none.
    ///   - alpn: The ALPN protocols (`h2`, `http/1.1` for HTTPS, as URLSession); empty sends none.
    ///   - generator: Where the random, session ID, GREASE values and key shares come from.
    public init(
        serverName: String?, alpn: [String] = ["h2", "http/1.1"], using generator: inout some RandomNumberGenerator
    ) {
        let name = serverName.flatMap { $0.isEmpty ? nil : $0 }
        self.serverName = name
        // RFC 8701: GREASE values are 0x?A?A; the two extensions must differ.
        let greaseCipher = Self.grease(&generator)
        let greaseGroup = Self.grease(&generator)
        let greaseVersion = Self.grease(&generator)
        let greaseFirst = Self.grease(&generator)
        var greaseLast = Self.grease(&generator)
        if greaseLast == greaseFirst { greaseLast ^= 0x1010 }

        var body = HelloWriter()
        body.u16(0x0303)  // RFC 8446 4.1.2: legacy_version is TLS 1.2
        body.random(32, &generator)
        body.u8(32)  // a 32-byte legacy_session_id: middlebox compatibility mode (RFC 8446 D.4)
        body.random(32, &generator)
        body.vector16 { w in ([greaseCipher] + Self.cipherSuites).forEach { w.u16($0) } }
        body.append([1, 0])  // compression: null only
        body.vector16 { ext in
            ext.extension(greaseFirst) { _ in }
            if let name {
                ext.extension(0x0000) { w in  // RFC 6066 3: one host_name entry
                    w.vector16 { list in
                        list.u8(0)
                        list.vector16 { $0.append(Array(name.utf8)) }
                    }
                }
            }
            ext.extension(0x0017) { _ in }  // extended_master_secret
            ext.extension(0xFF01) { $0.u8(0) }  // renegotiation_info, empty
            ext.extension(0x000A) { w in w.vector16 { l in ([greaseGroup] + Self.groups).forEach { l.u16($0) } } }
            ext.extension(0x000B) { $0.append([1, 0]) }  // ec_point_formats: uncompressed
            if !alpn.isEmpty {
                ext.extension(0x0010) { w in
                    w.vector16 { list in alpn.forEach { p in list.vector8 { $0.append(Array(p.utf8)) } } }
                }
            }
            ext.extension(0x0005) { $0.append([1, 0, 0, 0, 0]) }  // status_request: OCSP, no ids
            ext.extension(0x000D) { w in w.vector16 { l in Self.signatureAlgorithms.forEach { l.u16($0) } } }
            ext.extension(0x0012) { _ in }  // signed_certificate_timestamp
            ext.extension(0x0033) { w in
                w.vector16 { shares in
                    shares.u16(greaseGroup)
                    shares.vector16 { $0.u8(0) }
                    shares.u16(Self.x25519MLKEM768)
                    shares.vector16 { $0.append(Self.hybridShare(&generator)) }
                    shares.u16(Self.x25519)
                    shares.vector16 { $0.random(32, &generator) }
                }
            }
            ext.extension(0x002D) { $0.append([1, 1]) }  // psk_key_exchange_modes: psk_dhe_ke
            ext.extension(0x002B) { w in w.vector8 { l in [greaseVersion, 0x0304, 0x0303].forEach { l.u16($0) } } }
            ext.extension(0x001B) { w in w.vector8 { $0.u16(0x0001) } }  // compress_certificate: zlib
            // BoringSSL's habit, which the captures show: the last GREASE extension carries one byte.
            ext.extension(greaseLast) { $0.u8(0) }
        }
        var message = HelloWriter()
        message.u8(1)  // client_hello
        message.u24(body.bytes.count)
        message.append(body.bytes)
        var record = HelloWriter()
        // RFC 8446 5.1: an initial ClientHello's legacy_record_version may be 0x0301.
        record.append([0x16, 0x03, 0x01])
        record.u16(UInt16(message.bytes.count))
        record.append(message.bytes)
        self.record = record.bytes
    }

    /// Builds a hello from the system's random numbers.
    /// - Parameters:
    ///   - serverName: The server_name to send; nil sends none.
    ///   - alpn: The ALPN protocols; empty sends none.
    public init(serverName: String?, alpn: [String] = ["h2", "http/1.1"]) {
        var system = SystemRandomNumberGenerator()
        self.init(serverName: serverName, alpn: alpn, using: &system)
    }

    /// A GREASE value (RFC 8701 2: 0x0A0A, 0x1A1A ... 0xFAFA).
    static func grease(_ g: inout some RandomNumberGenerator) -> UInt16 {
        let n = UInt16.random(in: 0...15, using: &g)
        return 0x0A0A | (n << 12) | (n << 4)
    }

    /// Whether `value` is a GREASE value.
    public static func isGREASE(_ value: UInt16) -> Bool {
        value & 0x0F0F == 0x0A0A && value >> 12 == (value >> 4) & 0xF
    }

    /// A random share that a server implementing ML-KEM accepts: FIPS 203 7.2's modulus check
    /// requires each 12-bit coefficient of the encoded key below q = 3,329, so the 768
    /// coefficients are drawn below q and packed two to three bytes (ByteEncode12); the 32-byte
    /// seed rho and the X25519 key are any bytes. Nobody holds its secret: nothing a server sends
    /// back can be decapsulated, and the handshake is never finished.
    static func hybridShare(_ g: inout some RandomNumberGenerator) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(hybridShareBytes)
        for _ in 0..<384 {
            let a = UInt16.random(in: 0..<3329, using: &g)
            let b = UInt16.random(in: 0..<3329, using: &g)
            out.append(UInt8(a & 0xFF))
            out.append(UInt8(a >> 8) | UInt8(b & 0xF) << 4)
            out.append(UInt8(b >> 4))
        }
        for _ in 0..<(32 + 32) { out.append(UInt8.random(in: 0...255, using: &g)) }
        return out
    }
}

/// Big-endian TLS encoding with length-prefixed vectors (RFC 8446 3.4).
struct HelloWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u24(_ v: Int) { bytes += [UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    mutating func append(_ b: [UInt8]) { bytes += b }
    mutating func random(_ n: Int, _ g: inout some RandomNumberGenerator) {
        for _ in 0..<n { bytes.append(UInt8.random(in: 0...255, using: &g)) }
    }

    /// A vector with a one-byte length.
    mutating func vector8(_ fill: (inout HelloWriter) -> Void) {
        var inner = HelloWriter()
        fill(&inner)
        u8(UInt8(inner.bytes.count))
        bytes += inner.bytes
    }

    /// A vector with a two-byte length.
    mutating func vector16(_ fill: (inout HelloWriter) -> Void) {
        var inner = HelloWriter()
        fill(&inner)
        u16(UInt16(inner.bytes.count))
        bytes += inner.bytes
    }

    /// An extension: its type, then its data as a two-byte-length vector.
    mutating func `extension`(_ type: UInt16, _ fill: (inout HelloWriter) -> Void) {
        u16(type)
        vector16(fill)
    }
}
