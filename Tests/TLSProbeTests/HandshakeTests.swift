import Foundation
import Synchronization
import TrustCore
import TrustX509
import XCTest

@testable import TLSProbe

/// Handshakes against `openssl s_server -www` (an outside implementation) on loopback port 0.
/// Expected values come from the files given to s_server and the flags it was started with.
final class HandshakeTests: XCTestCase {
    var pki: TestPKI!
    var servers: [OpenSSLServer] = []

    override func setUpWithError() throws {
        pki = try TestPKI.get()
    }

    override func tearDown() { servers = [] }

    func server(_ args: [String], ipv6: Bool = false) throws -> UInt16 {
        let s = try OpenSSLServer(args, ipv6: ipv6, cwd: pki.dir)
        servers.append(s)
        return s.port
    }

    var leafArgs: [String] { ["-cert", "leaf.pem", "-key", "leaf.key"] }

    func probe(_ target: String, _ options: ProbeOptions = ProbeOptions(timeout: .seconds(5))) throws -> Handshake {
        try Probe.handshake(with: try ProbeTarget.parse(target), options: options)
    }

    func testChainExactlyAsSentInWrongOrderWithDuplicates() throws {
        let chain = try pki.bundle("odd-chain.pem", ["root", "int", "int"])
        let port = try server(leafArgs + ["-cert_chain", chain, "-alpn", "http/1.1"])
        let h = try probe("127.0.0.1:\(port)")
        XCTAssertEqual(
            h.presentedChain, [try pki.der("leaf"), try pki.der("root"), try pki.der("int"), try pki.der("int")])
        XCTAssertEqual(h.version, .tls1_3)
        XCTAssertEqual(h.cipher.ianaName, h.cipher.openSSLName, "TLS 1.3 suites have one name")
        XCTAssertTrue(
            h.cipher.ianaName.hasPrefix("TLS_AES_") || h.cipher.ianaName.hasPrefix("TLS_CHACHA20"), h.cipher.ianaName)
        XCTAssertEqual(h.group, "x25519", "OpenSSL 3.0's first default group")
        XCTAssertEqual(h.alpn, "http/1.1")
        XCTAssertNil(h.sni, "no SNI for an IP literal")
        XCTAssertEqual(h.peerAddress, "127.0.0.1:\(port)")
        XCTAssertFalse(h.clientCertificateRequested)
        XCTAssertNil(h.ocsp)
        XCTAssertGreaterThan(h.timings.handshakeMs, 0)
        XCTAssertGreaterThanOrEqual(h.timings.connectMs, 0)
        // The captured DER decodes with TrustCore, as the evaluator will need.
        XCTAssertEqual(try Certificate(der: h.presentedChain[0]).subject.commonNames, ["127.0.0.1"])
    }

    func testIPv6Loopback() throws {
        let port = try server(leafArgs, ipv6: true)
        let h = try probe("[::1]:\(port)")
        XCTAssertEqual(h.peerAddress, "[::1]:\(port)")
        XCTAssertEqual(h.presentedChain, [try pki.der("leaf")])
        XCTAssertNil(h.sni)
    }

