/// Where a certificate of the evaluated path came from.
public enum CertificateSource: String, Hashable, Sendable {
    /// Presented by the server, or given as the chain.
    case presented = "server"
    /// A custom anchor.
    case anchor = "anchor"
    /// The system trust store.
    case systemStore = "anchor-store"
    /// Fetched through the AIA caIssuers URL.
    case aia = "aia"
    /// Read from a file.
    case file = "file"
}
