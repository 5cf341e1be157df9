import ATSModel
internal import COpenSSL
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How one TLS endpoint is configured: what it presents, which versions it speaks, whether it
/// asks for a client certificate.
public struct LabTLSConfiguration: Sendable {
    /// The chain exactly as sent, leaf first (wrong orders and gaps are sent as given).
    public var chain: [Certificate]
    /// The leaf's private key, PKCS#8 PEM.
    public var privateKeyPEM: String
    /// The lowest version offered.
    public var minimumVersion: TLSVersion
    /// The highest version offered.
    public var maximumVersion: TLSVersion
    /// When set, a client certificate issued by one of these CAs is required (the handshake fails
    /// without one); the CAs' names are sent in the CertificateRequest.
    public var requiredClientCAs: [Certificate]
    /// A DER OCSP response stapled to every handshake that asks for one (RFC 6066 8).
    public var ocspResponse: [UInt8]?
    /// OpenSSL's cipher list for TLS 1.2 and below; nil offers everything.
    public var cipherList: String?
    /// The group for DHE cipher suites; nil leaves DHE without parameters, so OpenSSL never picks it.
    public var dhParameters: LabDHParameters?
    /// When set, the server takes turns with these leaves and keys instead of `chain` and
    /// `privateKeyPEM`, each new handshake getting the one the wall clock picks.
    public var rotation: LabLeafRotation?

    /// Creates a configuration (TLS 1.2 to 1.3, no client certificate by default).
    public init(
        chain: [Certificate], privateKeyPEM: String, minimumVersion: TLSVersion = .tls1_2,
        maximumVersion: TLSVersion = .tls1_3, requiredClientCAs: [Certificate] = []
    ) {
        self.chain = chain
        self.privateKeyPEM = privateKeyPEM
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.requiredClientCAs = requiredClientCAs
    }
}

/// The OpenSSL `SSL_CTX` of one lab endpoint (one per leaf when it rotates); freed in deinit.
// @unchecked: every SSL_CTX is fully configured in init and only read afterwards (SSL_new), which
// OpenSSL allows from any thread; a rotating endpoint picks one of its immutable contexts per
// handshake, so no context is ever changed while a handshake uses it.
final class ServerTLSContext: @unchecked Sendable {
    /// One context per leaf, in the rotation's order (one for an endpoint that does not rotate).
    private let contexts: [OpaquePointer]
    /// Seconds each context serves, for a rotating endpoint.
    private let period: Int
    /// The staple's bytes and descriptor, which OpenSSL's callback reads for the context's life.
    private var staple: UnsafeMutablePointer<COpenSSL_Staple>?
    private var stapleBytes: UnsafeMutableBufferPointer<UInt8>?

    /// A new SSL object of the context for a handshake starting now
    /// (`LabLeafRotation.index(unixTime:period:count:)`), owned by the caller (`Connection`).
    func makeSSL() -> OpaquePointer? {
        SSL_new(contexts[LabLeafRotation.index(unixTime: Int64(time(nil)), period: period, count: contexts.count)])
    }

