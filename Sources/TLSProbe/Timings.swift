/// Phase durations in milliseconds.
public struct Timings: Hashable, Sendable {
    /// Name resolution (0 for IP literals and for proxied connections, where the proxy resolves).
    public var resolveMs: Double
    /// TCP connect (to the proxy when there is one).
    public var connectMs: Double
    /// The proxy's CONNECT exchange and/or the STARTTLS preamble; 0 when neither.
    public var preambleMs: Double
    /// The TLS handshake, from ClientHello to the client's Finished.
    public var handshakeMs: Double
}
