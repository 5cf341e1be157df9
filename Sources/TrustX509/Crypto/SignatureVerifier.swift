internal import COpenSSL
import Synchronization

/// The outcome of checking one certificate signature.
public enum SignatureCheckResult: Hashable, Sendable {
    /// The signature verifies with the issuer's key.
    case valid
    /// It does not.
    case invalid
    /// The algorithm or key cannot be checked (e.g. DSA, unknown OIDs, an undecodable key).
    case unsupported(String)
    /// The key was refused before any verification: using it would cost more than any real
    /// issuer's key does (an RSA exponent over 2^32, a modulus Apple's Security framework rejects).
    case refused(String)
}

/// What a signature algorithm identifier means.
public struct SignatureScheme: Hashable, Sendable {
    /// The family of key the scheme needs.
    public enum Family: Hashable, Sendable { case rsaPKCS1, rsaPSS, ecdsa, ed25519, ed448 }
    /// The family.
    public var family: Family
    /// The digest (nil for EdDSA, which hashes internally).
    public var hash: HashKind?
    /// MGF1 digest and salt length for RSA-PSS.
    var pssMGF1: HashKind?
    var pssSaltLength: Int?

    /// Interprets an AlgorithmIdentifier; nil when trustx cannot verify it.
    public init?(_ algorithm: AlgorithmIdentifier) {
        let noParams = algorithm.parameters == nil
        let nullOrAbsent = noParams || algorithm.parameters == [0x05, 0x00]
        switch algorithm.oid {
        case .sha256WithRSA where nullOrAbsent: self.init(.rsaPKCS1, .sha256)
        case .sha384WithRSA where nullOrAbsent: self.init(.rsaPKCS1, .sha384)
        case .sha512WithRSA where nullOrAbsent: self.init(.rsaPKCS1, .sha512)
        case .sha224WithRSA where nullOrAbsent: self.init(.rsaPKCS1, .sha224)
        case .sha1WithRSA where nullOrAbsent: self.init(.rsaPKCS1, .sha1)
        case .md5WithRSA where nullOrAbsent: self.init(.rsaPKCS1, .md5)
        // RFC 5758 3.2: ECDSA identifiers MUST omit the parameters.
        case .ecdsaWithSHA256 where noParams: self.init(.ecdsa, .sha256)
        case .ecdsaWithSHA384 where noParams: self.init(.ecdsa, .sha384)
        case .ecdsaWithSHA512 where noParams: self.init(.ecdsa, .sha512)
        case .ecdsaWithSHA224 where noParams: self.init(.ecdsa, .sha224)
        case .ecdsaWithSHA1 where noParams: self.init(.ecdsa, .sha1)
        case .ed25519 where noParams: self.init(.ed25519, nil)
        case .ed448 where noParams: self.init(.ed448, nil)
        case .rsassaPSS:
            guard let params = algorithm.parameters, let pss = SignatureScheme.decodePSS(params) else { return nil }
            self.init(.rsaPSS, pss.hash)
            pssMGF1 = pss.mgf1
            pssSaltLength = pss.salt
        default: return nil
        }
    }

    /// Whether a key of `type` can check signatures of `family` at all (no key is built).
    package static func family(_ family: Family, fits type: KeyType) -> Bool {
        switch (family, type) {
        case (.rsaPKCS1, .rsa), (.rsaPSS, .rsa), (.ecdsa, .ec), (.ed25519, .ed25519), (.ed448, .ed448): true
        default: false
        }
    }

    private init(_ family: Family, _ hash: HashKind?) {
        self.family = family
        self.hash = hash
    }

