internal import COpenSSL
import TrustSupport

/// A public key read from a file that holds no certificate yet: a public key, a private key or a
/// certificate signing request. Its SPKI SHA-256 is the pin the certificate issued for it will
/// have, so a backup pin can be shipped before that certificate exists.
public struct KeyFileEntry: Sendable {
    /// What held the key: `public key`, `private key` or `certificate request`.
    public var source: String
    /// The DER SubjectPublicKeyInfo, as OpenSSL re-encodes it (`i2d_PUBKEY`).
    public var spki: [UInt8]
    /// The key's type and size, `EC P-256`, `RSA 2048`.
    public var keyDescription: String

    /// The SPKI SHA-256 pin, base64.
    public var spkiPin: String { Base64.encode(Digest.sha256(spki)) }
}

/// Reads the public keys of PEM `PUBLIC KEY`, `RSA PUBLIC KEY`, private key (PKCS#8, traditional
/// RSA and EC, PKCS#8 encrypted with a password) and `CERTIFICATE REQUEST` blocks, or of one such
/// structure in DER. OpenSSL decodes them; nothing is kept of a private key but its public half.
public enum KeyFile {
    /// PEM labels this reader takes, with what each holds.
    static let labels: [String: String] = [
        "PUBLIC KEY": "public key", "RSA PUBLIC KEY": "public key", "PRIVATE KEY": "private key",
        "RSA PRIVATE KEY": "private key", "EC PRIVATE KEY": "private key", "ENCRYPTED PRIVATE KEY": "private key",
        "CERTIFICATE REQUEST": "certificate request", "NEW CERTIFICATE REQUEST": "certificate request",
    ]

    /// Whether `label` names a block this reader takes.
    public static func takes(label: String) -> Bool { labels[label] != nil }

    /// The key of one PEM block.
    /// - Throws: `DecodingError` when the block does not decode (or an encrypted key's password
    ///   is missing or wrong).
    public static func key(_ block: PEMBlock, password: String?) throws(DecodingError) -> KeyFileEntry {
        guard let source = labels[block.label] else {
            throw DecodingError(offset: block.offset, reason: "a PEM \(block.label) block holds no key")
        }
        defer { ERR_clear_error() }
        let key: OpaquePointer?
        switch block.label {
        case "PUBLIC KEY": key = decode(block.der) { d2i_PUBKEY(nil, &$0, $1) }
        case "RSA PUBLIC KEY": key = decode(block.der) { d2i_PublicKey(EVP_PKEY_RSA, nil, &$0, $1) }
        case "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST": key = requestKey(block.der)
        case "ENCRYPTED PRIVATE KEY":
            guard let password else {
                throw DecodingError(
                    offset: block.offset, reason: "an ENCRYPTED PRIVATE KEY needs --password to be read")
            }
            key = encryptedPrivateKey(block.der, password: password)
        default: key = decode(block.der) { d2i_AutoPrivateKey(nil, &$0, $1) }
        }
        guard let key else {
            let why = block.label == "ENCRYPTED PRIVATE KEY" ? " (a wrong --password?)" : ""
            throw DecodingError(offset: block.offset, reason: "the PEM \(block.label) block does not decode\(why)")
        }
        defer { EVP_PKEY_free(key) }
        return try entry(key, source: source, offset: block.offset)
    }

    /// The key of a DER file holding a SubjectPublicKeyInfo, a PKCS#10 request or an unencrypted
    /// private key; nil when it holds none of them.
    public static func key(der: [UInt8]) -> KeyFileEntry? {
        defer { ERR_clear_error() }
        let attempts: [(String, ([UInt8]) -> OpaquePointer?)] = [
            ("public key", { decode($0) { d2i_PUBKEY(nil, &$0, $1) } }),
            ("certificate request", requestKey),
            ("private key", { decode($0) { d2i_AutoPrivateKey(nil, &$0, $1) } }),
        ]
        for (source, attempt) in attempts {
            guard let key = attempt(der) else { continue }
            defer { EVP_PKEY_free(key) }
            return try? entry(key, source: source, offset: 0)
        }
        return nil
    }

    /// Runs an OpenSSL `d2i` function over all of `der`; nil unless it decodes and uses every byte.
    static func decode(
        _ der: [UInt8], _ d2i: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buf -> OpaquePointer? in
            guard let base = buf.baseAddress else { return nil }
            var p: UnsafePointer<UInt8>? = base
            guard let key = d2i(&p, buf.count) else { return nil }
            // Trailing bytes would be a second structure read as if it were not there.
            guard let end = p, end - base == buf.count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
    }

    /// The public key of a DER PKCS#10 request (a reference of its own, freed by the caller).
    static func requestKey(_ der: [UInt8]) -> OpaquePointer? {
        let request: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_X509_REQ(nil, &p, buf.count)
        }
        guard let request else { return nil }
        defer { X509_REQ_free(request) }
        guard let key = X509_REQ_get0_pubkey(request), EVP_PKEY_up_ref(key) == 1 else { return nil }
        return key
    }

    /// A PKCS#8 EncryptedPrivateKeyInfo decrypted with `password`.
    static func encryptedPrivateKey(_ der: [UInt8], password: String) -> OpaquePointer? {
        let sealed: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_X509_SIG(nil, &p, buf.count)
        }
        guard let sealed else { return nil }
        defer { X509_SIG_free(sealed) }
        guard let info = PKCS8_decrypt(sealed, password, Int32(password.utf8.count)) else { return nil }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return EVP_PKCS82PKEY(info)
    }

    /// The entry of a decoded key: its SubjectPublicKeyInfo, re-encoded by OpenSSL.
    static func entry(_ key: OpaquePointer, source: String, offset: Int) throws(DecodingError) -> KeyFileEntry {
        var out: UnsafeMutablePointer<UInt8>?
        let n = i2d_PUBKEY(key, &out)
        guard n > 0, let out else {
            throw DecodingError(offset: offset, reason: "the \(source)'s public key cannot be encoded")
        }
        defer { CRYPTO_free(out, #file, #line) }
        let spki = Array(UnsafeBufferPointer(start: out, count: Int(n)))
        var description = "key"
        var reader = DERReader(spki)
        if let node = try? reader.readNode(), let info = try? PublicKeyInfo.decode(DERReader(spki), node: node) {
            description = info.type == .rsa ? "RSA \(info.bits)" : info.type.label
        }
        return KeyFileEntry(source: source, spki: spki, keyDescription: description)
    }
}
