import ServedChain
import SuiteFixtures
import TrustBuilder
import TrustSupport
import XCTest

@testable import TrustCore
@testable import TrustX509

/// How a chain was served against the path built from it (D440) and the chain to serve instead
/// (D442), on chains built in process. The kinds a server test cannot easily make (an expired
/// cross-sign, an oversized chain, an AIA fetch) are here; ServedChainTests serves the others
/// with openssl s_server.
final class ServedChainAnalysisTests: XCTestCase {
    func findings(_ e: Evaluation) -> [ServedFinding] { ServedChainAnalysis.findings(e) }

    func testAChainSentLeafFirstWithItsIntermediateAloneHasNoFinding() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertEqual(findings(e), [])
    }

    func testAnExpiredCrossSignNoPathUsesIsAnExpiredExtraNamingItsEnd() throws {
        let c = try TestPKI.chain()
        // The intermediate's name and key, certified by an old root: a cross-sign, expired ten days ago.
        let old = try TestPKI.root("Old Root")
        let end = TestPKI.now - .days(10)
        let cross = try TestPKI.intermediate(
            issuer: old, key: c.intermediate.key, notBefore: TestPKI.now - .days(800), notAfter: end)
        let e = try evaluate(c.presented + [cross.certificate], TestPKI.ssl(anchors: [c.root.certificate]))
        // Apple's path builder finds the anchored path; the cross-sign is left out.
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertEqual(e.path.certificates, [c.leaf.certificate, c.intermediate.certificate, c.root.certificate])
        let f = findings(e)
        XCTAssertEqual(f.map(\.kind), [.expiredExtra])
        XCTAssertEqual(f.first?.certificates.map(\.presentedIndex), [2])
        XCTAssertEqual(f.first?.certificates.map(\.pathIndex), [nil])
        XCTAssertTrue(f.first?.explanation.contains(end.rfc3339) == true, f.first?.explanation ?? "")
    }

    func testAnUnusedCertificateBearingAnIssuersNameSaysWhichCertificateItCouldMislead() throws {
        let c = try TestPKI.chain()
        let other = try TestPKI.root("Other Root")
        let cross = try TestPKI.intermediate(issuer: other, key: c.intermediate.key)
        let stranger = try TestPKI.root("Stranger")
        let e = try evaluate(
            c.presented + [cross.certificate, stranger.certificate], TestPKI.ssl(anchors: [c.root.certificate]))
        let f = findings(e)
        XCTAssertEqual(f.map(\.kind), [.unused, .unused])
        XCTAssertEqual(f.map { $0.certificates.map(\.presentedIndex) }, [[2], [3]])
        // The cross-sign has the leaf's issuer's name ([0]'s); the stranger names nothing the path needs.
        XCTAssertTrue(f[0].explanation.contains("[0]'s issuer"), f[0].explanation)
        XCTAssertFalse(f[1].explanation.contains("issuer"), f[1].explanation)
    }

    func testAnIntermediateOnlyAIASuppliedIsAIAFilledAndTheChainToServeHasIt() throws {
        let c = try TestPKI.chain()
        var settings = TestPKI.ssl(anchors: [c.root.certificate])
        settings.fetchedIssuers = [c.intermediate.certificate]
        let e = try evaluate([c.leaf.certificate], settings)
        XCTAssertTrue(e.verdict.trusted)
        let f = findings(e)
        XCTAssertEqual(f.map(\.kind), [.aiaFilled])
        XCTAssertEqual(f.first?.certificates.map(\.presentedIndex), [nil])
        XCTAssertEqual(f.first?.certificates.map(\.pathIndex), [1])
        // Android, curl, Go and Java do not fetch AIA: the line names them.
        XCTAssertTrue(f.first?.explanation.contains("Android, curl, Go and Java") == true)
        let chain = try ServedChainTestSupport.made(ChainToServe.make(for: e))
        XCTAssertEqual(chain.certificates, [c.leaf.certificate, c.intermediate.certificate])
        XCTAssertTrue(chain.verdict.trusted)
    }

    func testAChainOverTheInitialWindowIsOversizedWithItsCertificateMessageBytes() throws {
        let root = try TestPKI.root()
        let intermediate = try TestPKI.intermediate(issuer: root)
        // 600 names of 24 bytes and more: about 16 KB of leaf.
        let leaf = try TestPKI.leaf(issuer: intermediate) { b in
            b.subjectAltNames = .init(
                [.dnsName(TestPKI.host)] + (0..<600).map { .dnsName("host-\($0).served.example.com") })
        }
        let sent = [leaf.certificate, intermediate.certificate]
        let e = try evaluate(sent, TestPKI.ssl(anchors: [root.certificate]))
        // RFC 5246 7.4.2: handshake header (4), list length (3), each certificate with its length (3).
        let bytes = 4 + 3 + sent.map { 3 + $0.der.count }.reduce(0, +)
        XCTAssertGreaterThan(bytes, 10 * 1460)
        let f = findings(e)
        XCTAssertEqual(f.map(\.kind), [.oversized])
        XCTAssertEqual(f.first?.certificates.map(\.presentedIndex), [0, 1])
        XCTAssertTrue(f.first?.explanation.contains("\(bytes) bytes") == true, f.first?.explanation ?? "")
        XCTAssertTrue(f.first?.explanation.contains("RFC 6928") == true)
    }

    func testTheChainToServeLeavesTheRootOutAndIsRefusedWhenAloneItEvaluatesOtherwise() throws {
        let c = try TestPKI.chain()
        let sent = c.presented + [c.root.certificate]
        let anchored = try evaluate(sent, TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertEqual(findings(anchored).map(\.kind), [.rootSent])
        let chain = try ServedChainTestSupport.made(ChainToServe.make(for: anchored))
        XCTAssertEqual(chain.certificates, c.presented)
        // Without the root as an anchor the path ends at an untrusted root (AnchorTrusted, -67843);
        // without the root the chain stops at the intermediate (MissingIntermediate, -25318).
        let untrusted = try evaluate(sent, TestPKI.ssl(anchors: []))
        XCTAssertEqual(untrusted.verdict.osstatus, -67843)
        guard case .failure(let refusal) = ChainToServe.make(for: untrusted) else {
            return XCTFail("a chain that alone evaluates otherwise was made")
        }
        XCTAssertTrue(refusal.message.contains("-25318"), refusal.message)
        XCTAssertTrue(refusal.message.contains("-67843"), refusal.message)
    }

    func testNoChainToServeIsMadeFromAPathThatStopsBelowAnyRoot() throws {
        let c = try TestPKI.chain()
        let e = try evaluate([c.leaf.certificate], TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertEqual(e.verdict.osstatus, -25318)
        guard case .failure(let refusal) = ChainToServe.make(for: e) else {
            return XCTFail("a chain to serve was made from the leaf alone")
        }
        XCTAssertTrue(refusal.message.contains("neither sent, fetched nor trusted"), refusal.message)
    }
}

enum ServedChainTestSupport {
    /// The chain made, or a failure naming the refusal.
    static func made(_ r: Result<ChainToServe, ChainToServe.Refusal>) throws -> ChainToServe {
        switch r {
        case .success(let c): return c
        case .failure(let refusal): throw TestPKI.Failure(message: "refused: \(refusal.message)")
        }
    }
}
