/// Why certificates could not be loaded from a file.
public enum LoadError: Error, Sendable, CustomStringConvertible {
    /// The file could not be read (missing, permissions, a directory).
    case unreadable(path: String, reason: String)
    /// The content is not a certificate in any supported format, or is malformed.
    case malformed(DecodingError)
    /// A PKCS#12 file needs a password, or the one given is wrong.
    case password(path: String, reason: String)

    /// One line for the user.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .malformed(let e): e.description
        case .password(let path, let reason): "\(path): \(reason)"
        }
    }
}
