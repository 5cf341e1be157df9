import ATSModel
import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustSupport
import TrustX509

@testable import TLSProbe

/// What an ATS client offers, against `openssl s_server` restricted to one version or one kind of
/// suite. Expected values come from ATS's rules (TLS 1.2 at least; ECDHE suites unless forward
/// secrecy is waived) and from the flags each server was started with.
@Suite(.serialized, .onTestThreads) final class ATSOfferTests {
    var pki: TestPKI!
    var servers: [OpenSSLServer] = []

    init() throws {
        pki = try TestPKI.get()
    }

    deinit { servers = [] }

    func server(_ args: [String]) throws -> UInt16 {
        let s = try OpenSSLServer(args, cwd: pki.dir)
        servers.append(s)
        return s.tcpPort
    }

    /// TLS 1.0/1.1 sign the handshake with SHA-1, which s_server refuses above security level 0.
    var tls11Only: [String] { ["-cert", "leaf.pem", "-key", "leaf.key", "-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"] }

    /// An RSA-2048 leaf under the test intermediate: RSA key exchange needs an RSA certificate.
    static let rsaLeaf: Result<Void, Error> = Result {
        let pki = try TestPKI.get()
        try TestPKI.serverExt().write(toFile: pki.path("rsaleaf.ext"), atomically: true, encoding: .utf8)
        try pki.sh([
            "openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "rsaleaf.key", "-out",
            "rsaleaf.csr", "-subj", "/CN=127.0.0.1",
        ])
        try pki.sh([
            "openssl", "x509", "-req", "-in", "rsaleaf.csr", "-CA", "int.pem", "-CAkey", "int.key", "-set_serial",
            "77", "-out", "rsaleaf.pem", "-days", "30", "-extfile", "rsaleaf.ext",
        ])
    }

    func probe(_ port: UInt16, _ options: ProbeOptions) throws -> Handshake {
        try Probe.handshake(with: try ProbeTarget.parse("127.0.0.1:\(port)"), options: options)
    }

    let base = ProbeOptions(timeout: .seconds(5))

    @Test func testTheATSOfferIsRefusedByATLS11OnlyServerAndTheObserverIsNot() throws {
        let port = try server(tls11Only)
        if let e = #expect(throws: (any Error).self, performing: { try probe(port, base.offeringATS(ATSHostPolicy())) })
        {
            let e = e as! ProbeError
            #expect(e.kind == .noCommonVersion, "\(e.message)")
            #expect(e.urlError == -1200)
        }
        let observed = try probe(port, base.observingEverything())
        #expect(observed.version == .tls1_1)
    }

