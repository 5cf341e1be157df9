internal import COpenSSL

/// One entry of OpenSSL's per-thread error queue, as a value.
struct OpenSSLError: Hashable, Sendable, CustomStringConvertible {
    let library: Int32
    let reason: Int32
    let text: String

    var description: String { text }

    /// Empties the calling thread's error queue into values (never printed raw). At most 16
    /// entries are kept: the rest repeat what the first ones say.
    static func drain() -> [OpenSSLError] {
        var out: [OpenSSLError] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            guard out.count < 16 else { continue }
            let reason = ERR_GET_REASON(code)
            let text = ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(reason)"
            out.append(OpenSSLError(library: ERR_GET_LIB(code), reason: reason, text: text))
        }
        return out
    }
}
