import COpenSSL
import Foundation
import SuiteFixtures
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command to completion and returns its exit status and output.
@discardableResult
func runCommand(_ args: [String], cwd: String? = nil, stdin: String? = nil) throws -> (
    status: Int32, out: String, err: String
) {
    let r = try ProcessRunner.run(
        "/usr/bin/env", args, in: cwd.map { URL(fileURLWithPath: $0) }, stdin: stdin.map { Data($0.utf8) })
    return (r.status, r.out, r.err)
}

extension TestPKI {
    /// The probe's files (SuiteFixtures' `TestPKI.probe`), made once per test process.
    static func get() throws -> TestPKI { try probe.get() }
}

/// A loopback TCP server in this process; each connection is handled on its own thread.
final class TCPServer: @unchecked Sendable {  // fd/port immutable; isStopped guarded by the lock
    let fd: Int32
    let port: UInt16

    init(ipv6: Bool = false, handler: @escaping @Sendable (Int32) -> Void) {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(4))
        if ipv6 {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_addr = in6addr_loopback
            withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    _ = bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    _ = bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        listen(fd, 16)
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &len) }
        }
        let raw = withUnsafeBytes(of: storage) { Array($0) }
        self.fd = fd
        port = UInt16(raw[2]) << 8 | UInt16(raw[3])
        let listener = fd
        Thread.detachNewThread {
            while true {
                let c = accept(listener, nil, nil)
                if c < 0 { return }
                // A peer that stops reading must not block a test thread for ever.
                var tv = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                Thread.detachNewThread {
                    handler(c)
                    close(c)
                }
            }
        }
    }

    private let stopped = NSLock()
    private var isStopped = false

    /// Closes the listener (once); accept() in the server thread then fails and the thread ends.
    func stop() {
        stopped.lock()
        defer { stopped.unlock() }
        guard !isStopped else { return }
        isStopped = true
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    deinit { stop() }
}

/// Blocking socket helpers for the in-process servers.
enum Wire {
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    static func send(_ fd: Int32, _ text: String) -> Bool { send(fd, Array(text.utf8)) }

    static func receive(_ fd: Int32, max: Int = 16384) -> [UInt8] {
        var buf = [UInt8](repeating: 0, count: max)
        let n = recv(fd, &buf, max, 0)
        return n > 0 ? Array(buf[0..<n]) : []
    }

    /// One line, read byte by byte so nothing after it (a ClientHello) is consumed.
    static func readLine(_ fd: Int32) -> String? {
        var line: [UInt8] = []
        var b: UInt8 = 0
        while recv(fd, &b, 1, 0) == 1 {
            if b == 0x0A { return String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self) }
            line.append(b)
            if line.count > 8192 { return nil }
        }
        return nil
    }

    static func readExactly(_ fd: Int32, _ n: Int) -> [UInt8]? {
        var out: [UInt8] = []
        while out.count < n {
            let got = receive(fd, max: n - out.count)
            if got.isEmpty { return nil }
            out += got
        }
        return out
    }

    /// Reads an HTTP request head; returns the request line.
    static func readRequestHead(_ fd: Int32) -> String? {
        guard let first = readLine(fd) else { return nil }
        while let line = readLine(fd), !line.isEmpty {}
        return first
    }
}

/// A TLS server side in-process (OpenSSL's SSL_accept on a connected blocking socket).
enum TestTLS {
    /// Accepts TLS on `fd` with the PEM certificate chain and key, writes a line, and waits for
    /// the peer to close. Returns whether the handshake succeeded.
    @discardableResult
    static func serve(_ fd: Int32, certificate: String, key: String) -> Bool {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { return false }
        defer { SSL_CTX_free(ctx) }
        guard SSL_CTX_use_certificate_chain_file(ctx, certificate) == 1,
            SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) == 1, let ssl = SSL_new(ctx)
        else { return false }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        guard SSL_accept(ssl) == 1 else {
            ERR_clear_error()
            return false
        }
        _ = "hello\r\n".withCString { SSL_write(ssl, $0, 7) }
        var b: UInt8 = 0
        _ = SSL_read(ssl, &b, 1)
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
        return true
    }
}

/// Hand-made TLS records for hostile servers.
enum Records {
    static func u16(_ n: Int) -> [UInt8] { [UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
    static func u24(_ n: Int) -> [UInt8] { [UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }

    /// Records of `type`, fragmented at 16 KiB.
    static func records(_ type: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        repeat {
            let chunk = payload[i..<min(payload.count, i + 16384)]
            out += [type, 3, 3] + u16(chunk.count) + chunk
            i += 16384
        } while i < payload.count
        return out
    }

    static func handshake(_ type: UInt8, _ body: [UInt8]) -> [UInt8] { [type] + u24(body.count) + body }

    /// A TLS 1.2 ServerHello choosing TLS_RSA_WITH_AES_128_GCM_SHA256 with renegotiation_info,
    /// which OpenSSL's client accepts.
    static var serverHello12: [UInt8] {
        let ext: [UInt8] = [0xFF, 0x01, 0x00, 0x01, 0x00]
        let body: [UInt8] =
            [3, 3] + [UInt8](repeating: 0x42, count: 32) + [0] + [0x00, 0x9C] + [0] + u16(ext.count) + ext
        return records(22, handshake(2, body))
    }

    /// A TLS 1.2 Certificate message holding `certs`.
    static func certificate(_ certs: [[UInt8]]) -> [UInt8] {
        let list = certs.flatMap { u24($0.count) + $0 }
        return records(22, handshake(11, u24(list.count) + list))
    }
}
