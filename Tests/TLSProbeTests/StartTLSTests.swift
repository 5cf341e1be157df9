import Foundation
import SuiteFixtures
import Testing

@testable import TLSProbe

#if canImport(Glibc)
    import Glibc
#endif

/// STARTTLS against small in-process servers that speak each protocol's plaintext preamble and
/// then SSL_accept. Each fake is cross-checked with `openssl s_client -starttls`, an outside
/// client, so the fake cannot merely agree with our own client.
@Suite(.serialized, .onTestThreads) final class StartTLSTests {
    var pki: TestPKI!
    var servers: [TCPServer] = []

    init() throws { pki = try TestPKI.get() }
    deinit {
        servers.forEach { $0.stop() }
        servers = []
    }

    /// A fake server for `proto`; `offerTLS: false` makes it refuse the upgrade.
    func fake(_ proto: StartTLSProtocol, offerTLS: Bool = true) throws -> UInt16 {
        let chain = try pki.bundle("leaf-chain.pem", ["leaf", "int"])
        let key = pki.path("leaf.key")
        let server = TCPServer { fd in
            guard Self.preamble(proto, fd, offerTLS: offerTLS) else { return }
            TestTLS.serve(fd, certificate: chain, key: key)
        }
        servers.append(server)
        return server.port
    }

    /// Answers commands generically enough for both our client and s_client; true when it is
    /// time for TLS.
    static func preamble(_ proto: StartTLSProtocol, _ fd: Int32, offerTLS: Bool) -> Bool {
        switch proto {
        case .smtp:
            _ = Wire.send(fd, "220 fake.test ESMTP ready\r\n")
            while let line = Wire.readLine(fd) {
                let cmd = line.uppercased()
                if cmd.hasPrefix("EHLO") || cmd.hasPrefix("HELO") {
                    _ = Wire.send(
                        fd,
                        offerTLS
                            ? "250-fake.test\r\n250-PIPELINING\r\n250 STARTTLS\r\n"
                            : "250-fake.test\r\n250 PIPELINING\r\n")
                } else if cmd == "STARTTLS" {
                    guard offerTLS else { _ = Wire.send(fd, "502 no\r\n"); continue }
                    _ = Wire.send(fd, "220 2.0.0 Ready to start TLS\r\n")
                    return true
                } else {
                    _ = Wire.send(fd, "221 bye\r\n")
                    return false
                }
            }
        case .imap:
            _ = Wire.send(fd, "* OK [CAPABILITY IMAP4rev1 STARTTLS] fake ready\r\n")
            while let line = Wire.readLine(fd) {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { return false }
                let tag = parts[0]
                switch parts[1].uppercased() {
                case "CAPABILITY": _ = Wire.send(fd, "* CAPABILITY IMAP4rev1 STARTTLS\r\n\(tag) OK done\r\n")
                case "STARTTLS":
                    guard offerTLS else { _ = Wire.send(fd, "\(tag) BAD no\r\n"); continue }
                    _ = Wire.send(fd, "\(tag) OK Begin TLS negotiation now\r\n")
                    return true
                default: _ = Wire.send(fd, "\(tag) BAD unknown\r\n")
                }
            }
        case .pop3:
            _ = Wire.send(fd, "+OK fake POP3 ready\r\n")
            while let line = Wire.readLine(fd) {
                switch line.uppercased() {
                case "CAPA": _ = Wire.send(fd, "+OK\r\nSTLS\r\n.\r\n")
                case "STLS":
                    guard offerTLS else { _ = Wire.send(fd, "-ERR no\r\n"); continue }
                    _ = Wire.send(fd, "+OK Begin TLS\r\n")
                    return true
                default: _ = Wire.send(fd, "-ERR unknown\r\n")
                }
            }
        case .ftp:
            _ = Wire.send(fd, "220-fake FTP\r\n220 ready\r\n")
            while let line = Wire.readLine(fd) {
                if line.uppercased() == "AUTH TLS" {
                    guard offerTLS else { _ = Wire.send(fd, "504 no\r\n"); continue }
                    _ = Wire.send(fd, "234 AUTH TLS OK\r\n")
                    return true
                }
                _ = Wire.send(fd, "500 unknown\r\n")
            }
        case .postgres:
            guard let request = Wire.readExactly(fd, 8), request == [0, 0, 0, 8, 0x04, 0xD2, 0x16, 0x2F] else {
                return false
            }
            _ = Wire.send(fd, offerTLS ? "S" : "N")
            return offerTLS
        }
        return false
    }

    func check(_ proto: StartTLSProtocol) throws {
        let port = try fake(proto)
        let target = ProbeTarget(host: "127.0.0.1", port: port)
        let h = try Probe.handshake(with: target, options: ProbeOptions(timeout: .seconds(5), startTLS: proto))
        #expect(h.startTLS == proto)
        #expect(h.presentedChain == ([try pki.der("leaf"), try pki.der("int")]), "\(proto.rawValue)")
        #expect(h.version == .tls1_3)
        #expect(h.alpn == nil)
        #expect(h.timings.preambleMs > 0)

        // The outside client agrees the fake speaks the protocol.
        let r = try runCommand(
            ["timeout", "10", "openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-starttls", proto.rawValue],
            stdin: "")
        #expect(r.out.contains("Cipher is"), "s_client -starttls \(proto.rawValue): \(r.out) \(r.err)")

        // And a server that will not upgrade is reported as such.
        let refusing = try fake(proto, offerTLS: false)
        if let e = #expect(
            throws: (any Error).self,
            performing: {
                try Probe.handshake(
                    with: ProbeTarget(host: "127.0.0.1", port: refusing),
                    options: ProbeOptions(timeout: .seconds(2), startTLS: proto))
            })
        {
            let e = e as! ProbeError
            #expect(e.kind == .startTLSFailed, "\(proto): \(e.message)")
            #expect(e.urlError == -1200)
        }
    }

    @Test func testSMTP() throws { try check(.smtp) }
    @Test func testIMAP() throws { try check(.imap) }
    @Test func testPOP3() throws { try check(.pop3) }
    @Test func testFTP() throws { try check(.ftp) }
    @Test func testPostgres() throws { try check(.postgres) }
}