    /// RFC 4055 3.1 RSASSA-PSS-params; defaults SHA-1, MGF1-SHA-1, salt 20.
    private static func decodePSS(_ der: [UInt8]) -> (hash: HashKind, mgf1: HashKind, salt: Int)? {
        var r = DERReader(der)
        guard let seq = try? r.read(DERTag.sequence, "RSASSA-PSS-params") else { return nil }
        var s = r.reader(inside: seq)
        var hash = HashKind.sha1
        var mgf1 = HashKind.sha1
        var salt = 20
        func alg(_ node: DERNode) -> AlgorithmIdentifier? {
            var inner = s.reader(inside: node)
            guard let a = try? inner.read(DERTag.sequence, "AlgorithmIdentifier") else { return nil }
            return try? AlgorithmIdentifier.decode(inner, node: a)
        }
        if let n = try? s.readOptional(DERTag.contextSpecific(0, constructed: true)) {
            guard let a = alg(n), let h = HashKind(oid: a.oid) else { return nil }
            hash = h
        }
        if let n = try? s.readOptional(DERTag.contextSpecific(1, constructed: true)) {
            guard let a = alg(n), a.oid == .mgf1, let p = a.parameters else { return nil }
            var pr = DERReader(p)
            guard let inner = try? pr.read(DERTag.sequence, "MGF1 hash"),
                let h = try? AlgorithmIdentifier.decode(pr, node: inner), let k = HashKind(oid: h.oid)
            else { return nil }
            mgf1 = k
        }
        if let n = try? s.readOptional(DERTag.contextSpecific(2, constructed: true)) {
            var inner = s.reader(inside: n)
            guard let i = try? inner.read(DERTag.integer, "saltLength"), let v = try? inner.smallInteger(i), v >= 0
            else { return nil }
            salt = v
        }
        if let n = try? s.readOptional(DERTag.contextSpecific(3, constructed: true)) {
            var inner = s.reader(inside: n)
            guard let i = try? inner.read(DERTag.integer, "trailerField"), (try? inner.smallInteger(i)) == 1 else {
                return nil
            }
        }
        guard s.isAtEnd else { return nil }
        return (hash, mgf1, salt)
    }
}

/// Verifies certificate signatures with OpenSSL, building keys from their raw bytes.
public enum SignatureVerifier {
    /// Checks that `issuerKey` signed `certificate`.
    public static func verify(_ certificate: Certificate, signedBy issuerKey: PublicKeyInfo) -> SignatureCheckResult {
        // A signature BIT STRING that is not a whole number of octets is not the octet string
        // the algorithm produced; Apple's parser reads it and the signature fails.
        guard certificate.signatureUnusedBits == 0 else { return .invalid }
        return verify(
            algorithm: certificate.signatureAlgorithm, signed: certificate.tbsBytes,
            signature: certificate.signature, key: issuerKey)
    }

    /// Checks `signature` over `signed` with `key` under `algorithm`.
    public static func verify(
        algorithm: AlgorithmIdentifier, signed: ArraySlice<UInt8>, signature: [UInt8],
        key: PublicKeyInfo
    ) -> SignatureCheckResult {
        guard let scheme = SignatureScheme(algorithm) else {
            return .unsupported("signature algorithm \(algorithm.name) is not supported")
        }
        if case .rsa = key.type, let why = refusal(ofRSAKey: key) { return .refused(why) }
        defer { ERR_clear_error() }
        switch (scheme.family, key.type) {
        case (.ecdsa, .ec(let curve)):
            return verifyECDSA(scheme.hash!, curve: curve, signed: signed, signature: signature, key: key)
        case (.rsaPKCS1, .rsa) where key.algorithm.oid == .rsaEncryption:
            return verifyRSA(scheme.hash!, signed: signed, signature: signature, key: key)
        case (.rsaPSS, .rsa):
            return verifyEVP(scheme, signed: signed, signature: signature, key: key)
        case (.ed25519, .ed25519), (.ed448, .ed448):
            return verifyEVP(scheme, signed: signed, signature: signature, key: key)
        default:
            return .unsupported("a \(key.type.label) key cannot check a \(algorithm.name) signature")
        }
    }

    /// The largest RSA modulus accepted, in bits: Apple's Security framework refuses to build an
    /// RSA public key from PKCS#1 bytes whose modulus needs more (docs/DECISIONS.md D36).
    public static let maximumRSAModulusBits = 8192

    /// The largest RSA public exponent accepted: 2^32. CAs use 65537; a huge exponent makes each
    /// verification cost as much as a private-key operation, for nothing.
    public static let maximumRSAExponent: UInt64 = 1 << 32

