internal import COpenSSL

/// Why a PKCS#12 file did not open.
public enum PKCS12Failure: Sendable, Equatable {
    /// A hostile count of key-derivation rounds, refused before OpenSSL runs them (the reason).
    case refused(String)
    /// The bytes are not a PKCS#12 structure.
    case malformed
    /// The MAC does not verify with the password.
    case wrongPassword
    /// The password is right but the bags' encryption is one OpenSSL cannot run, even with its
    /// legacy provider.
    case unsupportedEncryption
}

/// PKCS#12 through OpenSSL, which owns the password-based decryption: the one place that parses
/// it, for the loader (certificates) and the probe's client identity (certificate and key).
public enum PKCS12 {
    /// Loads the legacy provider (and the default one, which loading any provider would otherwise
    /// displace) on first use.
    static let legacyProviderLoaded: Bool = {
        let legacy = OSSL_PROVIDER_load(nil, "legacy")
        let standard = OSSL_PROVIDER_load(nil, "default")
        return legacy != nil && standard != nil
    }()

    static func isPKCS12(_ der: [UInt8]) -> Bool {
        var r = DERReader(der)
        guard let outer = try? r.read(DERTag.sequence, "PFX") else { return false }
        var c = r.reader(inside: outer)
        guard let v = try? c.read(DERTag.integer, "version"), (try? c.smallInteger(v)) == 3 else { return false }
        return c.peekTag() == DERTag.sequence
    }

    /// Opens the PKCS#12 file `der` with `password` and lends `body` the OpenSSL objects it holds:
    /// the private key (`EVP_PKEY`), its certificate (`X509`) and the other certificates, each nil
    /// or empty when absent. They are freed when `body` returns; keep one only by taking a
    /// reference of your own. A failure becomes the caller's error through `failure`; OpenSSL's
    /// error queue is left as the failing call left it, for the caller to report or clear.
    public static func open<R, E: Error>(
        _ der: [UInt8], password: String, failure: (PKCS12Failure) -> E,
        _ body: (_ key: OpaquePointer?, _ certificate: OpaquePointer?, _ others: [OpaquePointer]) throws(E) -> R
    ) throws(E) -> R {
        if let why = PKCS12Iterations.refusal(der) { throw failure(.refused(why)) }
        let p12: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_PKCS12(nil, &p, buf.count)
        }
        guard let p12 else { throw failure(.malformed) }
        defer { PKCS12_free(p12) }
        var key: OpaquePointer?
        var cert: OpaquePointer?
        var ca: OpaquePointer?
        if PKCS12_parse(p12, password, &key, &cert, &ca) != 1 {
            ERR_clear_error()
            // A right password with RC2/3DES bags (openssl pkcs12 -legacy, most older exports) needs
            // OpenSSL's legacy provider; load it only then, once, rather than for every process.
            guard PKCS12_verify_mac(p12, password, -1) == 1 else { throw failure(.wrongPassword) }
            guard legacyProviderLoaded, PKCS12_parse(p12, password, &key, &cert, &ca) == 1 else {
                throw failure(.unsupportedEncryption)
            }
        }
        defer {
            if let key { EVP_PKEY_free(key) }
            if let cert { X509_free(cert) }
            if let ca { COpenSSL_sk_X509_pop_free(ca) }
        }
        var others: [OpaquePointer] = []
        if let ca {
            for i in 0..<COpenSSL_sk_X509_num(ca) {
                if let x = COpenSSL_sk_X509_value(ca, i) { others.append(x) }
            }
        }
        return try body(key, cert, others)
    }

    static func certificates(_ der: [UInt8], password: String, name: String) throws -> [Certificate] {
        defer { ERR_clear_error() }
        let ders = try open(
            der, password: password,
            failure: { (f: PKCS12Failure) -> any Error in
                switch f {
                case .refused(let why): DecodingError(offset: 0, reason: why, file: name)
                case .malformed: DecodingError(offset: 0, reason: "PKCS#12 structure does not decode", file: name)
                case .wrongPassword: LoadError.password(path: name, reason: "PKCS#12: wrong password")
                case .unsupportedEncryption:
                    LoadError.password(
                        path: name, reason: "PKCS#12: the password is right but the encryption is not supported")
                }
            }
        ) { _, cert, others in
            ((cert.map { [$0] } ?? []) + others).compactMap(derOf)
        }
        if ders.isEmpty { throw DecodingError(offset: 0, reason: "PKCS#12 file holds no certificates", file: name) }
        return try ders.map { try Certificate(der: $0) }
    }

    /// The DER of an `X509`, nil when OpenSSL cannot encode it.
    private static func derOf(_ x: OpaquePointer) -> [UInt8]? {
        let n = i2d_X509(x, nil)
        guard n > 0 else { return nil }
        var buf = [UInt8](repeating: 0, count: Int(n))
        buf.withUnsafeMutableBufferPointer { b in
            var p: UnsafeMutablePointer<UInt8>? = b.baseAddress
            _ = i2d_X509(x, &p)
        }
        return buf
    }
}
