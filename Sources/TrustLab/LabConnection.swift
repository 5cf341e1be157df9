internal import COpenSSL
import Dispatch
import Synchronization
import TrustCore
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
    var ssl: OpaquePointer?
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

    /// Frees the TLS state and closes the socket.
    func release() {
        if let ssl { SSL_free(ssl) }
        ssl = nil
        systemClose(fd)
    }
}