    /// Why an RSA key is refused before any verification, or nil when it may be used. Reads only
    /// the lengths and the exponent's few bytes.
    static func refusal(ofRSAKey key: PublicKeyInfo) -> String? {
        if key.bits > maximumRSAModulusBits {
            return
                "the RSA modulus has \(key.bits) bits, more than the \(maximumRSAModulusBits) Apple's Security framework accepts"
        }
        // RFC 8017 A.1.1: RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }.
        // RSA-PSS keys carry the same structure (RFC 4055 1.2). A key this strict reader cannot
        // read is one Apple's DER parser refuses too, while OpenSSL's BER-tolerant reader would
        // take it and verify with whatever exponent it holds: refused here, before OpenSSL
        // sees it (D320).
        var r = DERReader(key.keyBytes)
        guard let seq = try? r.read(DERTag.sequence, "RSAPublicKey"), r.isAtEnd else {
            return "the RSA public key is not a DER RSAPublicKey, which Apple's DER parser refuses"
        }
        var k = r.reader(inside: seq)
        guard let n = try? k.read(DERTag.integer, "modulus"), let e = try? k.read(DERTag.integer, "publicExponent"),
            k.isAtEnd, isMinimalPositive(k.content(n)), isMinimalPositive(k.content(e))
        else {
            return "the RSA public key is not a DER RSAPublicKey, which Apple's DER parser refuses"
        }
        let exponent = k.content(e).drop { $0 == 0 }
        var value: UInt64 = 0
        if exponent.count <= 5 {
            for b in exponent { value = value << 8 | UInt64(b) }
            if value <= maximumRSAExponent { return nil }
        }
        let bits = (exponent.count - 1) * 8 + (8 - exponent.first!.leadingZeroBitCount)
        return "the RSA public exponent has \(bits) bits, over 2^32, which no CA uses"
    }

    /// Whether an INTEGER's content is a positive number in DER's minimal form.
    private static func isMinimalPositive(_ content: ArraySlice<UInt8>) -> Bool {
        guard let first = content.first, first & 0x80 == 0 else { return false }
        guard first == 0, content.count > 1 else { return true }
        return content[content.startIndex + 1] & 0x80 != 0
    }

    private static func verifyECDSA(
        _ hash: HashKind, curve: OID?, signed: ArraySlice<UInt8>, signature: [UInt8],
        key: PublicKeyInfo
    ) -> SignatureCheckResult {
        let nid: Int32
        switch curve {
        case .prime256v1?: nid = NID_X9_62_prime256v1
        case .secp384r1?: nid = NID_secp384r1
        case .secp521r1?: nid = NID_secp521r1
        case .secp224r1?: nid = NID_secp224r1
        case .secp256k1?: nid = NID_secp256k1
        case .prime192v1?: nid = NID_X9_62_prime192v1
        default: return .unsupported("EC key on an unsupported curve")
        }
        guard let pooled = ECKeyPool.shared.take(nid) else { return .unsupported("EC curve unavailable") }
        defer { ECKeyPool.shared.give(back: pooled) }
        // With a key already in place, o2i_ECPublicKey loads the point into it and neither
        // replaces nor frees it, so the pooled object keeps sole ownership.
        var ecKey: OpaquePointer? = pooled.key
        let decoded = key.keyBytes.withUnsafeBufferPointer { buf -> Bool in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return o2i_ECPublicKey(&ecKey, &p, buf.count) != nil
        }
        guard decoded else { return .unsupported("EC public key point does not decode") }
        let digest = Digest.withBytes(signed) { Digest.digest(hash, $0) }
        let rc = signature.withUnsafeBufferPointer { sig in
            ECDSA_verify(0, digest, Int32(digest.count), sig.baseAddress, Int32(sig.count), pooled.key)
        }
        return rc == 1 ? .valid : .invalid
    }

