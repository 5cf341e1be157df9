internal import COpenSSL
import TrustCore
import TrustX509

/// The observer's SSL_CTX: verification off and security level 0, so that RSA-1024, SHA-1,
/// TLS 1.0/1.1 and broken chains complete the handshake and are judged by the evaluator instead.
/// One per probe; freed in deinit.
final class ClientContext {
    private let ctx: OpaquePointer

    init(options: ProbeOptions) throws(ProbeError) {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw ProbeError(
                .invalidOption, "OpenSSL could not create a TLS context", details: OpenSSLError.drain().map(\.text))
        }
        self.ctx = ctx
        SSL_CTX_set_security_level(ctx, 0)
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
        // Skip X509_verify_cert entirely: its verdict would be ignored, and on a chain of hundreds
        // of certificates it is the costliest thing OpenSSL would do for us.
        SSL_CTX_set_cert_verify_callback(ctx, { _, _ in 1 }, nil)
        _ = COpenSSL_SSL_CTX_set_min_proto_version(ctx, Int32(options.minimumVersion.rawValue))
        _ = COpenSSL_SSL_CTX_set_max_proto_version(ctx, Int32(options.maximumVersion.rawValue))
        // Observing: everything but anonymous and null suites (no certificate to see, never
        // offered by URLSession), including the legacy ones TLS 1.0/1.1 servers still pick.
        // Under ATS: exactly ATS's suites, so that a server ATS refuses refuses us too.
        guard SSL_CTX_set_cipher_list(ctx, options.cipherOffer.openSSLCipherList) == 1,
            SSL_CTX_set_ciphersuites(ctx, CipherOffer.tls13Suites) == 1
        else {
            throw ProbeError(
                .invalidOption, "OpenSSL refused the cipher suites (\(options.cipherOffer))",
                details: OpenSSLError.drain().map(\.text))
        }
        // OpenSSL 3 refuses servers without RFC 5746 renegotiation_info by default; an observer
        // must still see them.
        _ = SSL_CTX_set_options(ctx, COpenSSL_SSL_OP_LEGACY_SERVER_CONNECT())
        _ = COpenSSL_SSL_CTX_set_max_cert_list(ctx, options.maximumCertificateListBytes)
        let alpn = options.effectiveALPN
        if !alpn.isEmpty {
            var wire: [UInt8] = []
            for p in alpn where !p.isEmpty && p.utf8.count < 256 {
                wire.append(UInt8(p.utf8.count))
                wire += p.utf8
            }
            // Returns 0 on success, unlike most of OpenSSL.
            _ = SSL_CTX_set_alpn_protos(ctx, wire, UInt32(wire.count))
        }
        if let identity = options.clientIdentity { try load(identity) }
    }

    deinit { SSL_CTX_free(ctx) }

    /// A new SSL object of this context, owned by the caller from here on (`TLSSession` frees it).
    func makeSSL() -> OpaquePointer? { SSL_new(ctx) }

    private func fail(_ file: String, _ why: String) -> ProbeError {
        ProbeError(.invalidOption, "client certificate \(file): \(why)", details: OpenSSLError.drain().map(\.text))
    }

    private func read(_ path: String) throws(ProbeError) -> [UInt8] {
        do {
            return try CertificateLoader.readFile(path)
        } catch {
            throw ProbeError(.invalidOption, "client certificate: \(error.description)")
        }
    }

    private func load(_ identity: ClientIdentity) throws(ProbeError) {
        ERR_clear_error()
        switch identity {
        case .pkcs12(let path, let password):
            let der = try read(path)
            try PKCS12.open(
                der, password: password,
                failure: { (f: PKCS12Failure) -> ProbeError in
                    switch f {
                    case .refused(let why): fail(path, why)
                    case .malformed: fail(path, "not a PKCS#12 file")
                    case .wrongPassword: fail(path, "wrong password")
                    case .unsupportedEncryption: fail(path, "the password is right but the encryption is not supported")
                    }
                }
            ) { (key, cert, others) throws(ProbeError) in
                guard let key, let cert else { throw fail(path, "holds no certificate with its private key") }
                guard SSL_CTX_use_certificate(ctx, cert) == 1, SSL_CTX_use_PrivateKey(ctx, key) == 1 else {
                    throw fail(path, "OpenSSL refused the certificate or key")
                }
                for x in others { _ = COpenSSL_SSL_CTX_add1_chain_cert(ctx, x) }
            }
        case .pem(let certPath, let keyPath, let password):
            let certPEM = try read(certPath)
            try withMemoryBIO(certPEM) { bio throws(ProbeError) in
                guard let leaf = PEM_read_bio_X509(bio, nil, nil, nil) else {
                    throw fail(certPath, "no PEM CERTIFICATE")
                }
                defer { X509_free(leaf) }
                guard SSL_CTX_use_certificate(ctx, leaf) == 1 else {
                    throw fail(certPath, "OpenSSL refused the certificate")
                }
                while let extra = PEM_read_bio_X509(bio, nil, nil, nil) {
                    _ = COpenSSL_SSL_CTX_add1_chain_cert(ctx, extra)
                    X509_free(extra)
                }
                ERR_clear_error()  // the loop ends on "no start line", which is not an error
            }
            let keyPEM = try read(keyPath)
            try withMemoryBIO(keyPEM) { bio throws(ProbeError) in
                // With no callback, OpenSSL takes the user data as the passphrase itself.
                let key: OpaquePointer? = (password ?? "").withCString { pw in
                    PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: pw))
                }
                guard let key else {
                    throw fail(
                        keyPath,
                        password == nil
                            ? "no readable PEM private key (encrypted? give its password)"
                            : "no PEM private key, or the password is wrong")
                }
                defer { EVP_PKEY_free(key) }
                guard SSL_CTX_use_PrivateKey(ctx, key) == 1 else { throw fail(keyPath, "OpenSSL refused the key") }
            }
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else {
            throw ProbeError(
                .invalidOption, "client certificate: the private key does not belong to the certificate",
                details: OpenSSLError.drain().map(\.text))
        }
    }

    /// Runs `body` with a memory BIO holding a copy of `bytes` (copied, so no pointer into a
    /// Swift array outlives its closure).
    private func withMemoryBIO(_ bytes: [UInt8], _ body: (OpaquePointer) throws(ProbeError) -> Void) throws(ProbeError)
    {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw ProbeError(.invalidOption, "out of memory reading the client certificate")
        }
        defer { BIO_free(bio) }
        let written = bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(bytes.count) else {
            throw ProbeError(.invalidOption, "out of memory reading the client certificate")
        }
        try body(bio)
    }
}
