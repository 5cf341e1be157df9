import COpenSSL
import Foundation
import SuiteFixtures
import TrustCore
import TrustX509

/// What one client connection saw.
struct ClientResult {
    /// Whether SSL_connect succeeded.
    var handshake = false
    /// The certificates as the server sent them (leaf first), DER.
    var chain: [[UInt8]] = []
    /// The OCSP response the server stapled (the client always asks for one).
    var ocspResponse: [UInt8]?
    /// The protocol negotiated, e.g. `TLSv1.3`.
    var protocolVersion = ""
    /// Everything read after the request (an HTTP response or SMTP replies).
    var response = ""
    /// What went wrong, if anything.
    var failure = ""

    /// Whether the server answered the request with its page.
    var served: Bool { response.hasPrefix("HTTP/1.1 200 OK") || response.contains("250 trustx lab") }
}

/// A minimal OpenSSL client for the tests: verification off and security level 0 (it observes,
/// the engine judges), optional client certificate, optional SMTP STARTTLS.
enum TestClient {
    /// The lowest version a client must offer to reach scenario `name`: TLS 1.0 for the one
    /// server stuck below TLS 1.2, 1.2 otherwise.
    static func minimumVersion(for name: String) -> Int32 { name == "tls11-only" ? TLS1_VERSION : TLS1_2_VERSION }

