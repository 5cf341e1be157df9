import ATSModel
import Foundation
import SuiteFixtures
import TrustX509
import XCTest

@testable import TLSProbe

/// Handshakes where a socket adds nothing, in memory over a BIO pair (`MemoryHandshake`): what
/// TLSProbe's client offers and what its observer reads from the server's messages. Expected
/// values are the protocol's (RFC 8446, RFC 5246) and the files openssl made.
final class MemoryHandshakeTests: XCTestCase {
    var pki: TestPKI!

    override func setUpWithError() throws { pki = try TestPKI.get() }

    /// The leaf and its intermediate, as a server sends them.
    func servedChain() throws -> String { try pki.bundle("memory-chain.pem", ["leaf", "int"]) }

    func handshake(
        _ options: ProbeOptions = ProbeOptions(), minimum: TLSVersion? = nil, maximum: TLSVersion? = nil,
        clientCA: String? = nil
    ) throws -> (MemoryHandshake, MemoryHandshake.Outcome) {
        let h = try MemoryHandshake(
            options: options, chain: try servedChain(), key: pki.path("leaf.key"), minimum: minimum, maximum: maximum,
            clientCA: clientCA)
        return (h, h.run())
    }

    func testTheHighestCommonVersionIsNegotiated() throws {
        let (tls13, both13) = try handshake()
        XCTAssertTrue(both13.client && both13.server)
        XCTAssertEqual(tls13.observer.serverVersion, .tls1_3)
        XCTAssertEqual(tls13.clientVersion, .tls1_3)

        let (tls12, both12) = try handshake(maximum: .tls1_2)
        XCTAssertTrue(both12.client && both12.server)
        XCTAssertEqual(tls12.observer.serverVersion, .tls1_2)
        XCTAssertEqual(tls12.clientVersion, .tls1_2)
    }

    func testNoCommonVersionIsAProtocolVersionAlert() throws {
        // The client offers up to TLS 1.2, the server only 1.3: it answers protocol_version (70,
        // RFC 8446 4.2.1) and nothing completes.
        let (h, outcome) = try handshake(ProbeOptions(maximumVersion: .tls1_2), minimum: .tls1_3)
        XCTAssertFalse(outcome.client)
        XCTAssertFalse(outcome.server)
        XCTAssertFalse(h.observer.serverHelloSeen)
        XCTAssertEqual(h.observer.alertReceived?.code, 70)
    }

    func testTheServedChainIsReadAsSent() throws {
        let (h, outcome) = try handshake()
        XCTAssertTrue(outcome.client)
        XCTAssertEqual(h.observer.chain, [try pki.der("leaf"), try pki.der("int")])
        XCTAssertEqual(h.observer.chainCount, 2)
        XCTAssertFalse(h.observer.certificateRequested)
    }

    func testAMissingClientCertificateIsRefusedWithTheVersionsAlert() throws {
        let ca = pki.path("clientca.pem")
        // TLS 1.3: the client's Finished completes its side; the server then refuses the empty
        // Certificate with certificate_required (116, RFC 8446 4.4.2.4).
        let (tls13, outcome13) = try handshake(clientCA: ca)
        XCTAssertFalse(outcome13.server)
        XCTAssertTrue(tls13.observer.certificateRequested)
        XCTAssertFalse(tls13.observer.clientCertificateSent)
        XCTAssertEqual(tls13.observer.alertReceived?.code, 116)
        // TLS 1.2 has no such alert: handshake_failure (40, RFC 5246 7.4.6).
        let (tls12, outcome12) = try handshake(maximum: .tls1_2, clientCA: ca)
        XCTAssertFalse(outcome12.server)
        XCTAssertFalse(outcome12.client)
        XCTAssertTrue(tls12.observer.certificateRequested)
        XCTAssertEqual(tls12.observer.alertReceived?.code, 40)
    }

    func testAClientCertificateFromTheIdentityIsSentAndAccepted() throws {
        let options = ProbeOptions(clientIdentity: .pkcs12(path: pki.path("client.p12"), password: "secret"))
        let (h, outcome) = try handshake(options, clientCA: pki.path("clientca.pem"))
        XCTAssertTrue(outcome.client && outcome.server)
        XCTAssertTrue(h.observer.certificateRequested)
        XCTAssertTrue(h.observer.clientCertificateSent)
        XCTAssertNil(h.observer.alertReceived)
    }
}
