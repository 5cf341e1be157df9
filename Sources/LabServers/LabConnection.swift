internal import COpenSSL
import Dispatch
import Synchronization
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a connection's dialogue stands.
indirect enum Stage {
    /// Sending `output` on the plain socket, then `then`.
    case sendPlain(then: Stage)
    /// Waiting for an SMTP command before STARTTLS.
    case smtpCommand
    /// The TLS handshake (from the ClientHello on).
    case handshake
    /// Reading an HTTP request over TLS.
    case httpsRequest
    /// Reading SMTP commands over TLS.
    case smtpOverTLS
    /// Sending `output` over TLS, then `then`.
    case sendTLS(then: Stage)
    /// Reading a plain HTTP request.
    case httpRequest
    /// Reading the ClientHello a legacy responder answers (`LabLegacyServer`).
    case legacyHello
    /// Finished: close_notify when TLS, then our side of the connection ends.
    case done(served: Bool)
    /// Reading away what the client still sends, until it closes (then the socket is closed).
    case linger
}

/// One client connection: owned by the acceptor while it waits, by one worker while it runs.
/// Handing it over goes through a lock (the work queue or the inbox), which orders the accesses.
/// It owns its socket and its SSL object, freed in deinit (`release()` frees them earlier); the
/// SSL object never leaves it: the dialogue calls its `tls…` methods.
final class Connection: @unchecked Sendable {
    // @unchecked: only one thread holds a connection at a time (see above).
    let fd: Int32
    let endpoint: Int
    /// The source address, the key of the per-peer limit.
    let peer: [UInt8]
    /// Accept time plus the connection timeout.
    let closeBy: Double
    var stage: Stage = .done(served: false)
    /// When the client must have done what the current stage waits for.
    var stageDeadline = 0.0
    /// While parked: the earlier of the two deadlines, and since when it waits.
    var deadline = 0.0
    var waitingSince = 0
    var waitsToWrite = false
    /// The TLS state once `startTLS` made it.
    private var ssl: OpaquePointer?
    /// Whether `release()` ran: the descriptor may be another file's by now.
    private var released = false
    var input: [UInt8] = []
    var output: [UInt8] = []
    var sent = 0
    var commands = 0
    var facts = ""
    /// Whether the statistics already count it (served or failed).
    var counted = false
    var drained = 0

    init(fd: Int32, endpoint: Int, peer: [UInt8], closeBy: Double) {
        self.fd = fd
        self.endpoint = endpoint
        self.peer = peer
        self.closeBy = closeBy
    }

    /// Moves to `stage`, which the client has `seconds` from `now` to complete.
    func expect(_ stage: Stage, within seconds: Double, now: Double) {
        self.stage = stage
        stageDeadline = now + seconds
    }

    /// The first whole line of `input` (without CR LF), removed from it; nil while none ended.
    func takeLine() -> String? {
        guard let end = input.firstIndex(of: 0x0A) else { return nil }
        var line = input[..<end]
        if line.last == 0x0D { line = line.dropLast() }
        let text = String(decoding: line, as: UTF8.self)
        input.removeSubrange(...end)
        return text
    }

    /// Frees the TLS state and closes the socket. Idempotent; deinit calls it.
    func release() {
        guard !released else { return }
        released = true
        if let ssl { SSL_free(ssl) }
        ssl = nil
        systemClose(fd)
    }

    deinit { release() }

    /// Makes the connection's SSL object as a server of `context` (once); false when OpenSSL
    /// refuses.
    func startTLS(_ context: ServerTLSContext) -> Bool {
        if ssl != nil { return true }
        guard let made = context.makeSSL() else { return false }
        ssl = made
        // Partial writes: a non-blocking write resumes where the socket had no room. Released
        // buffers: thousands of waiting connections keep no 16 KiB record buffers each.
        let modes = SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
        _ = SSL_ctrl(made, SSL_CTRL_MODE, Int(modes | SSL_MODE_RELEASE_BUFFERS), nil)
        return SSL_set_fd(made, fd) == 1
    }

    /// One step of the server handshake: SSL_accept's result (1 when done).
    func tlsAccept() -> Int32 { ssl.map { SSL_accept($0) } ?? -1 }

    /// Writes `output` from `sent` on: SSL_write's result.
    func tlsWrite() -> Int32 {
        guard let ssl else { return -1 }
        return output.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + sent, Int32($0.count - sent)) }
    }

    /// Reads into `buffer`: SSL_read's result.
    func tlsRead(into buffer: inout [UInt8]) -> Int32 {
        guard let ssl else { return -1 }
        return buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
    }

    /// What a TLS call's `result` means (`SSL_ERROR_*`).
    func tlsError(_ result: Int32) -> Int32 { ssl.map { SSL_get_error($0, result) } ?? SSL_ERROR_SSL }

    /// Sends close_notify when TLS was spoken.
    func tlsShutdown() { if let ssl { _ = SSL_shutdown(ssl) } }

    /// Protocol, cipher and client certificate, for the answer page.
    func tlsFacts() -> String {
        guard let ssl else { return "\n" }
        var lines: [String] = []
        if let version = SSL_get_version(ssl) { lines.append("Protocol: \(String(cString: version))") }
        if let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher) {
            lines.append("Cipher: \(String(cString: name))")
        }
        if let peer = SSL_get0_peer_certificate(ssl), let name = X509_get_subject_name(peer),
            let text = X509_NAME_oneline(name, nil, 0)
        {
            lines.append("Client certificate: \(String(cString: text))")
            CRYPTO_free(text, nil, 0)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
