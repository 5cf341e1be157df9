internal import COpenSSL

/// Message digests through OpenSSL's one-shot functions (no EVP fetch per call).
public enum Digest {
    /// SHA-256 of `data`.
    public static func sha256<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        withBytes(data) { digest(.sha256, $0) }
    }

    /// SHA-1 of `data` (fingerprints only).
    public static func sha1<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        withBytes(data) { digest(.sha1, $0) }
    }

    static func withBytes<C: Collection, R>(_ data: C, _ body: (UnsafeRawBufferPointer) -> R) -> R
    where C.Element == UInt8 {
        if let r = data.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return r }
        return Array(data).withUnsafeBytes(body)
    }

    /// The low-level context functions are used on purpose: OpenSSL 3.0's one-shot `SHA256()`
    /// fetches the algorithm on every call, which costs more than hashing a certificate.
    static func digest(_ kind: HashKind, _ data: UnsafeRawBufferPointer) -> [UInt8] {
        let p = data.baseAddress
        let n = data.count
        return [UInt8](unsafeUninitializedCapacity: 64) { out, count in
            let o = out.baseAddress
            switch kind {
            case .md5:
                var c = MD5_CTX()
                MD5_Init(&c)
                MD5_Update(&c, p, n)
                MD5_Final(o, &c)
                count = 16
            case .sha1:
                var c = SHA_CTX()
                SHA1_Init(&c)
                SHA1_Update(&c, p, n)
                SHA1_Final(o, &c)
                count = 20
            case .sha224:
                var c = SHA256_CTX()
                SHA224_Init(&c)
                SHA224_Update(&c, p, n)
                SHA224_Final(o, &c)
                count = 28
            case .sha256:
                var c = SHA256_CTX()
                SHA256_Init(&c)
                SHA256_Update(&c, p, n)
                SHA256_Final(o, &c)
                count = 32
            case .sha384:
                var c = SHA512_CTX()
                SHA384_Init(&c)
                SHA384_Update(&c, p, n)
                SHA384_Final(o, &c)
                count = 48
            case .sha512:
                var c = SHA512_CTX()
                SHA512_Init(&c)
                SHA512_Update(&c, p, n)
                SHA512_Final(o, &c)
                count = 64
            }
        }
    }
}

/// The hash functions certificate signatures use.
public enum HashKind: String, Sendable {
    case md5, sha1, sha224, sha256, sha384, sha512

    var nid: Int32 {
        switch self {
        case .md5: NID_md5
        case .sha1: NID_sha1
        case .sha224: NID_sha224
        case .sha256: NID_sha256
        case .sha384: NID_sha384
        case .sha512: NID_sha512
        }
    }

    package var evp: OpaquePointer? {
        switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha224: EVP_sha224()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
    }

    init?(oid: OID) {
        switch oid {
        case .sha1: self = .sha1
        case .sha224: self = .sha224
        case .sha256: self = .sha256
        case .sha384: self = .sha384
        case .sha512: self = .sha512
        default: return nil
        }
    }
}

/// Standard base64 (RFC 4648 4), with padding.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Encodes `bytes`.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let b = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((b.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < b.count {
            let v = UInt32(b[i]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2])
            out += [
                alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], alphabet[Int(v & 63)],
            ]
            i += 3
        }
        let rest = b.count - i
        if rest == 1 {
            let v = UInt32(b[i]) << 16
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], 0x3D, 0x3D]
        } else if rest == 2 {
            let v = UInt32(b[i]) << 16 | UInt32(b[i + 1]) << 8
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], 0x3D]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64, ignoring ASCII whitespace; nil on any other invalid character or bad padding.
    public static func decode<C: Collection>(_ text: C) -> [UInt8]? where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var acc: UInt32 = 0
        var n = 0
        var padding = 0
        for c in text {
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { continue }
            if c == 0x3D {
                padding += 1
                continue
            }
            guard padding == 0 else { return nil }
            let v = reverse[Int(c)]
            guard v != 0xFF else { return nil }
            acc = acc << 6 | UInt32(v)
            n += 1
            if n == 4 {
                out.append(UInt8(acc >> 16))
                out.append(UInt8(acc >> 8 & 0xFF))
                out.append(UInt8(acc & 0xFF))
                acc = 0
                n = 0
            }
        }
        switch (n, padding) {
        case (0, 0): break
        case (2, 2), (2, 0): out.append(UInt8(acc >> 4))
        case (3, 1), (3, 0): out += [UInt8(acc >> 10), UInt8(acc >> 2 & 0xFF)]
        default: return nil
        }
        return out
    }

    /// Decodes a base64 string.
    public static func decode(_ text: String) -> [UInt8]? { decode(Array(text.utf8)) }
}

/// A SHA-256 digest as four words, for sets and dictionary keys: hashing a `[UInt8]` feeds the
/// hasher byte by byte, which showed up in profiles of re-evaluation.
public struct DigestKey: Hashable, Sendable {
    let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// The first 32 bytes of `digest` (shorter input is zero-padded).
    public init(_ digest: [UInt8]) {
        func word(_ i: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<8 where i * 8 + k < digest.count { v = v << 8 | UInt64(digest[i * 8 + k]) }
            return v
        }
        w0 = word(0)
        w1 = word(1)
        w2 = word(2)
        w3 = word(3)
    }
}
