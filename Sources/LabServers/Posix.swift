#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Module-qualified aliases: LabListener's own `bind` and `close` would shadow the system calls.
#if canImport(Glibc)
    @discardableResult func systemClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    func systemBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.bind(fd, address, length)
    }
    let systemSocketStream = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, bytes, count) }
#else
    @discardableResult func systemClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
    func systemBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Darwin.bind(fd, address, length)
    }
    let systemSocketStream = SOCK_STREAM
    func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, bytes, count) }
#endif

/// Sends every byte of `bytes` on a plain socket; false when the peer is gone.
/// MSG_NOSIGNAL: a peer that closed must not raise SIGPIPE.
func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
        let n = bytes.withUnsafeBytes { buf in
            send(fd, buf.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
        }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        sent += n
    }
    return true
}

/// Reads one CRLF- or LF-terminated line from a plain socket, byte by byte so that nothing after
/// the line (a TLS ClientHello after STARTTLS) is consumed; nil on EOF, error or an over-long line.
func readLine(_ fd: Int32, maximum: Int = 1000) -> String? {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while line.count <= maximum {
        let n = recv(fd, &byte, 1, 0)
        if n < 0 && errno == EINTR { continue }
        guard n == 1 else { return nil }
        if byte == 0x0A {
            if line.last == 0x0D { line.removeLast() }
            return String(decoding: line, as: UTF8.self)
        }
        line.append(byte)
    }
    return nil
}

/// Raises the soft limit on open descriptors to the hard limit (a room of clients needs more
/// than the common default of 1,024) and returns the limit in force. Never lowers it.
func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return 1024 }
    // RLIM_INFINITY, all ones (its C macro does not import).
    let unlimited = rlim_t.max
    // An unlimited hard limit cannot be the soft one (the kernel caps descriptors at nr_open).
    let wanted = limit.rlim_max == unlimited ? max(limit.rlim_cur, 1 << 20) : limit.rlim_max
    if limit.rlim_cur != unlimited && limit.rlim_cur < wanted {
        var raised = limit
        raised.rlim_cur = wanted
        if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return limit.rlim_cur == unlimited ? Int(Int32.max) : Int(min(limit.rlim_cur, rlim_t(Int32.max)))
}
