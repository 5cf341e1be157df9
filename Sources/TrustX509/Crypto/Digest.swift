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