    /// Configures a server context from `configuration` (one per leaf of its rotation).
    /// - Throws: `LabServerError.openssl` when OpenSSL refuses a key, a certificate or a version.
    init(_ configuration: LabTLSConfiguration) throws(LabServerError) {
        defer { ERR_clear_error() }
        var variants = [configuration]
        if let rotation = configuration.rotation, !rotation.leaves.isEmpty {
            variants = rotation.leaves.map { leaf in
                var v = configuration
                v.chain = leaf.chain
                v.privateKeyPEM = leaf.privateKeyPEM
                return v
            }
        }
        var made: [OpaquePointer] = []
        do throws(LabServerError) {
            for v in variants { made.append(try ServerTLSContext.make(v)) }
        } catch {
            for ctx in made { SSL_CTX_free(ctx) }
            throw error
        }
        contexts = made
        period = configuration.rotation?.period ?? 1

        if let response = configuration.ocspResponse, !response.isEmpty {
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: response.count)
            _ = bytes.initialize(from: response)
            let descriptor = UnsafeMutablePointer<COpenSSL_Staple>.allocate(capacity: 1)
            descriptor.initialize(to: COpenSSL_Staple(der: UnsafePointer(bytes.baseAddress), length: response.count))
            stapleBytes = bytes
            staple = descriptor
            for ctx in made {
                guard COpenSSL_SSL_CTX_set_staple(ctx, descriptor) == 1 else {
                    throw LabServerError.openssl("setting the OCSP staple")
                }
            }
        }
    }

    /// One `SSL_CTX` serving `configuration`'s chain and key; freed again when OpenSSL refuses it.
    private static func make(_ configuration: LabTLSConfiguration) throws(LabServerError) -> OpaquePointer {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw LabServerError.openssl("SSL_CTX_new") }
        do throws(LabServerError) {
            try configure(ctx, configuration)
        } catch {
            SSL_CTX_free(ctx)
            throw error
        }
        return ctx
    }

    private static func configure(_ ctx: OpaquePointer, _ configuration: LabTLSConfiguration) throws(LabServerError) {
        guard let leaf = configuration.chain.first else {
            throw .openssl(operation: "configuring a server", detail: "the chain is empty")
        }
        // Level 0: the lab must serve RSA-1024 keys and SHA-1 signatures, which Debian's default
        // level 2 refuses to load.
        SSL_CTX_set_security_level(ctx, 0)
        // Send exactly the configured chain: OpenSSL would otherwise complete it from its store.
        _ = COpenSSL_SSL_CTX_set_mode(ctx, COpenSSL_SSL_MODE_NO_AUTO_CHAIN())
        guard COpenSSL_SSL_CTX_set_min_proto_version(ctx, Int32(configuration.minimumVersion.rawValue)) == 1,
            COpenSSL_SSL_CTX_set_max_proto_version(ctx, Int32(configuration.maximumVersion.rawValue)) == 1
        else { throw LabServerError.openssl("setting the protocol versions") }
        // TLS 1.0/1.1 need SHA-1 in the handshake, refused above level 0 and by some default
        // cipher strings: allow everything, the lab judges nothing on the server side.
        guard SSL_CTX_set_cipher_list(ctx, configuration.cipherList ?? "ALL:@SECLEVEL=0") == 1 else {
            throw LabServerError.openssl("setting the cipher suites")
        }

        if let dh = configuration.dhParameters {
            // Even at level 0 OpenSSL's default security callback refuses DH groups under 80 bits
            // of security (1,024-bit primes); badssl's dh480 and dh512 need them, so this server
            // allows every group. OpenSSL still refuses to compute with primes under 512 bits.
            SSL_CTX_set_security_callback(ctx) { _, _, _, _, _, _, _ in 1 }
            // SSL_CTX_set0_tmp_dh_pkey takes the key on success only.
            let parameters = try ParametersObject(pem: dh.pem)
            guard SSL_CTX_set0_tmp_dh_pkey(ctx, parameters.pointer) == 1 else {
                throw LabServerError.openssl("setting the DH parameters \(dh.name)")
            }
            parameters.release()
        }

        let leafX509 = try X509Object(der: leaf.der)
        guard SSL_CTX_use_certificate(ctx, leafX509.pointer) == 1 else {
            throw LabServerError.openssl("loading the server certificate")
        }
        for certificate in configuration.chain.dropFirst() {
            let x = try X509Object(der: certificate.der)
            guard COpenSSL_SSL_CTX_add1_chain_cert(ctx, x.pointer) == 1 else {
                throw LabServerError.openssl("adding a chain certificate")
            }
        }
        let key = try PrivateKeyObject(pem: configuration.privateKeyPEM)
        guard SSL_CTX_use_PrivateKey(ctx, key.pointer) == 1, SSL_CTX_check_private_key(ctx) == 1 else {
            throw LabServerError.openssl("loading the server key")
        }

        if !configuration.requiredClientCAs.isEmpty {
            guard let store = SSL_CTX_get_cert_store(ctx) else {
                throw LabServerError.openssl("SSL_CTX_get_cert_store")
            }
            for ca in configuration.requiredClientCAs {
                let x = try X509Object(der: ca.der)
                guard X509_STORE_add_cert(store, x.pointer) == 1, SSL_CTX_add_client_CA(ctx, x.pointer) == 1 else {
                    throw LabServerError.openssl("adding a client CA")
                }
            }
            SSL_CTX_set_verify(ctx, COpenSSL_SSL_VERIFY_PEER() | COpenSSL_SSL_VERIFY_FAIL_IF_NO_PEER_CERT(), nil)
        }
    }

    deinit {
        for ctx in contexts { SSL_CTX_free(ctx) }
        staple?.deinitialize(count: 1)
        staple?.deallocate()
        stapleBytes?.deallocate()
    }
}

/// An OpenSSL `EVP_PKEY` holding only domain parameters (`DH PARAMETERS`), read from PEM; freed
/// in deinit unless `release()` handed it to OpenSSL.
final class ParametersObject {
    fileprivate let pointer: OpaquePointer
    private var owned = true

    init(pem: String) throws(LabServerError) {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buf in
            guard let bio = BIO_new_mem_buf(buf.baseAddress, Int32(buf.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_Parameters(bio, nil)
        }
        guard let key else { throw LabServerError.openssl("reading DH parameters") }
        pointer = key
    }

    /// OpenSSL took ownership.
    func release() { owned = false }

    deinit { if owned { EVP_PKEY_free(pointer) } }
}

/// An OpenSSL `X509`, decoded from DER; freed in deinit.
final class X509Object {
    fileprivate let pointer: OpaquePointer

    init(der: [UInt8]) throws(LabServerError) {
        let x: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_X509(nil, &p, buf.count)
        }
        guard let x else { throw LabServerError.openssl("decoding a certificate (d2i_X509)") }
        pointer = x
    }

    deinit { X509_free(pointer) }
}

/// An OpenSSL `EVP_PKEY` read from PEM; freed in deinit.
final class PrivateKeyObject {
    fileprivate let pointer: OpaquePointer

    init(pem: String) throws(LabServerError) {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buf in
            guard let bio = BIO_new_mem_buf(buf.baseAddress, Int32(buf.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else { throw LabServerError.openssl("reading a private key") }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }
}