    func testTLS12OnlyServer() throws {
        let port = try server(leafArgs + ["-tls1_2"])
        let h = try probe("127.0.0.1:\(port)")
        XCTAssertEqual(h.version, .tls1_2)
        XCTAssertTrue(h.cipher.ianaName.hasPrefix("TLS_ECDHE_ECDSA_WITH_"), h.cipher.ianaName)
        XCTAssertTrue(h.cipher.openSSLName.hasPrefix("ECDHE-ECDSA-"), h.cipher.openSSLName)
        XCTAssertEqual(h.group, "x25519")

        let start = Date()
        XCTAssertThrowsError(
            try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3), minimumVersion: .tls1_3))
        ) { e in
            let e = e as! ProbeError
            XCTAssertEqual(e.kind, .noCommonVersion, e.message)
            XCTAssertEqual(e.urlError, -1200)
            XCTAssertEqual(e.alert?.code, 70, "s_server answers protocol_version")
            XCTAssertTrue(e.message.contains("TLS 1.3"), e.message)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
    }

    func testMaximumVersionAgainstTLS13Server() throws {
        let port = try server(leafArgs)
        let h = try probe("127.0.0.1:\(port)", ProbeOptions(maximumVersion: .tls1_2))
        XCTAssertEqual(h.version, .tls1_2)
    }

    /// Security level 0 and the legacy cipher list: an RSA-1024/SHA-1 TLS 1.0 server is still seen.
    func testLegacyServerIsObserved() throws {
        let dir = pki.dir
        try pki.sh([
            "openssl", "req", "-x509", "-newkey", "rsa:1024", "-sha1", "-nodes", "-keyout", "weak.key", "-out",
            "weak.pem",
            "-subj", "/CN=weak", "-days", "2",
        ])
        let port = try server(["-cert", "weak.pem", "-key", "weak.key", "-tls1", "-cipher", "ALL:@SECLEVEL=0"])
        let h = try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(5), minimumVersion: .tls1_0))
        XCTAssertEqual(h.version, .tls1_0)
        let weak = try CertificateLoader.load(path: dir + "/weak.pem")[0]
        XCTAssertEqual(h.presentedChain, [weak.der])
        // URLSession's default minimum refuses it.
        XCTAssertThrowsError(try probe("127.0.0.1:\(port)")) { e in
            XCTAssertEqual((e as! ProbeError).kind, .noCommonVersion, (e as! ProbeError).message)
            XCTAssertEqual((e as! ProbeError).urlError, -1200)
        }
    }

    func testSNIAndConnectTo() throws {
        let port = try server(leafArgs + ["-servername", "other.test", "-cert2", "other.pem", "-key2", "other.key"])
        var target = ProbeTarget(host: "other.test", port: port)
        target.connectTo = Endpoint(host: "127.0.0.1", port: port)
        let named = try Probe.handshake(with: target, options: ProbeOptions(timeout: .seconds(5)))
        XCTAssertEqual(named.sni, "other.test")
        XCTAssertEqual(named.presentedChain, [try pki.der("other")], "s_server serves -cert2 for the matching SNI")
        target.sni = .none
        let unnamed = try Probe.handshake(with: target, options: ProbeOptions(timeout: .seconds(5)))
        XCTAssertNil(unnamed.sni)
        XCTAssertEqual(unnamed.presentedChain, [try pki.der("leaf")])
        var overridden = ProbeTarget(host: "127.0.0.1", port: port)
        overridden.sni = .name("other.test")
        XCTAssertEqual(try Probe.handshake(with: overridden).presentedChain, [try pki.der("other")])
    }

    func testMutualTLS13() throws {
        let port = try server(leafArgs + ["-Verify", "1", "-CAfile", "clientca.pem"])
        let start = Date()
        XCTAssertThrowsError(try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3)))) { e in
            let e = e as! ProbeError
            XCTAssertEqual(e.kind, .clientCertificateRequired, e.message)
            XCTAssertEqual(e.urlError, -1206)
            XCTAssertEqual(e.alert?.code, 116, "TLS 1.3: certificate_required")
            XCTAssertTrue(e.message.contains("certificate_required (116)"), e.message)
            XCTAssertEqual(e.partial?.clientCertificateRequested, true)
            XCTAssertEqual(e.partial?.acceptableClientCANames, ["CN=Probe Client CA,O=Probe"])
            XCTAssertEqual(e.partial?.presentedChain, [try! self.pki.der("leaf")])
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)

        let p12 = ProbeOptions(
            timeout: .seconds(5), clientIdentity: .pkcs12(path: pki.path("client.p12"), password: "secret"))
        let h = try probe("127.0.0.1:\(port)", p12)
        XCTAssertTrue(h.clientCertificateRequested)
        XCTAssertTrue(h.clientCertificateSent)
        XCTAssertEqual(h.acceptableClientCANames, ["CN=Probe Client CA,O=Probe"])

        let legacy = ProbeOptions(
            timeout: .seconds(5), clientIdentity: .pkcs12(path: pki.path("client-legacy.p12"), password: "secret"))
        XCTAssertTrue(try probe("127.0.0.1:\(port)", legacy).clientCertificateSent)

        let pem = ProbeOptions(
            timeout: .seconds(5),
            clientIdentity: .pem(certificatePath: pki.path("client.pem"), keyPath: pki.path("client.key")))
        XCTAssertTrue(try probe("127.0.0.1:\(port)", pem).clientCertificateSent)

        let wrong = ProbeOptions(clientIdentity: .pkcs12(path: pki.path("client.p12"), password: "wrong"))
        XCTAssertThrowsError(try probe("127.0.0.1:\(port)", wrong)) { e in
            XCTAssertEqual((e as! ProbeError).kind, .invalidOption)
            XCTAssertTrue((e as! ProbeError).message.contains("password"), (e as! ProbeError).message)
        }
    }

    func testMutualTLS12WithoutCertificate() throws {
        let port = try server(
            leafArgs + ["-tls1_2", "-Verify", "1", "-CAfile", "clientca.pem", "-verify_return_error"])
        XCTAssertThrowsError(try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3)))) { e in
            let e = e as! ProbeError
            XCTAssertEqual(e.kind, .clientCertificateRequired, e.message)
            XCTAssertEqual(e.urlError, -1206)
            XCTAssertEqual(e.alert?.code, 40, "TLS 1.2: handshake_failure")
            XCTAssertEqual(e.partial?.version, .tls1_2)
        }
        let leafAsClient = ProbeOptions(
            timeout: .seconds(3),
            clientIdentity: .pem(certificatePath: pki.path("leaf.pem"), keyPath: pki.path("leaf.key")))
        XCTAssertThrowsError(try probe("127.0.0.1:\(port)", leafAsClient)) { e in
            let e = e as! ProbeError
            XCTAssertEqual(e.kind, .clientCertificateRejected, e.message)
            XCTAssertEqual(e.urlError, -1205)
        }
    }

    func testStapledOCSPResponse() throws {
        let port = try server(leafArgs + ["-cert_chain", "int.pem", "-status_file", "ocsp.der"])
        let h = try probe("127.0.0.1:\(port)")
        let ocsp = try XCTUnwrap(h.ocsp)
        XCTAssertEqual(ocsp.responseStatus, "successful")
        XCTAssertEqual(ocsp.certificateStatus, "good")
        XCTAssertNotNil(ocsp.thisUpdate)
        XCTAssertEqual(ocsp.der, [UInt8](try Data(contentsOf: URL(fileURLWithPath: pki.path("ocsp.der")))))
    }

    func testSCTsFromTheTLSExtension() throws {
        // Version 1 serverinfo is sent in TLS 1.2 ServerHellos only.
        let port = try server(leafArgs + ["-tls1_2", "-serverinfo", "sct.pem"])
        let h = try probe("127.0.0.1:\(port)")
        XCTAssertEqual(h.scts.count, 1)
        XCTAssertEqual(h.scts.first?.source, .tlsExtension)
        XCTAssertEqual(h.scts.first?.logID, TestPKI.sctLogID)
        XCTAssertEqual(h.scts.first?.timestampMilliseconds, TestPKI.sctTimestamp)
        XCTAssertEqual(h.scts.first?.version, 0)
        // The SCT reaches the engine as sent: 1 + 32 + 8 + 2 + 4 + 8 bytes, read back by trustd's rules.
        let encoded = try XCTUnwrap(h.scts.first).encoded
        XCTAssertEqual(encoded.count, 55)
        let sct = try SignedCertificateTimestamp.parse(encoded).get()
        XCTAssertEqual(sct.logID, TestPKI.sctLogID)
        XCTAssertEqual(sct.timestampMilliseconds, TestPKI.sctTimestamp)
        XCTAssertEqual(sct.signature, [UInt8](repeating: 0x01, count: 8))
    }

    func testAChainPastTheCountBoundEndsWithAClearError() throws {
        // Two past the bound of 100 (the leaf and 101 copies of the intermediate): the least
        // that shows one beyond the bound is kept and no more.
        let bound = ProbeOptions().maximumChainLength
        let chain = try pki.bundle("long-chain.pem", Array(repeating: "int", count: bound + 1))
        let port = try server(leafArgs + ["-cert_chain", chain])
        let start = Date()
        XCTAssertThrowsError(try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3)))) { e in
            let e = e as! ProbeError
            XCTAssertEqual(e.kind, .chainTooLong, e.message)
            XCTAssertEqual(e.urlError, -1200)
            XCTAssertTrue(e.message.contains("\(bound + 2) certificates"), e.message)
            XCTAssertEqual(e.partial?.presentedChain.count, bound + 1, "keeps one beyond the bound, no more")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
    }

    func testCertificateListBeyondTheBound() throws {
        // Just enough copies of the intermediate (each with its 3-byte length) to pass 256 KiB.
        let entry = try pki.der("int").count + 3
        let count = ProbeOptions().maximumCertificateListBytes / entry + 1
        let chain = try pki.bundle("huge-chain.pem", Array(repeating: "int", count: count))
        let port = try server(leafArgs + ["-cert_chain", chain])
        XCTAssertThrowsError(try probe("127.0.0.1:\(port)", ProbeOptions(timeout: .seconds(3)))) { e in
            let e = e as! ProbeError
            XCTAssertEqual(e.kind, .oversizedHandshake, e.message)
            XCTAssertEqual(e.urlError, -1200)
            XCTAssertTrue(e.message.contains("256 KiB"), e.message)
        }
    }

    /// The API is blocking and thread-safe: probes on several threads at once each get their own
    /// sockets and OpenSSL objects.
    func testConcurrentProbes() throws {
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
        XCTAssertEqual(results.withLock { $0 }, Array(repeating: expected, count: 6))
    }

    /// A name goes through getaddrinfo on the resolver thread; `localhost` may yield ::1 first,
    /// which refuses, and then 127.0.0.1. The name is sent as SNI.
    func testHostNameIsResolvedAndSentAsSNI() throws {
        let port = try server(leafArgs)
        let h = try probe("localhost:\(port)")
        XCTAssertEqual(h.sni, "localhost")
        XCTAssertEqual(h.peerAddress, "127.0.0.1:\(port)")
        XCTAssertEqual(h.presentedChain, [try pki.der("leaf")])
    }
}
