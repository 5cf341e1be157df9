import SuiteFixtures
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// One code out of many failures (docs/steps.md): the highest-priority subtype anywhere in the
/// chain wins (Blocked > Revoked > KeySize > WeakHash > Denied > Compliance > Pinning > Trust >
/// Usage > Name > Expired > Invalid); ties go to the lowest certificate index.
final class PriorityTests: XCTestCase {
    func testUntrustedRootWrongHostAndExpiryReportNotTrusted() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(
            c.presented + [c.root.certificate],
            TestPKI.ssl("wrong.example.com", time: TestPKI.now + .days(400)))
        XCTAssertEqual(
            e.failureSummaries,
            [
                "anchor@2:failed(-67843)", "validity@0:failed(-67818)", "hostname@0:failed(-67602)",
            ])
        assertVerdict(e, trusted: false, osstatus: -67843, urlError: -1202, resultType: .recoverableTrustFailure)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .anchor)
    }

    func testWrongHostAndExpiryReportHostNameMismatch() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(
            c.presented,
            TestPKI.ssl("wrong.example.com", anchors: [c.root.certificate], time: TestPKI.now + .days(400)))
        XCTAssertEqual(e.failureSummaries, ["validity@0:failed(-67818)", "hostname@0:failed(-67602)"])
        assertVerdict(e, trusted: false, osstatus: -67602, urlError: -999)
    }

    func testUntrustedSelfSignedRSA1024UnderSSLReportsUnsupportedKeySize() throws {
        let leaf = try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey(.rsa(bits: 1024)))
        let e = try evaluate([leaf.certificate], TestPKI.ssl())
        XCTAssertEqual(e.failureSummaries, ["anchor@0:failed(-67843)", "key-size@0:failed(-67735)"])
        assertVerdict(e, trusted: false, osstatus: -67735, urlError: -1202, resultType: .recoverableTrustFailure)
        XCTAssertEqual(e.verdict.osstatusName, "errSecUnsupportedKeySize")
    }

    func testTiesGoToTheLowestCertificateIndex() throws {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(
            issuer: root, notBefore: TestPKI.now - .days(400),
            notAfter: TestPKI.now - .days(2))
        let leaf = try TestPKI.leaf(issuer: int, notBefore: TestPKI.now - .days(400))
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["validity@0:failed(-67818)", "validity@1:failed(-67818)"])
        XCTAssertEqual(e.verdict.decisiveStep?.summary, "validity@0:failed(-67818)")
    }

    func testKeySizeOutranksWeakHash() throws {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let int = try TestPKI.intermediate(issuer: root, key: TestPKI.sharedKey(.rsa(bits: 1024))) {
            $0.signatureAlgorithm = .sha1WithRSA
        }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["key-size@1:failed(-67735)", "signature-algorithm@1:failed(-67815)"])
        XCTAssertEqual(e.verdict.osstatus, -67735)
    }

    func testWeakHashOutranksCompliance() throws {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let int = try TestPKI.intermediate(issuer: root) { $0.signatureAlgorithm = .sha1WithRSA }
        let leaf = try TestPKI.leaf(issuer: int) { $0.rawExtensions = [unknownCriticalExtension] }
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(
            e.failureSummaries, ["critical-extensions@0:failed(-67603)", "signature-algorithm@1:failed(-67815)"])
        XCTAssertEqual(e.verdict.osstatus, -67815)
    }

    func testComplianceOutranksTrust() throws {
        let c = try TestPKI.chain { $0.rawExtensions = [unknownCriticalExtension] }
        let e = try evaluate(c.presented + [c.root.certificate], TestPKI.ssl())
        XCTAssertEqual(e.failureSummaries, ["anchor@2:failed(-67843)", "critical-extensions@0:failed(-67603)"])
        XCTAssertEqual(e.verdict.osstatus, -67603)
    }

    func testTrustOutranksUsage() throws {
        let c = try TestPKI.chain { $0.extendedKeyUsage = .init([.clientAuth]) }
        let e = try evaluate(c.presented + [c.root.certificate], TestPKI.ssl())
        XCTAssertEqual(e.failureSummaries, ["anchor@2:failed(-67843)", "extended-key-usage@0:failed(-67609)"])
        XCTAssertEqual(e.verdict.osstatus, -67843)
    }

    func testUsageOutranksName() throws {
        let c = try TestPKI.chain { $0.extendedKeyUsage = .init([.clientAuth]) }
        let e = try evaluate(c.presented, TestPKI.ssl("wrong.example.com", anchors: [c.root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["extended-key-usage@0:failed(-67609)", "hostname@0:failed(-67602)"])
        XCTAssertEqual(e.verdict.osstatus, -67609)
    }

    func testAnyFatalFailureMakesTheResultFatalEvenWhenAnotherCodeWins() throws {
        // MD5 (WeakSignature, class F) below an RSA-1024 key (KeySize outranks WeakHash).
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let int = try TestPKI.intermediate(issuer: root, key: TestPKI.sharedKey(.rsa(bits: 1024))) {
            $0.signatureAlgorithm = .md5WithRSA
        }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.verdict.osstatus, -67735)
        XCTAssertEqual(e.verdict.resultType, .fatalTrustFailure)
    }

    func testVerdictSummaryNamesTheDecisiveCheck() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl("wrong.example.com", anchors: [c.root.certificate]))
        XCTAssertTrue(e.verdict.summary.contains("SSLHostname"), e.verdict.summary)
        XCTAssertTrue(e.verdict.summary.contains("errSecHostNameMismatch"), e.verdict.summary)
        XCTAssertTrue(e.verdict.summary.contains("-999"), e.verdict.summary)
    }
}

/// A critical extension of a type nobody understands (a private arc).
let unknownCriticalExtension = CertificateBuilder.RawExtension(
    oid: OID(dotted: "1.3.6.1.4.1.55555.1")!, critical: true, value: [0x05, 0x00])
