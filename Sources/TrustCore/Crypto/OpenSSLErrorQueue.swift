internal import COpenSSL

/// OpenSSL's per-thread error queue, drained into Swift values (never printed raw).
public enum OpenSSLErrorQueue {
    /// Empties the calling thread's queue and returns its entries as OpenSSL's one-line texts.
    public static func drain() -> [String] {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages
    }

    /// The drained queue in one line, or a note that it was empty.
    public static func drainedLine() -> String {
        let messages = drain()
        return messages.isEmpty ? "no OpenSSL error recorded" : messages.joined(separator: "; ")
    }
}
