/// Whether and how to reach the server through an HTTP CONNECT proxy.
public enum ProxySetting: Hashable, Sendable {
    /// Connect directly.
    case none
    /// Tunnel through this proxy (`http://host:port`; user info becomes Basic authentication).
    case http(ProxyAddress)
    /// Use `https_proxy` / `HTTPS_PROXY` when set (and the host is not in `no_proxy`/`NO_PROXY`),
    /// as curl does; connect directly otherwise.
    case environment
}
