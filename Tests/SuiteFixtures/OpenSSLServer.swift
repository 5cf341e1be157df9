import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `openssl s_server -www` in a subprocess, listening on a loopback port the kernel picks: an
/// outside TLS implementation for the tests to connect to (the tests' one s_server runner).
///
/// s_server is started on port 0. OpenSSL 3 prints `ACCEPT 127.0.0.1:PORT` (`ACCEPT [::1]:PORT`)
/// with the bound port once the socket listens (apps/lib/s_socket.c, `do_server`), so the port is
/// read from that line: no port is guessed, and no other process can take it in between.
public final class OpenSSLServer {
    /// Why the server did not start, with what it printed.
    public struct Failure: Error, CustomStringConvertible {
        /// The message.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// The s_server process.
    public let process: StartedChild
    /// The port the server listens on.
    public let port: Int
    /// Where s_server's output goes (a file: a pipe nobody drains would block s_server once full).
    public let log: URL

    /// `port` as a socket API takes it.
    public var tcpPort: UInt16 { UInt16(port) }

    /// Starts `openssl s_server -www -accept HOST:PORT ARGUMENTS` in `directory` and returns once it
    /// listens. `host` is a loopback address, `127.0.0.1` or `::1`; `port` 0 lets the kernel pick,
    /// another port is one an earlier server of the test had (to restart a server in place).
    public init(_ arguments: [String], host: String = "127.0.0.1", port requested: Int = 0, in directory: URL) throws {
        precondition(host == "127.0.0.1" || host == "::1", "tests serve on loopback only")
        let accept = host.contains(":") ? "[\(host)]:\(requested)" : "\(host):\(requested)"
        log = directory.appendingPathComponent("s_server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = try StartedChild(
            URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "s_server", "-www", "-accept", accept] + arguments,
            in: directory, stdout: handle, stderr: handle)
        self.process = process
        // Startup takes milliseconds; the bound only keeps a broken openssl from hanging the run.
        let giveUp = Date().addingTimeInterval(30)
        var found: Int?
        while found == nil && process.isRunning && Date() < giveUp {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            // Given a port, s_server prints a bare `ACCEPT` once it listens.
            found = requested > 0 ? (output.contains("ACCEPT") ? requested : nil) : Self.acceptedPort(in: output)
            if found == nil { usleep(10_000) }
        }
        guard let found else {
            if process.isRunning {
                process.signal(SIGTERM)
                process.waitForExit()
            }
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failure(message: "openssl s_server \(arguments.joined(separator: " ")) did not start: \(output)")
        }
        self.port = found
    }

    /// The port of s_server's `ACCEPT host:port` line, nil until it is printed.
    public static func acceptedPort(in output: String) -> Int? {
        for line in output.split(separator: "\n") where line.hasPrefix("ACCEPT ") {
            if let last = line.split(separator: ":").last, let port = Int(last), port > 0 { return port }
        }
        return nil
    }

    /// Terminates the server and waits for it; calling it again does nothing.
    public func stop() {
        if process.isRunning { process.signal(SIGTERM) }
        process.waitForExit()
    }

    /// `openssl s_server ARGUMENTS` in the directory `cwd`, on 127.0.0.1, or on ::1 when `ipv6`.
    public convenience init(_ arguments: [String], ipv6: Bool = false, cwd: String) throws {
        try self.init(arguments, host: ipv6 ? "::1" : "127.0.0.1", in: URL(fileURLWithPath: cwd))
    }

    deinit { stop() }

    /// Whether a TCP socket can be bound to [::1] on this machine (IPv6 may be disabled).
    public static func canBindIPv6Loopback() -> Bool {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        address.sin6_port = 0
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        return result == 0
    }
}
