#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which roots are the system's: `--store apple|openssl|PATH`.
public enum TrustStoreChoice: Sendable, Hashable {
    /// Apple's root store, compiled in (the default): what an Apple device trusts.
    case apple
    /// This machine's OpenSSL store (`SSL_CERT_FILE`, `SSL_CERT_DIR`, else /etc/ssl/certs).
    case openssl
    /// A PEM bundle, or a directory of certificates (hashed by `openssl rehash` or not).
    case path(String)

    /// The choice a `--store` value names: `apple`, `openssl`, or anything else as a path.
    public init(argument: String) {
        switch argument {
        case "apple": self = .apple
        case "openssl": self = .openssl
        default: self = .path(argument)
        }
    }

    /// The word `--store` takes for this choice.
    public var argument: String {
        switch self {
        case .apple: "apple"
        case .openssl: "openssl"
        case .path(let path): path
        }
    }

    /// The store. Nothing is read yet: Apple's is compiled in and decodes roots on lookup; the
    /// others read files on their first lookup.
    public func makeStore() -> any IssuerSource {
        switch self {
        case .apple:
            return AppleRootStore.shared
        case .openssl:
            return SystemTrustStore.fromEnvironment()
        case .path(let path):
            if let dir = opendir(path) {
                closedir(dir)
                return SystemTrustStore(certFile: nil, certDirectories: [path], name: path)
            }
            return SystemTrustStore(certFile: path, certDirectories: [], name: path)
        }
    }

    /// Whether a PATH choice names something that exists (a file or a directory).
    public var pathExists: Bool {
        guard case .path(let path) = self else { return true }
        return access(path, F_OK) == 0
    }
}
