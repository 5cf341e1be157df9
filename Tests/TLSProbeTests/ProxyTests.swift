import Foundation
import SuiteFixtures
import XCTest

@testable import TLSProbe

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP CONNECT through a real proxy (tinyproxy from Debian) on loopback, to openssl s_server.
final class ProxyTests: XCTestCase {
    var pki: TestPKI!
    var target: OpenSSLServer!
    var proxy: StartedChild?
    var proxyPort: UInt16 = 0

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tinyproxy") else {
            throw XCTSkip("tinyproxy is not installed (apt-get install -y tinyproxy)")
        }
        pki = try TestPKI.get()
        target = try OpenSSLServer(["-cert", "leaf.pem", "-key", "leaf.key"], cwd: pki.dir)
        try startProxy(allowingPort: target.tcpPort)
    }

    override func tearDown() {
        proxy?.signal(SIGTERM)
        proxy?.waitForExit()
        proxy = nil
        target = nil
        unsetenv("https_proxy")
        unsetenv("no_proxy")
    }

    /// A port that was free a moment ago (tinyproxy cannot report a port 0 choice).
    func freePort() -> UInt16 {
        let s = TCPServer { _ in }
        defer { s.stop() }
        return s.port
    }

    func startProxy(allowingPort port: UInt16) throws {
        let dir = pki.dir + "/tinyproxy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        proxyPort = freePort()
        let conf = """
            Port \(proxyPort)
            Listen 127.0.0.1
            Timeout 10
            Allow 127.0.0.1
            ConnectPort \(port)
            MaxClients 10
            LogFile "\(dir)/tinyproxy.log"
            PidFile "\(dir)/tinyproxy.pid"

            """
        try conf.write(toFile: dir + "/tinyproxy.conf", atomically: true, encoding: .utf8)
        proxy = try StartedChild(URL(fileURLWithPath: "/usr/bin/tinyproxy"), ["-d", "-c", dir + "/tinyproxy.conf"])
        // Ready when it accepts a connection.
        let end = Date().addingTimeInterval(5)
        while Date() < end {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = proxyPort.bigEndian
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if rc == 0 { return }
            usleep(10000)
        }
        throw XCTSkip("tinyproxy did not start")
    }

    func testHandshakeThroughTheProxy() throws {
        let options = ProbeOptions(
            timeout: .seconds(5),
            proxy: .http(try ProxyAddress.parse("http://127.0.0.1:\(proxyPort)")))
        let h = try Probe.handshake(with: ProbeTarget(host: "127.0.0.1", port: target.tcpPort), options: options)
        XCTAssertEqual(h.presentedChain, [try pki.der("leaf")])
        XCTAssertEqual(h.proxy?.endpoint.port, proxyPort)
        XCTAssertEqual(h.peerAddress, "127.0.0.1:\(proxyPort)", "the TCP peer is the proxy")
        XCTAssertGreaterThan(h.timings.preambleMs, 0)
    }

    func testProxyFromTheEnvironment() throws {
        setenv("https_proxy", "http://127.0.0.1:\(proxyPort)", 1)
        let options = ProbeOptions(timeout: .seconds(5), proxy: .environment)
        let h = try Probe.handshake(with: ProbeTarget(host: "127.0.0.1", port: target.tcpPort), options: options)
        XCTAssertEqual(h.proxy?.endpoint.port, proxyPort)
        setenv("no_proxy", "127.0.0.1", 1)
        let direct = try Probe.handshake(with: ProbeTarget(host: "127.0.0.1", port: target.tcpPort), options: options)
        XCTAssertNil(direct.proxy, "no_proxy bypasses the proxy")
        XCTAssertEqual(direct.peerAddress, "127.0.0.1:\(target.port)")
    }

    func testProxyRefusesAPort() throws {
        let other = try OpenSSLServer(["-cert", "leaf.pem", "-key", "leaf.key"], cwd: pki.dir)
        let options = ProbeOptions(timeout: .seconds(3), proxy: .http(try ProxyAddress.parse("127.0.0.1:\(proxyPort)")))
        let start = Date()
        XCTAssertThrowsError(
            try Probe.handshake(with: ProbeTarget(host: "127.0.0.1", port: other.tcpPort), options: options)
        ) { e in
            let e = e as! ProbeError
            XCTAssertEqual(e.kind, .proxyFailed, e.message)
            XCTAssertEqual(e.urlError, -1004)
            XCTAssertTrue(e.message.contains("403"), e.message)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
        withExtendedLifetime(other) {}
    }

    func testProxyNotListening() throws {
        let options = ProbeOptions(
            timeout: .seconds(2), proxy: .http(try ProxyAddress.parse("127.0.0.1:\(freePort())")))
        XCTAssertThrowsError(
            try Probe.handshake(with: ProbeTarget(host: "127.0.0.1", port: target.tcpPort), options: options)
        ) { e in
            let e = e as! ProbeError
            XCTAssertEqual(e.kind, .connectionRefused, e.message)
            XCTAssertTrue(e.message.hasPrefix("the proxy "), e.message)
        }
    }
}
