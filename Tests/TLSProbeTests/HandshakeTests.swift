import Foundation
import SuiteFixtures
import Synchronization
import Testing
import TrustCore
import TrustX509

@testable import TLSProbe

/// Handshakes against `openssl s_server -www` (an outside implementation) on loopback port 0.
/// Expected values come from the files given to s_server and the flags it was started with.
@Suite(.serialized, .onTestThreads) final class HandshakeTests {
    var pki: TestPKI!
    var servers: [OpenSSLServer] = []

    init() throws {
        pki = try TestPKI.get()
    }

    deinit { servers = [] }

    func server(_ args: [String], ipv6: Bool = false) throws -> UInt16 {
        let s = try OpenSSLServer(args, ipv6: ipv6, cwd: pki.dir)
        servers.append(s)
        return s.tcpPort
    }

    var leafArgs: [String] { ["-cert", "leaf.pem", "-key", "leaf.key"] }

    func probe(_ target: String, _ options: ProbeOptions = ProbeOptions(timeout: .seconds(5))) throws -> Handshake {
        try Probe.handshake(with: try ProbeTarget.parse(target), options: options)
    }

    @Test func testChainExactlyAsSentInWrongOrderWithDuplicates() throws {
        let chain = try pki.bundle("odd-chain.pem", ["root", "int", "int"])
        let port = try server(leafArgs + ["-cert_chain", chain, "-alpn", "http/1.1"])
        let h = try probe("127.0.0.1:\(port)")
        #expect(
            h.presentedChain == ([try pki.der("leaf"), try pki.der("root"), try pki.der("int"), try pki.der("int")]))
        #expect(h.version == .tls1_3)
        #expect(h.cipher.ianaName == h.cipher.openSSLName, "TLS 1.3 suites have one name")
        #expect(
            h.cipher.ianaName.hasPrefix("TLS_AES_") || h.cipher.ianaName.hasPrefix("TLS_CHACHA20"),
            "\(h.cipher.ianaName)")
        #expect(h.group == "x25519", "OpenSSL 3.0's first default group")
        #expect(h.alpn == "http/1.1")
        #expect(h.sni == nil, "no SNI for an IP literal")
        #expect(h.peerAddress == ("127.0.0.1:\(port)"))
        #expect(!h.clientCertificateRequested)
        #expect(h.ocsp == nil)
        #expect(h.timings.handshakeMs > 0)
        #expect(h.timings.connectMs >= 0)
        // The captured DER decodes with TrustCore, as the evaluator will need.
        #expect((try Certificate(der: h.presentedChain[0]).subject.commonNames) == ["127.0.0.1"])
    }

    @Test func testIPv6Loopback() throws {
        let port = try server(leafArgs, ipv6: true)
        let h = try probe("[::1]:\(port)")
        #expect(h.peerAddress == ("[::1]:\(port)"))
        #expect(h.presentedChain == ([try pki.der("leaf")]))
        #expect(h.sni == nil)
    }

    @Test func testTLS12OnlyServer() throws {
        let port = try server(leafArgs + ["-tls1_2"])
        let h = try probe("127.0.0.1:\(port)")
        #expect(h.version == .tls1_2)
        #expect(h.cipher.ianaName.hasPrefix("TLS_ECDHE_ECDSA_WITH_"), "\(h.cipher.ianaName)")
        #expect(h.cipher.openSSLName.hasPrefix("ECDHE-ECDSA-"), "\(h.cipher.openSSLName)")
        #expect(h.group == "x25519")

        let start = Date()
        if let e = #expect(
            throws: (any Error).self,
            performing: { try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3), minimumVersion: .tls1_3)) })
        {
            let e = e as! ProbeError
            #expect(e.kind == .noCommonVersion, "\(e.message)")
            #expect(e.urlError == -1200)
            #expect(e.alert?.code == 70, "s_server answers protocol_version")
            #expect(e.message.contains("TLS 1.3"), "\(e.message)")
        }
        #expect(Date().timeIntervalSince(start) < 4)
    }

    @Test func testMaximumVersionAgainstTLS13Server() throws {
        let port = try server(leafArgs)
        let h = try probe("127.0.0.1:\(port)", ProbeOptions(maximumVersion: .tls1_2))
        #expect(h.version == .tls1_2)
    }

    /// Security level 0 and the legacy cipher list: an RSA-1024/SHA-1 TLS 1.0 server is still seen.
    @Test func testLegacyServerIsObserved() throws {
        let dir = pki.dir
        try pki.sh([
            "openssl", "req", "-x509", "-newkey", "rsa:1024", "-sha1", "-nodes", "-keyout", "weak.key", "-out",
            "weak.pem",
            "-subj", "/CN=weak", "-days", "2",
        ])
        let port = try server(["-cert", "weak.pem", "-key", "weak.key", "-tls1", "-cipher", "ALL:@SECLEVEL=0"])
        let h = try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(5), minimumVersion: .tls1_0))
        #expect(h.version == .tls1_0)
        let weak = try CertificateLoader.load(path: dir + "/weak.pem")[0]
        #expect(h.presentedChain == [weak.der])
        // URLSession's default minimum refuses it.
        if let e = #expect(throws: (any Error).self, performing: { try probe("127.0.0.1:\(port)") }) {
            #expect(((e as! ProbeError).kind) == .noCommonVersion, "\((e as! ProbeError).message)")
            #expect(((e as! ProbeError).urlError) == -1200)
        }
    }

    @Test func testSNIAndConnectTo() throws {
        let port = try server(leafArgs + ["-servername", "other.test", "-cert2", "other.pem", "-key2", "other.key"])
        var target = ProbeTarget(host: "other.test", port: port)
        target.connectTo = Endpoint(host: "127.0.0.1", port: port)
        let named = try Probe.handshake(with: target, options: ProbeOptions(timeout: .seconds(5)))
        #expect(named.sni == "other.test")
        #expect(named.presentedChain == ([try pki.der("other")]), "s_server serves -cert2 for the matching SNI")
        target.sni = .none
        let unnamed = try Probe.handshake(with: target, options: ProbeOptions(timeout: .seconds(5)))
        #expect(unnamed.sni == nil)
        #expect(unnamed.presentedChain == ([try pki.der("leaf")]))
        var overridden = ProbeTarget(host: "127.0.0.1", port: port)
        overridden.sni = .name("other.test")
        #expect((try Probe.handshake(with: overridden).presentedChain) == ([try pki.der("other")]))
    }

    @Test func testMutualTLS13() throws {
        let port = try server(leafArgs + ["-Verify", "1", "-CAfile", "clientca.pem"])
        let start = Date()
        if let e = #expect(
            throws: (any Error).self, performing: { try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3))) }
        ) {
            let e = e as! ProbeError
            #expect(e.kind == .clientCertificateRequired, "\(e.message)")
            #expect(e.urlError == -1206)
            #expect(e.alert?.code == 116, "TLS 1.3: certificate_required")
            #expect(e.message.contains("certificate_required (116)"), "\(e.message)")
            #expect(e.partial?.clientCertificateRequested == true)
            #expect(e.partial?.acceptableClientCANames == ["CN=Probe Client CA,O=Probe"])
            #expect(e.partial?.presentedChain == ([try! self.pki.der("leaf")]))
        }
        #expect(Date().timeIntervalSince(start) < 4)

        let p12 = ProbeOptions(
            timeout: .seconds(5), clientIdentity: .pkcs12(path: pki.path("client.p12"), password: "secret"))
        let h = try probe("127.0.0.1:\(port)", p12)
        #expect(h.clientCertificateRequested)
        #expect(h.clientCertificateSent)
        #expect(h.acceptableClientCANames == ["CN=Probe Client CA,O=Probe"])

        let legacy = ProbeOptions(
            timeout: .seconds(5), clientIdentity: .pkcs12(path: pki.path("client-legacy.p12"), password: "secret"))
        #expect(try probe("127.0.0.1:\(port)", legacy).clientCertificateSent)

        let pem = ProbeOptions(
            timeout: .seconds(5),
            clientIdentity: .pem(certificatePath: pki.path("client.pem"), keyPath: pki.path("client.key")))
        #expect(try probe("127.0.0.1:\(port)", pem).clientCertificateSent)

        let wrong = ProbeOptions(clientIdentity: .pkcs12(path: pki.path("client.p12"), password: "wrong"))
        if let e = #expect(throws: (any Error).self, performing: { try probe("127.0.0.1:\(port)", wrong) }) {
            #expect(((e as! ProbeError).kind) == .invalidOption)
            #expect((e as! ProbeError).message.contains("password"), "\((e as! ProbeError).message)")
        }
    }

    @Test func testMutualTLS12WithoutCertificate() throws {
        let port = try server(
            leafArgs + ["-tls1_2", "-Verify", "1", "-CAfile", "clientca.pem", "-verify_return_error"])
        if let e = #expect(
            throws: (any Error).self, performing: { try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3))) }
        ) {
            let e = e as! ProbeError
            #expect(e.kind == .clientCertificateRequired, "\(e.message)")
            #expect(e.urlError == -1206)
            #expect(e.alert?.code == 40, "TLS 1.2: handshake_failure")
            #expect(e.partial?.version == .tls1_2)
        }
        let leafAsClient = ProbeOptions(
            timeout: .seconds(3),
            clientIdentity: .pem(certificatePath: pki.path("leaf.pem"), keyPath: pki.path("leaf.key")))
        if let e = #expect(throws: (any Error).self, performing: { try probe("127.0.0.1:\(port)", leafAsClient) }) {
            let e = e as! ProbeError
            #expect(e.kind == .clientCertificateRejected, "\(e.message)")
            #expect(e.urlError == -1205)
        }
    }

    @Test func testStapledOCSPResponse() throws {
        let port = try server(leafArgs + ["-cert_chain", "int.pem", "-status_file", "ocsp.der"])
        let h = try probe("127.0.0.1:\(port)")
        let ocsp = try #require(h.ocsp)
        #expect(ocsp.responseStatus == "successful")
        #expect(ocsp.certificateStatus == "good")
        #expect(ocsp.thisUpdate != nil)
        #expect(ocsp.der == ([UInt8](try Data(contentsOf: URL(fileURLWithPath: pki.path("ocsp.der"))))))
    }

    @Test func testSCTsFromTheTLSExtension() throws {
        // Version 1 serverinfo is sent in TLS 1.2 ServerHellos only.
        let port = try server(leafArgs + ["-tls1_2", "-serverinfo", "sct.pem"])
        let h = try probe("127.0.0.1:\(port)")
        #expect(h.scts.count == 1)
        #expect(h.scts.first?.source == .tlsExtension)
        #expect(h.scts.first?.logID == TestPKI.sctLogID)
        #expect(h.scts.first?.timestampMilliseconds == TestPKI.sctTimestamp)
        #expect(h.scts.first?.version == 0)
        // The SCT reaches the engine as sent: 1 + 32 + 8 + 2 + 4 + 8 bytes, read back by trustd's rules.
        let encoded = try #require(h.scts.first).encoded
        #expect(encoded.count == 55)
        let sct = try SignedCertificateTimestamp.parse(encoded).get()
        #expect(sct.logID == TestPKI.sctLogID)
        #expect(sct.timestampMilliseconds == TestPKI.sctTimestamp)
        #expect(sct.signature == ([UInt8](repeating: 0x01, count: 8)))
    }

    @Test func testAChainPastTheCountBoundEndsWithAClearError() throws {
        // Two past the bound of 100 (the leaf and 101 copies of the intermediate): the least
        // that shows one beyond the bound is kept and no more.
        let bound = ProbeOptions().maximumChainLength
        let chain = try pki.bundle("long-chain.pem", Array(repeating: "int", count: bound + 1))
        let port = try server(leafArgs + ["-cert_chain", chain])
        let start = Date()
        if let e = #expect(
            throws: (any Error).self, performing: { try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3))) }
        ) {
            let e = e as! ProbeError
            #expect(e.kind == .chainTooLong, "\(e.message)")
            #expect(e.urlError == -1200)
            #expect(e.message.contains("\(bound + 2) certificates"), "\(e.message)")
            #expect(e.partial?.presentedChain.count == (bound + 1), "keeps one beyond the bound, no more")
        }
        #expect(Date().timeIntervalSince(start) < 4)
    }

    @Test func testCertificateListBeyondTheBound() throws {
        // Just enough copies of the intermediate (each with its 3-byte length) to pass 256 KiB.
        let entry = try pki.der("int").count + 3
        let count = ProbeOptions().maximumCertificateListBytes / entry + 1
        let chain = try pki.bundle("huge-chain.pem", Array(repeating: "int", count: count))
        let port = try server(leafArgs + ["-cert_chain", chain])
        if let e = #expect(
            throws: (any Error).self, performing: { try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3))) }
        ) {
            let e = e as! ProbeError
            #expect(e.kind == .oversizedHandshake, "\(e.message)")
            #expect(e.urlError == -1200)
            #expect(e.message.contains("256 KiB"), "\(e.message)")
        }
    }

    /// The API is blocking and thread-safe: probes on several threads at once each get their own
    /// sockets and OpenSSL objects.
    @Test func testConcurrentProbes() throws {
        let port = try server(leafArgs + ["-cert_chain", "int.pem"])
        let expected = [try pki.der("leaf"), try pki.der("int")]
        let results = Mutex<[[[UInt8]]]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let chain =
                (try? Probe.handshake(
                    with: ProbeTarget(host: "127.0.0.1", port: port),
                    options: ProbeOptions(timeout: .seconds(5))))?.presentedChain ?? []
            results.withLock { $0.append(chain) }
        }
        #expect((results.withLock { $0 }) == (Array(repeating: expected, count: 6)))
    }

    /// A name goes through getaddrinfo on the resolver thread; `localhost` may yield ::1 first,
    /// which refuses, and then 127.0.0.1. The name is sent as SNI.
    @Test func testHostNameIsResolvedAndSentAsSNI() throws {
        let port = try server(leafArgs)
        let h = try probe("localhost:\(port)")
        #expect(h.sni == "localhost")
        #expect(h.peerAddress == ("127.0.0.1:\(port)"))
        #expect(h.presentedChain == ([try pki.der("leaf")]))
    }
}
