import Foundation
import SuiteFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `trustx check HOST --timeout S` bounds the whole run, AIA fetches included (D45): a server
/// that is slow to answer and an AIA URL that never answers together cannot stretch it.
@Suite(.serialized, .onTestThreads) final class RunDeadlineTests {
    /// Connects to 127.0.0.1:`port`; -1 on failure.
    static func connectLoopback(_ port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if !ok {
            close(fd)
            return -1
        }
        return fd
    }

    /// Copies bytes both ways between `a` and `b` until either side closes.
    static func pump(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16_384)
        loop: while poll(&fds, 2, 10_000) > 0 {
            for (i, other) in [(0, b), (1, a)] where fds[i].revents != 0 {
                let n = read(fds[i].fd, &buffer, buffer.count)
                if n <= 0 || write(other, buffer, n) != n { break loop }
            }
        }
        close(a)
        close(b)
    }

    @Test func testAIAFetchesEndWithinTheRunsTimeout() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-deadline-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // An AIA server that accepts and never answers.
        let silent = try LoopbackListener { fd in
            sleep(30)
            close(fd)
        }
        defer { silent.stop() }
        // Root, an intermediate the server does not send, and a leaf pointing at the silent server.
        try OpenSSLPKI.makeThreeLevels(
            in: dir, root: "Deadline Root", intermediate: "Deadline CA",
            leafExtensions: "authorityInfoAccess=caIssuers;URI:http://127.0.0.1:\(silent.port)/int.cer")
        let server = try OpenSSLServer(
            [
                "-cert", dir.appendingPathComponent("leaf.pem").path, "-key",
                dir.appendingPathComponent("leaf.key").path,
            ],
            in: dir)
        defer { server.stop() }
        // A slow server: the handshake starts 0.3 s after the client connects, so that the AIA
        // fetch, had it a fresh timeout of its own, would run past the run's (0.8 s: the same
        // shape as 0.6 s of 1.5, waited out in half the time).
        let serverPort = server.port
        let slow = try LoopbackListener { client in
            usleep(300_000)
            let upstream = Self.connectLoopback(serverPort)
            guard upstream >= 0 else {
                close(client)
                return
            }
            Self.pump(client, upstream)
        }
        defer { slow.stop() }

        let started = Date()
        let r = try CLI.run([
            "check", "127.0.0.1:\(slow.port)", "--anchor", dir.appendingPathComponent("ca.pem").path, "--timeout",
            "0.8", "--format", "json",
        ])
        let elapsed = Date().timeIntervalSince(started)
        #expect(r.status == 69, "\(r.out + r.err)")
        let json = try r.json()
        let connection = try #require(json["connection"] as? [String: Any])
        let error = try #require(connection["error"] as? [String: Any], "\(r.out)")
        #expect((error["kind"] as? String) == "timed-out")
        #expect((error["urlError"] as? Int) == -1001)
        #expect((error["message"] as? String)?.contains("--timeout 0.8 s") == true, "\(r.out)")
        // A hang guard only, generous for a loaded machine: without the run's deadline this took
        // 0.3 s + the AIA's own 0.8 s and ended with a verdict (status 1, not 69), which the
        // status above already refuses.
        #expect(elapsed < 10)
    }
}