    @Test func testNSExceptionMinimumTLSVersion11OffersTLS11WithATSSuitesOnly() throws {
        let port = try server(tls11Only)
        let h = try probe(port, base.offeringATS(ATSHostPolicy(minimumTLSVersion: .tls1_1)))
        #expect(h.version == .tls1_1)
        // TLS 1.1 has no AEAD suites: of ATS's list only ECDHE with AES-CBC-SHA remains, and the
        // leaf is ECDSA.
        #expect(
            ["TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"].contains(
                h.cipher.ianaName), "\(h.cipher.ianaName)")
    }

    @Test func testANonForwardSecretServerRefusesATSUnlessForwardSecrecyIsWaived() throws {
        try Self.rsaLeaf.get()
        let port = try server(["-cert", "rsaleaf.pem", "-key", "rsaleaf.key", "-tls1_2", "-cipher", "AES128-SHA"])
        if let e = #expect(throws: (any Error).self, performing: { try probe(port, base.offeringATS(ATSHostPolicy())) })
        {
            let e = e as! ProbeError
            #expect(e.kind == .noCommonCipher, "\(e.message)")
            #expect(e.urlError == -1200)
        }
        let waived = try probe(port, base.offeringATS(ATSHostPolicy(requiresForwardSecrecy: false)))
        #expect(waived.cipher.ianaName == "TLS_RSA_WITH_AES_128_CBC_SHA")
        #expect(waived.cipher.id == 0x002F, "RFC 5246 A.5")
        #expect(waived.group == nil, "RSA key exchange has no group")
    }

    @Test func testASuiteATSNeverOffersIsRefusedEvenWithEveryException() throws {
        // CBC with SHA-256 is not in ATS's list, with or without forward secrecy.
        let port = try server([
            "-cert", "leaf.pem", "-key", "leaf.key", "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA256",
        ])
        for fs in [true, false] {
            if let e = #expect(
                throws: (any Error).self,
                performing: {
                    try probe(
                        port, base.offeringATS(ATSHostPolicy(minimumTLSVersion: .tls1_0, requiresForwardSecrecy: fs)))
                })
            {
                #expect(((e as! ProbeError).kind) == .noCommonCipher)
            }
        }
        #expect((try probe(port, base).cipher.ianaName) == "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256")
    }

    @Test func testATLS13ServerAcceptsTheATSOffer() throws {
        let port = try server(["-cert", "leaf.pem", "-key", "leaf.key", "-tls1_3"])
        let h = try probe(port, base.offeringATS(ATSHostPolicy()))
        #expect(h.version == .tls1_3)
        #expect(ATSCipherSuite.tls13IDs.contains(h.cipher.id), "\(h.cipher.ianaName)")
    }

    @Test func testTheOffersListExactlyATSSuites() {
        #expect((CipherOffer.ats(requiresForwardSecrecy: true).suites?.count) == 10)
        let waived = CipherOffer.ats(requiresForwardSecrecy: false).suites ?? []
        #expect(waived.count == 14)
        #expect(
            Array(waived.prefix(4).map(\.ianaName))
                == ([
                    "TLS_RSA_WITH_AES_256_GCM_SHA384", "TLS_RSA_WITH_AES_128_GCM_SHA256",
                    "TLS_RSA_WITH_AES_256_CBC_SHA",
                    "TLS_RSA_WITH_AES_128_CBC_SHA",
                ]))
        #expect(waived.dropFirst(4).allSatisfy { $0.ianaName.hasPrefix("TLS_ECDHE_") })
        #expect(CipherOffer.everything.suites == nil)
    }

    @Test func testOpenSSLKnowsEverySuiteByTheIANANameAndCodePointWeGive() throws {
        // `openssl ciphers -stdname -V` prints code point, IANA name and OpenSSL name per suite.
        let r = try runCommand(["openssl", "ciphers", "-V", "-stdname", "ALL:@SECLEVEL=0"])
        #expect(r.status == 0, "\(r.err)")
        for suite in ATSCipherSuite.forwardSecret + ATSCipherSuite.withoutForwardSecrecy {
            let hex = String(format: "0x%02X,0x%02X", suite.id >> 8, suite.id & 0xFF)
            let line = r.out.split(separator: "\n").first { $0.contains(" \(suite.ianaName) ") }
            #expect(line != nil, "\(suite.ianaName)")
            #expect(line?.contains(hex) ?? false, "\(suite.ianaName): \(line ?? "")")
            #expect(line?.contains(" \(suite.openSSLName) ") ?? false, "\(suite.ianaName): \(line ?? "")")
        }
    }

    // MARK: - ServerConnection under ATS

    func connect(_ port: UInt16, ats: ATSHostPolicy?) throws -> ConnectionResult {
        ServerConnection.connect(
            try ProbeTarget.parse("127.0.0.1:\(port)"), options: base, fetchAIA: false, anchors: [], systemStore: nil,
            atsPolicy: ats)
    }

    @Test func testUnderATSARefusedOfferIsFollowedByAnObservingHandshakeThatExplains() throws {
        let port = try server(tls11Only)
        let r = try connect(port, ats: ATSHostPolicy())
        #expect(r.failure == nil, "the observing handshake completes")
        #expect(r.chain.map(\.der) == ([try pki.der("leaf")]))
        #expect(r.negotiated?.version == .tls1_1)
        let refusal = try #require(r.atsHandshakeFailure)
        #expect(refusal.failure.kind == .noCommonVersion)
        #expect(refusal.failure.urlError == -1200)
        #expect(refusal.offered.hasPrefix("TLS 1.2-1.3 with ATS's cipher suites"), "\(refusal.offered)")
        let why = try #require(refusal.explanation)
        #expect(why.contains("at most TLS 1.1"), "\(why)")
        #expect(why.contains("NSExceptionMinimumTLSVersion"), "\(why)")
    }

    @Test func testUnderATSTheRefusalDecidesTheFinalVerdict() throws {
        let port = try server(tls11Only)
        let r = try connect(port, ats: ATSHostPolicy())
        let anchor = try pki.certificate("root")
        let settings = TrustSettings(
            anchors: [anchor], policy: .ssl(host: "127.0.0.1"),
            time: Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)))
        let evaluation = try #require(Evaluator().evaluate(chain: r.chain, settings: settings))
        let final = r.finalVerdict(evaluation)
        #expect(!final.verdict.trusted)
        #expect(final.verdict.urlError == -1200)
        #expect(final.verdict.summary.contains("refused ATS's offer"), "\(final.verdict.summary)")
    }

    @Test func testWithoutATSOrWhenNotEnforcedOneHandshakeWithTheGivenOptions() throws {
        let port = try server(tls11Only)
        for policy in [nil, ATSHostPolicy(enforced: false, reason: "NSAllowsArbitraryLoads")] {
            let r = try connect(port, ats: policy)
            // The caller's options (TLS 1.2 minimum by default) are used as they are.
            #expect(r.failure?.kind == .noCommonVersion)
            #expect(r.atsHandshakeFailure == nil)
        }
    }

    @Test func testAnUnreachableServerIsNotRetried() throws {
        // Nothing listens on a port the kernel just gave and took back.
        let listener = try OpenSSLServer(["-cert", "leaf.pem", "-key", "leaf.key"], cwd: pki.dir)
        let port = listener.tcpPort
        listener.stop()
        let r = try connect(port, ats: ATSHostPolicy())
        #expect(r.failure?.kind == .connectionRefused)
        #expect(r.atsHandshakeFailure == nil)
    }
}
