import TrustX509

/// A file the lab's plain HTTP endpoint serves (the AIA intermediate).
public struct LabHTTPFile: Sendable {
    /// The Content-Type header.
    public var contentType: String
    /// The body.
    public var body: [UInt8]

    /// Creates a file.
    public init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        self.body = body
    }
}

/// What an endpoint does with each connection.
public enum LabService: Sendable {
    /// TLS at once, then one HTTP request answered with a plain-text page (`page` and the
    /// connection's protocol and cipher), like `openssl s_server -www`.
    case https(LabTLSConfiguration, page: String)
    /// SMTP: a 220 banner, EHLO offering STARTTLS, `STARTTLS` -> 220, then TLS and a minimal
    /// SMTP dialogue whose EHLO answer carries `page`'s first line.
    case smtpStartTLS(LabTLSConfiguration, page: String)
    /// Plain HTTP GET of fixed paths (`/intermediate.der`), for AIA downloads.
    case http(files: [String: LabHTTPFile])
    /// A server of a protocol or cipher suite OpenSSL 3 does not have: the client's first record
    /// is read and answered as such a server answers it (`LabLegacyServer`); `chain` is what it
    /// would present.
    case legacy(LabLegacyServer, chain: [Certificate])
}

/// One listening port of a `LabServer`.
public struct LabEndpoint: Sendable {
    /// A name to find its port by (the scenario's name).
    public var name: String
    /// The port; 0 lets the kernel choose.
    public var port: UInt16
    /// What it serves.
    public var service: LabService

    /// Creates an endpoint.
    public init(name: String, port: UInt16 = 0, service: LabService) {
        self.name = name
        self.port = port
        self.service = service
    }
}

/// Limits that keep a training room's servers responsive however its clients behave.
///
/// No client holds a worker while the server waits for it: every socket is non-blocking, and a
/// connection waits for its client's next bytes (or for room to send) in the acceptor's poll set,
/// where it costs a descriptor and nothing else. Those waiting connections are what the limits
/// below bound, each with eviction of the longest-waiting one instead of refusing a newcomer.
public struct LabServerOptions: Sendable {
    /// The address every endpoint binds (loopback unless a classroom needs otherwise).
    public var listenAddress: String
    /// Worker threads shared by all endpoints: they only run steps that have input ready (a TLS
    /// handshake's computation, an answer), never wait for a client.
    public var workers: Int
    /// Seconds a connection may live from accept to close, however it keeps the server busy.
    public var connectionTimeout: Double
    /// Seconds a client has for each thing it owes: its ClientHello and the rest of the handshake,
    /// its request after the handshake, each SMTP command, taking each answer (at most
    /// `connectionTimeout`). A silent client is let go after this.
    public var readTimeout: Double
    /// Connections one endpoint keeps open; at the limit its longest-waiting connection is closed
    /// to make room for the new one, so another port's abusers never take this port's room.
    public var connectionsPerPort: Int
    /// Connections one source address keeps open on one endpoint; at the limit that peer's own
    /// longest-waiting connection is closed for the new one (on loopback every client is the same
    /// peer: the limit then bounds the machine's idle connections per port, and the newest client
    /// is still served).
    public var connectionsPerPeer: Int

    /// Creates options: 127.0.0.1, 32 workers, 10 s per connection, 2 s for each message, 1,024
    /// connections per port and 256 per peer and port.
    public init(
        listenAddress: String = "127.0.0.1", workers: Int = 32, connectionTimeout: Double = 10,
        readTimeout: Double = 2, connectionsPerPort: Int = 1024, connectionsPerPeer: Int = 256
    ) {
        self.listenAddress = listenAddress
        self.workers = max(1, workers)
        self.connectionTimeout = connectionTimeout
        self.readTimeout = readTimeout
        self.connectionsPerPort = max(1, connectionsPerPort)
        self.connectionsPerPeer = max(1, connectionsPerPeer)
    }
}

/// Counters of what a `LabServer` did, for tests and the lab's status line.
public struct LabServerStatistics: Hashable, Sendable {
    /// Connections accepted.
    public var accepted: Int
    /// Connections served to the end (TLS handshake and answer, or an HTTP answer).
    public var served: Int
    /// Connections that ended unserved: failed TLS handshakes (no common version, no client
    /// certificate, client gave up), refused or over-long requests, clients that closed.
    public var failedHandshakes: Int
    /// Connections cut off because their client did not send or read in time.
    public var timedOut: Int
    /// Connections closed at once because no waiting connection could make room for them.
    public var dropped: Int
    /// Waiting connections closed to make room for a newer one (a port's, a peer's or the
    /// process's connection limit).
    public var evicted: Int
}