    /// A blocking TCP connection to `address` (IPv4, 127.0.0.1 unless given) and `port` with
    /// send/receive timeouts; nil when refused.
    static func connect(port: UInt16, address: String = "127.0.0.1", timeoutSeconds: Int = 10) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = port.bigEndian
        sa.sin_addr.s_addr = inet_addr(address)
        let r = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard r == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    static func readLine(_ fd: Int32) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 {
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            if byte != 0x0D { line.append(byte) }
        }
        return nil
    }

    /// Connects, handshakes and (unless `request` is false) sends one HTTP GET or, with `smtp`,
    /// runs the STARTTLS dialogue and sends EHLO then QUIT.
    static func run(
        port: UInt16, address: String = "127.0.0.1", sni: String? = nil, minimumVersion: Int32 = TLS1_2_VERSION,
        maximumVersion: Int32 = 0,
        clientCertificatePath: String? = nil, clientKeyPath: String? = nil, smtp: Bool = false, request: Bool = true
    ) -> ClientResult {
        var result = ClientResult()
        defer { ERR_clear_error() }
        guard let fd = connect(port: port, address: address) else {
            result.failure = "connect refused"
            return result
        }
        defer { close(fd) }
        if smtp {
            guard readLine(fd)?.hasPrefix("220") == true else {
                result.failure = "no SMTP banner"
                return result
            }
            send(fd, "EHLO learner.test\r\n")
            var offersStartTLS = false
            while let line = readLine(fd) {
                if line.contains("STARTTLS") { offersStartTLS = true }
                if line.hasPrefix("250 ") { break }
            }
            send(fd, "STARTTLS\r\n")
            guard offersStartTLS, readLine(fd)?.hasPrefix("220") == true else {
                result.failure = "STARTTLS refused"
                return result
            }
        }
        let configuration = ContextKey(
            minimumVersion: minimumVersion, maximumVersion: maximumVersion,
            certificatePath: clientCertificatePath, keyPath: clientKeyPath)
        // A context with a client identity is made for its connection: the identity's file may
        // be rewritten at the same path by a later lab.
        let shared = clientCertificatePath == nil
        guard let ctx = shared ? context(configuration) : makeContext(configuration) else {
            result.failure = "client identity not loaded"
            return result
        }
        defer { if !shared { SSL_CTX_free(ctx) } }
        guard let ssl = SSL_new(ctx) else { return result }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        if let sni { _ = COpenSSL_SSL_set_tlsext_host_name(ssl, sni) }
        _ = COpenSSL_SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp)
        guard SSL_connect(ssl) == 1 else {
            result.failure = "handshake failed"
            return result
        }
        result.handshake = true
        var staple: UnsafePointer<UInt8>?
        let stapleLength = COpenSSL_SSL_get_tlsext_status_ocsp_resp(ssl, &staple)
        if stapleLength > 0, let staple {
            result.ocspResponse = Array(UnsafeBufferPointer(start: staple, count: stapleLength))
        }
        if let version = SSL_get_version(ssl) { result.protocolVersion = String(cString: version) }
        if let stack = SSL_get_peer_cert_chain(ssl) {
            for i in 0..<COpenSSL_sk_X509_num(stack) {
                guard let x = COpenSSL_sk_X509_value(stack, i) else { continue }
                let length = i2d_X509(x, nil)
                guard length > 0 else { continue }
                var der = [UInt8](repeating: 0, count: Int(length))
                der.withUnsafeMutableBufferPointer { buf in
                    var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
                    _ = i2d_X509(x, &p)
                }
                result.chain.append(der)
            }
        }
        guard request else {
            _ = SSL_shutdown(ssl)
            return result
        }
        let text = smtp ? "EHLO learner.test\r\nQUIT\r\n" : "GET / HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while response.count < 65_536 {
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { break }
            response += buffer[0..<Int(n)]
        }
        result.response = String(decoding: response, as: UTF8.self)
        if !result.served { result.failure = "no answer: \(drainErrors())" }
        return result
    }

    /// What a client context is configured with.
    struct ContextKey: Hashable {
        var minimumVersion: Int32
        var maximumVersion: Int32
        var certificatePath: String?
        var keyPath: String?
    }

    /// One client context per configuration, made on first use and kept for the process. An
    /// OpenSSL 3 context costs far more to make than a handshake on it (it fetches every
    /// algorithm anew), and a room of clients would spend most of its CPU there; a context is
    /// safe to share between threads once configured, and a client context caches no sessions,
    /// so every connection still makes a full handshake.
    nonisolated(unsafe) private static var contexts: [ContextKey: OpaquePointer] = [:]
    private static let contextsLock = NSLock()

    /// The shared context for `key`, made on first use.
    static func context(_ key: ContextKey) -> OpaquePointer? {
        contextsLock.lock()
        defer { contextsLock.unlock() }
        if let ctx = contexts[key] { return ctx }
        let ctx = makeContext(key)
        contexts[key] = ctx
        return ctx
    }

    /// A new context for `key`, owned by the caller; nil when its client identity does not load.
    static func makeContext(_ key: ContextKey) -> OpaquePointer? {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else { return nil }
        SSL_CTX_set_security_level(ctx, 0)
        _ = SSL_CTX_set_cipher_list(ctx, "ALL:@SECLEVEL=0")
        _ = COpenSSL_SSL_CTX_set_min_proto_version(ctx, key.minimumVersion)
        _ = COpenSSL_SSL_CTX_set_max_proto_version(ctx, key.maximumVersion)
        if let certificatePath = key.certificatePath, let keyPath = key.keyPath {
            guard SSL_CTX_use_certificate_file(ctx, certificatePath, SSL_FILETYPE_PEM) == 1,
                SSL_CTX_use_PrivateKey_file(ctx, keyPath, SSL_FILETYPE_PEM) == 1
            else {
                SSL_CTX_free(ctx)
                return nil
            }
        }
        return ctx
    }

    /// A plain HTTP GET of `path` on 127.0.0.1:`port`: status line and body.
    static func httpGet(port: UInt16, path: String) -> (status: String, body: [UInt8])? {
        guard let fd = connect(port: port) else { return nil }
        defer { close(fd) }
        send(fd, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            all += buffer[0..<n]
        }
        let separator: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        guard
            let end = (0...(max(0, all.count - 4))).first(where: {
                Array(all[$0..<min($0 + 4, all.count)]) == separator
            })
        else { return nil }
        let head = String(decoding: all[..<end], as: UTF8.self)
        return (String(head.split(separator: "\r\n").first ?? ""), Array(all[(end + 4)...]))
    }

    static func drainErrors() -> String { OpenSSLErrorQueue.drain().joined(separator: "; ") }
}

/// Runs the openssl CLI, an outside implementation the lab's servers are checked against.
enum Shell {
    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs `command` with `/bin/sh -c`, standard input from /dev/null unless the command says
    /// otherwise, standard error merged into the output.
    static func run(_ command: String) throws -> Result {
        let r = try ProcessRunner.shell("{ \(command)\n} 2>&1")
        return Result(status: r.status, output: r.out)
    }
}
