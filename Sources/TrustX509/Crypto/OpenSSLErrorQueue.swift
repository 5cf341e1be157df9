internal import COpenSSL

/// OpenSSL's per-thread error queue, drained into Swift values (never printed raw). The one
/// place that reads the queue, for TrustCore, the lab and the probe.
public enum OpenSSLErrorQueue {
    /// One entry of the queue.
    public struct Entry: Hashable, Sendable {
        /// The library that raised it (`ERR_GET_LIB`).
        public let library: Int32
        /// The reason code (`ERR_GET_REASON`).
        public let reason: Int32
        /// The reason alone, e.g. `certificate verify failed`.
        public let reasonText: String
        /// OpenSSL's one-line text, e.g. `error:0A000086:SSL routines::certificate verify failed`.
        public let line: String
    }

    /// Empties the calling thread's queue and returns its first `limit` entries (the rest are
    /// dropped: they repeat what the first ones say).
    public static func drainEntries(limit: Int = .max) -> [Entry] {
        var out: [Entry] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            guard out.count < limit else { continue }
            let reason = ERR_GET_REASON(code)
            let reasonText = ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(reason)"
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            out.append(Entry(library: ERR_GET_LIB(code), reason: reason, reasonText: reasonText, line: line))
        }
        return out
    }

    /// Empties the calling thread's queue and returns its entries as OpenSSL's one-line texts.
    public static func drain() -> [String] { drainEntries().map(\.line) }

    /// The drained queue in one line, or a note that it was empty.
    public static func drainedLine() -> String {
        let messages = drain()
        return messages.isEmpty ? "no OpenSSL error recorded" : messages.joined(separator: "; ")
    }
}
