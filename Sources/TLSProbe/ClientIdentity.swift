/// A client certificate and key for servers that ask for one.
public enum ClientIdentity: Hashable, Sendable {
    /// A PKCS#12 file (`.p12`/`.pfx`) with its password: the leaf, its key and optional chain.
    case pkcs12(path: String, password: String)
    /// A PEM certificate file (the leaf first, then any chain) and a PEM private key file,
    /// which may be encrypted with `password`.
    case pem(certificatePath: String, keyPath: String, password: String? = nil)
}
