import AppleHello
import Foundation
import HelloFront
import SuiteFixtures
import Testing
import TrustCore
import TrustX509

@testable import TLSProbe

/// The middleboxes and the buggy server of docs/connecting.md's "The second hello", as fronts
/// before `openssl s_server` on 127.0.0.1: the real handshake (OpenSSL's hello, a few hundred
/// bytes, x25519 its first share) passes, iOS 26's hello meets the rule.
@Suite(.serialized, .onTestThreads) final class HelloFrontTests {
    var pki: TestPKI!
    var server: OpenSSLServer!

    init() throws {
        pki = try TestPKI.get()
        server = try OpenSSLServer(["-cert", "leaf.pem", "-key", "leaf.key"], cwd: pki.dir)
    }

    deinit { server.stop() }

    func connect(through rule: FrontRule) throws -> ConnectionResult {
        let front = try HelloFront(rule: rule, upstreamPort: server.tcpPort)
        defer { front.stop() }
        var options = ProbeOptions(timeout: .seconds(4))
        options.sendsAppleClientHello = true
        return ServerConnection.connect(
            try ProbeTarget.parse("127.0.0.1:\(front.port)"), options: options, fetchAIA: false, anchors: [],
            systemStore: nil)
    }

    @Test func aMiddleboxResettingHellosOver1024BytesFailsOnlyIOS26() throws {
        let result = try connect(through: .dropsHellos(over: 1024, by: .reset))
        #expect(result.failure == nil, "\(result.failure?.message ?? "")")
        #expect(result.chain.count == 1, "the real handshake reached s_server through the front")
        let hello = try #require(result.report.appleClientHello)
        #expect(hello.outcome == .reset, "\(hello.summary)")
    }

    @Test func aMiddleboxDroppingSplitHellosSilentlyFailsOnlyIOS26() throws {
        let result = try connect(through: .dropsSplitHellos(by: .silence))
        #expect(result.failure == nil, "\(result.failure?.message ?? "")")
        let hello = try #require(result.report.appleClientHello)
        // Half of what the 4-second run had left, at most 3 seconds: then silence is the answer.
        #expect(hello.outcome == .timedOut, "\(hello.summary)")
    }

    @Test func aServerAskingForX25519UnlessFirstFailsOnlyIOS26() throws {
        let result = try connect(through: .retriesX25519UnlessFirst)
        #expect(result.failure == nil, "OpenSSL's first share is x25519: \(result.failure?.message ?? "")")
        let hello = try #require(result.report.appleClientHello)
        #expect(hello.outcome == .helloRetryRequest)
        #expect(hello.group == "x25519")
        // RFC 8446 4.2.8: a HelloRetryRequest for a group whose share was sent is illegal_parameter.
        #expect(hello.summary.contains("illegal_parameter"), "\(hello.summary)")
    }

    @Test func aFrontThatPassesEverythingChangesNothing() throws {
        let result = try connect(through: FrontRule(name: "passes everything") { _, _ in .forward })
        #expect(result.failure == nil)
        #expect(result.report.appleClientHello?.outcome == .serverHello)
        #expect(result.report.appleClientHello?.group == "x25519")
    }

    @Test func theSummaryReadsAClientHellosShares() throws {
        let hello = AppleClientHello(serverName: "example.com")
        let summary = try #require(ClientHelloSummary.read(hello.record))
        #expect(summary.recordBytes == hello.record.count)
        #expect(summary.keyShareGroups.dropFirst() == [0x11EC, 0x001D])
        #expect(summary.firstKeyShareGroup == 0x11EC)
        #expect(summary.sessionID.count == 32)
        #expect(ClientHelloSummary.read(Array(hello.record.prefix(FrontRule.segmentBytes))) == nil, "split")
    }
}
