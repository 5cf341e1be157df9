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
    package static func open<R, E: Error>(
        _ der: [UInt8], password: String, failure: (PKCS12Failure) -> E,
        _ body: (_ key: OpaquePointer?, _ certificate: OpaquePointer?, _ others: [OpaquePointer]) throws(E) -> R
    ) throws(E) -> R {
        // Every count outside the encrypted parts, the MAC's included, read and bounded first.
        let visible: Int
        switch PKCS12Iterations.inspect(der) {
        case .success(let inspection): visible = inspection.total
        case .failure:
            throw failure(.refused(PKCS12Iterations.refusal(der) ?? "PKCS#12: the file cannot be inspected"))
        }
        if let why = PKCS12Iterations.refusal(total: visible) { throw failure(.refused(why)) }
        let p12: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_PKCS12(nil, &p, buf.count)
        }
        guard let p12 else { throw failure(.malformed) }
        defer { PKCS12_free(p12) }
        // The password as PKCS12_parse will use it: an empty one stands for no password when the
        // MAC says so (as OpenSSL decides).
        var pass: String? = password
        if password.isEmpty, PKCS12_mac_present(p12) != 1 || PKCS12_verify_mac(p12, nil, 0) == 1 { pass = nil }
        if PKCS12_mac_present(p12) == 1, PKCS12_verify_mac(p12, pass, -1) != 1 {
            ERR_clear_error()
            throw failure(.wrongPassword)
        }
        // The bags inside the encrypted parts carry counts of their own (a shrouded key bag inside
        // an encrypted part): decrypted here, with counts already bounded, and read before
        // PKCS12_parse would run them. A part that does not decrypt is never handed to it.
        var hidden = encryptedBagCounts(p12, password: pass)
        if hidden == nil, legacyProviderLoaded {
            // RC2/3DES parts (openssl pkcs12 -legacy, most older exports) need the legacy
            // provider; it is loaded only then, once, rather than for every process.
            hidden = encryptedBagCounts(p12, password: pass)
        }
        guard let hidden else {
            ERR_clear_error()
            throw failure(PKCS12_mac_present(p12) == 1 ? .unsupportedEncryption : .wrongPassword)
        }
        switch hidden {
        case .failure(let error):
            throw failure(
                .refused(
                    "PKCS#12: the key-derivation parameters inside an encrypted part cannot be read, so the file is refused (\(error.reason))"
                ))
        case .success(let count):
            if let why = PKCS12Iterations.refusal(total: visible + count) { throw failure(.refused(why)) }
        }
        var key: OpaquePointer?
        var cert: OpaquePointer?
        var ca: OpaquePointer?
        if PKCS12_parse(p12, password, &key, &cert, &ca) != 1 {
            ERR_clear_error()
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

    /// The key-derivation counts of the bags inside the file's encrypted parts, read after
    /// decrypting each part with `password`: nil when a part does not decrypt, a failure when a
    /// decrypted part cannot be read.
    static func encryptedBagCounts(_ p12: OpaquePointer, password: String?) -> Result<Int, DecodingError>? {
        guard let safes = PKCS12_unpack_authsafes(p12) else { return nil }
        defer { OPENSSL_sk_pop_free(safes) { PKCS7_free($0?.assumingMemoryBound(to: COpenSSL.PKCS7.self)) } }
        var total = 0
        for i in 0..<OPENSSL_sk_num(safes) {
            guard let p7 = OPENSSL_sk_value(safes, i)?.assumingMemoryBound(to: COpenSSL.PKCS7.self) else { return nil }
            guard OBJ_obj2nid(p7.pointee.type) == NID_pkcs7_encrypted else { continue }
            guard let bags = PKCS12_unpack_p7encdata(p7, password, -1) else { return nil }
            defer { OPENSSL_sk_pop_free(bags) { PKCS12_SAFEBAG_free(OpaquePointer($0)) } }
            // The decrypted SafeContents, encoded again: one SEQUENCE OF SafeBag.
            var contents: [UInt8] = []
            for j in 0..<OPENSSL_sk_num(bags) {
                guard let bag = OPENSSL_sk_value(bags, j) else { return nil }
                let n = i2d_PKCS12_SAFEBAG(OpaquePointer(bag), nil)
                guard n > 0 else { return nil }
                var buf = [UInt8](repeating: 0, count: Int(n))
                buf.withUnsafeMutableBufferPointer { b in
                    var p: UnsafeMutablePointer<UInt8>? = b.baseAddress
                    _ = i2d_PKCS12_SAFEBAG(OpaquePointer(bag), &p)
                }
                contents += buf
            }
            do {
                total += try PKCS12Iterations.bagCounts(
                    decrypted: DERWriter.encode { $0.element(tag: DERTag.sequence, content: contents) })
            } catch {
                return .failure(error)
            }
        }
        return .success(total)
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
