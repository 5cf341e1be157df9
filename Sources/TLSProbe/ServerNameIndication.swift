/// Which server name the ClientHello carries.
public enum ServerNameIndication: Hashable, Sendable {
    /// The target's host name; none for IP literals (RFC 6066 section 3 forbids literal addresses).
    case automatic
    /// This name instead (curl's `--resolve`-style testing of virtual hosts); never an IP literal.
    case name(String)
    /// No server_name extension at all.
    case none
}
