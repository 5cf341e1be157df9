internal import COpenSSL
import TrustX509

public final class KeyPair: @unchecked Sendable {
    private let pkey: OpaquePointer
    /// What kind of key this is.
    public let kind: KeyKind

    private init(takingOwnership pkey: OpaquePointer, kind: KeyKind) {
        self.pkey = pkey
        self.kind = kind
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Generates a fresh key of `kind`.
    ///
    /// RSA generation takes tens of milliseconds for 2048 bits and much longer above that:
    /// tests should generate such keys once and share them.
    /// - Throws: `BuilderError.openssl` when OpenSSL cannot generate the key.
    public static func generate(_ kind: KeyKind) throws(BuilderError) -> KeyPair {
        defer { ERR_clear_error() }
        let key: OpaquePointer?
        switch kind {
        case .ecP256: key = COpenSSL_EVP_EC_gen("P-256")
        case .ecP384: key = COpenSSL_EVP_EC_gen("P-384")
        case .ecP521: key = COpenSSL_EVP_EC_gen("P-521")
        case .rsa(let bits):
            guard bits >= 512, bits <= 16384 else { throw .unsupported("RSA keys of \(bits) bits are not supported") }
            key = COpenSSL_EVP_RSA_gen(UInt32(bits))
        case .ed25519: key = generateByName("ED25519")
        case .ed448: key = generateByName("ED448")
        }
        guard let key else { throw BuilderError.openssl("generating a \(kind) key") }
        return KeyPair(takingOwnership: key, kind: kind)
    }

    /// Reads an unencrypted private key in PEM (PKCS#8 or the traditional forms).
    /// - Throws: `BuilderError.openssl` when the text holds no usable key,
    ///   `BuilderError.unsupported` for key types `KeyKind` cannot describe.
    public convenience init(privateKeyPEM pem: String) throws(BuilderError) {
        defer { ERR_clear_error() }
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buf in
            guard let bio = BIO_new_mem_buf(buf.baseAddress, Int32(buf.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else { throw BuilderError.openssl("reading a PEM private key") }
        let kind: KeyKind
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA: kind = .rsa(bits: Int(EVP_PKEY_get_bits(key)))
        case EVP_PKEY_ED25519: kind = .ed25519
        case EVP_PKEY_ED448: kind = .ed448
        case EVP_PKEY_EC:
            switch EVP_PKEY_get_bits(key) {
            case 256: kind = .ecP256
            case 384: kind = .ecP384
            case 521: kind = .ecP521
            default:
                EVP_PKEY_free(key)
                throw .unsupported("EC keys are supported on P-256, P-384 and P-521 only")
            }
        default:
            EVP_PKEY_free(key)
            throw .unsupported("only RSA, EC, Ed25519 and Ed448 private keys are supported")
        }
        self.init(takingOwnership: key, kind: kind)
    }

    private static func generateByName(_ name: String) -> OpaquePointer? {
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, name, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(ctx) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(ctx) == 1, EVP_PKEY_keygen(ctx, &key) == 1 else { return nil }
        return key
    }

    /// The DER SubjectPublicKeyInfo (`i2d_PUBKEY`): what a certificate carries and SPKI pins hash.
    public var spkiDER: [UInt8] {
        let length = i2d_PUBKEY(pkey, nil)
        // i2d_PUBKEY only fails on allocation failure for a key that generated fine.
        guard length > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: Int(length))
        out.withUnsafeMutableBufferPointer { buf in
            var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
            _ = i2d_PUBKEY(pkey, &p)
        }
        return out
    }

    /// The subjectPublicKey BIT STRING's content (the raw key), which RFC 5280 4.2.1.2 method
    /// (1) hashes for key identifiers.
    var publicKeyBits: [UInt8] {
        var r = DERReader(spkiDER)
        guard let spki = try? r.read(DERTag.sequence, "SubjectPublicKeyInfo") else { return [] }
        var s = r.reader(inside: spki)
        guard (try? s.read(DERTag.sequence, "algorithm")) != nil,
            let bits = try? s.read(DERTag.bitString, "subjectPublicKey"),
            let (key, _) = try? s.bitString(bits)
        else { return [] }
        return key
    }

    /// The key identifier `CertificateBuilder` uses by default: SHA-1 of the subjectPublicKey
    /// bits (RFC 5280 4.2.1.2, method 1), as `openssl x509` computes it.
    public var keyIdentifier: [UInt8] { Digest.sha1(publicKeyBits) }

    /// The private key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), for servers.
    public func privateKeyPEM() -> String {
        defer { ERR_clear_error() }
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PKCS8PrivateKey(bio, pkey, nil, nil, 0, nil, nil) == 1 else { return "" }
        var data: UnsafeMutablePointer<CChar>?
        let length = COpenSSL_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Signs `data` (EVP_DigestSign): PKCS#1 v1.5 for RSA, a DER ECDSA-Sig-Value for EC, pure
    /// EdDSA for Ed25519 and Ed448.
    ///
    /// - Parameters:
    ///   - data: the bytes to sign (a tbsCertificate, typically).
    ///   - hash: the digest; nil for EdDSA, which requires nil.
    /// - Throws: `BuilderError.unsupported` for a hash that does not fit the key,
    ///   `BuilderError.openssl` when OpenSSL refuses.
    public func sign(_ data: [UInt8], hash: HashKind?) throws(BuilderError) -> [UInt8] {
        defer { ERR_clear_error() }
        switch (kind, hash) {
        case (.ed25519, .some), (.ed448, .some):
            throw .unsupported("\(kind) signs without a separate hash; pass nil")
        case (.ecP256, nil), (.ecP384, nil), (.ecP521, nil), (.rsa, nil):
            throw .unsupported("a \(kind) signature needs a hash")
        default: break
        }
        guard let ctx = EVP_MD_CTX_new() else { throw BuilderError.openssl("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestSignInit(ctx, nil, hash?.evp, nil, pkey) == 1 else {
            throw BuilderError.openssl("EVP_DigestSignInit (\(kind), \(hash?.rawValue ?? "no hash"))")
        }
        var length = 0
        let sized = data.withUnsafeBufferPointer { EVP_DigestSign(ctx, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1 else { throw BuilderError.openssl("EVP_DigestSign (size)") }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = data.withUnsafeBufferPointer { d in
            signature.withUnsafeMutableBufferPointer { s in
                EVP_DigestSign(ctx, s.baseAddress, &length, d.baseAddress, d.count)
            }
        }
        guard signed == 1 else { throw BuilderError.openssl("EVP_DigestSign") }
        return Array(signature.prefix(length))
    }

    /// This key and `certificate` as PKCS#12, in the format every client still imports:
    /// 3DES-encrypted key and certificate with a SHA-1 MAC (OpenSSL 3's default AES/PBKDF2/SHA-256
    /// files are refused by older macOS and iOS keychains).
    /// - Throws: `BuilderError.openssl` when OpenSSL refuses the certificate or the file.
    public func pkcs12(certificate: Certificate, password: String, friendlyName: String) throws(BuilderError)
        -> [UInt8]
    {
        defer { ERR_clear_error() }
        let x: OpaquePointer? = certificate.der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_X509(nil, &p, buf.count)
        }
        guard let x else { throw BuilderError.openssl("d2i_X509") }
        defer { X509_free(x) }
        let nid = NID_pbe_WithSHA1And3_Key_TripleDES_CBC
        // mac_iter -1 writes no MAC, so that PKCS12_set_mac can add the SHA-1 one.
        guard let p12 = PKCS12_create(password, friendlyName, pkey, x, nil, nid, nid, 0, -1, 0) else {
            throw BuilderError.openssl("PKCS12_create")
        }
        defer { PKCS12_free(p12) }
        guard PKCS12_set_mac(p12, password, -1, nil, 0, 2048, EVP_sha1()) == 1 else {
            throw BuilderError.openssl("PKCS12_set_mac")
        }
        let length = i2d_PKCS12(p12, nil)
        guard length > 0 else { throw BuilderError.openssl("i2d_PKCS12") }
        var out = [UInt8](repeating: 0, count: Int(length))
        out.withUnsafeMutableBufferPointer { buf in
            var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
            _ = i2d_PKCS12(p12, &p)
        }
        return out
    }
}
