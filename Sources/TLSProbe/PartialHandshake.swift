import ATSModel

/// What the observer saw before a failure, so that a report can still show it.
public struct PartialHandshake: Sendable {
    /// The version the server chose in its ServerHello, if it got that far.
    public var version: TLSVersion?
    /// The certificates the server sent, if any (as sent).
    public var presentedChain: [[UInt8]]
    /// Whether the server asked for a client certificate.
    public var clientCertificateRequested: Bool
    /// The CA names from its request.
    public var acceptableClientCANames: [String]
    /// Whether a client certificate was sent.
    public var clientCertificateSent: Bool
    /// The address reached, if the TCP connection was made.
    public var peerAddress: String?
}
