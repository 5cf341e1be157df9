import TrustX509

/// Why building a key or certificate failed.
public enum BuilderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// OpenSSL refused an operation: `operation` names it, `errors` is OpenSSL's error queue as it
    /// stood at the failure (drained then, so it explains this failure and no later one).
    case openssl(operation: String, errors: [OpenSSLErrorQueue.Entry])
    /// The request cannot be honoured (e.g. a signature algorithm that does not fit the key).
    case unsupported(String)
    /// The certificate was written but does not decode (only for deliberately broken input).
    case undecodable(DecodingError)

    /// One line for people.
    public var description: String {
        switch self {
        case .openssl(let operation, let errors):
            "\(operation) failed: "
                + (errors.isEmpty ? "no OpenSSL error recorded" : errors.map(\.line).joined(separator: "; "))
        case .unsupported(let reason): reason
        case .undecodable(let error): "the built certificate does not decode: \(error)"
        }
    }

    /// OpenSSL's reasons, e.g. `digest too big for rsa key`, first to last; empty for other errors.
    public var openSSLReasons: [String] {
        if case .openssl(_, let errors) = self { errors.map(\.reasonText) } else { [] }
    }

    /// Drains the calling thread's OpenSSL error queue into one error value (the queue is
    /// per thread, so this must run on the thread that made the failed call, before any other).
    static func openssl(_ operation: String) -> BuilderError {
        .openssl(operation: operation, errors: OpenSSLErrorQueue.drainEntries(limit: 16))
    }
}