    private static func verifyRSA(
        _ hash: HashKind, signed: ArraySlice<UInt8>, signature: [UInt8],
        key: PublicKeyInfo
    ) -> SignatureCheckResult {
        let rsa: OpaquePointer? = key.keyBytes.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_RSAPublicKey(nil, &p, buf.count)
        }
        guard let rsa else { return .unsupported("RSA public key does not decode") }
        defer { RSA_free(rsa) }
        let digest = Digest.withBytes(signed) { Digest.digest(hash, $0) }
        let rc = signature.withUnsafeBufferPointer { sig in
            RSA_verify(hash.nid, digest, UInt32(digest.count), sig.baseAddress, UInt32(sig.count), rsa)
        }
        return rc == 1 ? .valid : .invalid
    }

    /// RSA-PSS and EdDSA through EVP: rarer, so the slower key decoding is acceptable.
    private static func verifyEVP(
        _ scheme: SignatureScheme, signed: ArraySlice<UInt8>, signature: [UInt8],
        key: PublicKeyInfo
    ) -> SignatureCheckResult {
        let pkey: OpaquePointer?
        switch scheme.family {
        case .ed25519, .ed448:
            let type = scheme.family == .ed25519 ? EVP_PKEY_ED25519 : EVP_PKEY_ED448
            pkey = key.keyBytes.withUnsafeBufferPointer {
                EVP_PKEY_new_raw_public_key(type, nil, $0.baseAddress, $0.count)
            }
        default:
            pkey = key.der.withUnsafeBufferPointer { buf in
                var p: UnsafePointer<UInt8>? = buf.baseAddress
                return d2i_PUBKEY(nil, &p, buf.count)
            }
        }
        guard let pkey else { return .unsupported("public key does not decode") }
        defer { EVP_PKEY_free(pkey) }
        guard let ctx = EVP_MD_CTX_new() else { return .unsupported("out of memory") }
        defer { EVP_MD_CTX_free(ctx) }
        var pctx: OpaquePointer?
        guard EVP_DigestVerifyInit(ctx, &pctx, scheme.hash?.evp, nil, pkey) == 1 else {
            return .unsupported("OpenSSL refused the key for \(scheme.family)")
        }
        if scheme.family == .rsaPSS {
            guard EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, Int32(scheme.pssSaltLength ?? 20)) == 1,
                EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, scheme.pssMGF1?.evp) == 1
            else { return .unsupported("RSA-PSS parameters rejected") }
        }
        let rc = Digest.withBytes(signed) { data in
            signature.withUnsafeBufferPointer { sig in
                EVP_DigestVerify(
                    ctx, sig.baseAddress, sig.count, data.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    data.count)
            }
        }
        return rc == 1 ? .valid : .invalid
    }
}

/// Reusable EC_KEY objects per curve. Creating one costs ~16 us (OpenSSL 3.0 builds the curve
/// group each time), more than a quarter of an ECDSA verification; o2i_ECPublicKey can load a
/// new point into an existing key, so keys are recycled instead (docs/DECISIONS.md).
final class ECKeyPool: Sendable {
    static let shared = ECKeyPool()
    /// At most this many idle keys per curve: enough for every thread verifying at once.
    private static let idleLimit = 8
    private let idle = Mutex<[Int32: [PooledECKey]]>([:])

    /// An idle key for curve `nid`, or a new one; nil only when OpenSSL cannot make the curve.
    func take(_ nid: Int32) -> PooledECKey? {
        if let key = idle.withLock({ $0[nid]?.popLast() }) { return key }
        return PooledECKey(curve: nid)
    }

    /// Lists `key` as idle again; past the limit it is dropped, and its `deinit` frees it.
    func give(back key: PooledECKey) {
        idle.withLock { pool in
            guard pool[key.curve, default: []].count < Self.idleLimit else { return }
            pool[key.curve, default: []].append(key)
        }
    }
}

/// One EC_KEY, owned by this object and freed with it, as swift-nio-ssl wraps its OpenSSL objects.
/// Unchecked Sendable: the pool hands each key to one verification at a time and takes it back
/// only when that verification is done, so no two threads use the EC_KEY together.
final class PooledECKey: @unchecked Sendable {
    fileprivate let key: OpaquePointer
    let curve: Int32

    init?(curve: Int32) {
        guard let key = EC_KEY_new_by_curve_name(curve) else { return nil }
        self.key = key
        self.curve = curve
    }

    deinit { EC_KEY_free(key) }
}
