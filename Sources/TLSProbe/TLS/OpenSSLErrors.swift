import TrustCore
import TrustX509

/// One entry of OpenSSL's per-thread error queue, as a value.
struct OpenSSLError: Hashable, Sendable, CustomStringConvertible {
    let library: Int32
    let reason: Int32
    let text: String

    var description: String { text }

    /// Empties the calling thread's error queue into values (never printed raw). At most 16
    /// entries are kept: the rest repeat what the first ones say.
    static func drain() -> [OpenSSLError] {
        OpenSSLErrorQueue.drainEntries(limit: 16).map {
            OpenSSLError(library: $0.library, reason: $0.reason, text: $0.reasonText)
        }
    }
}
