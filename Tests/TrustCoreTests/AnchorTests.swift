import SuiteFixtures
import XCTest

@testable import TrustCore

/// Anchors and what they exempt (docs/steps.md), and the URLError a rejection gives
/// (section 6): -1202 under default handling, -999 when the app's delegate decides.
final class AnchorTests: XCTestCase {
    func testAnchoringToAnIntermediateIsAcceptedWithoutItsRoot() throws {
        let c = try TestPKI.chain()
        let e = try evaluate([c.leaf.certificate], TestPKI.ssl(anchors: [c.intermediate.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.path.certificates.count, 2)
        XCTAssertEqual(e.pathNames, ["www.example.com", "Test Intermediate"])
        XCTAssertEqual(e.step(.anchor, 1)?.status, .passed)
        XCTAssertEqual(e.step(.signature, 1)?.status, .notApplicable)
    }

    func testProcessingStopsAtAnIntermediateAnchorEvenWhenTheRootIsPresented() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented + [c.root.certificate], TestPKI.ssl(anchors: [c.intermediate.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.pathNames, ["www.example.com", "Test Intermediate"])
    }

    func testSelfSignedLeafSetAsAnchorIsTrusted() throws {
        let leaf = try TestPKI.selfSignedLeaf()
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate]))
        XCTAssertEqual(
            e.stepSummaries,
            [
                "chain@-:passed", "signature@0:not-applicable", "anchor@0:passed",
                "validity@0:passed", "basic-constraints@0:not-applicable", "key-usage@0:passed",
                "extended-key-usage@0:passed", "name-constraints@-:not-applicable", "certificate-policies@-:passed",
                "critical-extensions@0:passed", "compliance@0:passed", "hostname@0:passed", "key-size@0:passed",
                "signature-algorithm@0:passed", "validity-period-maximum@0:passed",
                // Custom anchors are exempt from Apple's CT policy.
                "certificate-transparency@0:not-applicable", "pin@-:not-applicable",
            ])
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testSelfSignedLeafAsAnchorStillNeedsTheHostToMatch() throws {
        let leaf = try TestPKI.selfSignedLeaf()
        let e = try evaluate([leaf.certificate], TestPKI.ssl("other.example.com", anchors: [leaf.certificate]))
        XCTAssertEqual(e.failureSummaries, ["hostname@0:failed(-67602)"])
        assertVerdict(e, trusted: false, osstatus: -67602, urlError: -999)
    }

    func testSelfSignedLeafAsAnchorStillNeedsServerAuth() throws {
        let leaf = try TestPKI.selfSignedLeaf { $0.extendedKeyUsage = .init([.clientAuth]) }
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate]))
        XCTAssertEqual(e.failureSummaries, ["extended-key-usage@0:failed(-67609)"])
        assertVerdict(e, trusted: false, osstatus: -67609, urlError: -999)
    }

    func testSelfSignedLeafAsAnchorStillNeedsAnAdequateKeySize() throws {
        let leaf = try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey(.rsa(bits: 1024)))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate]))
        XCTAssertEqual(e.failureSummaries, ["key-size@0:failed(-67735)"])
        assertVerdict(e, trusted: false, osstatus: -67735, urlError: -999, resultType: .recoverableTrustFailure)
    }

    func testSelfSignedLeafAsAnchorStillHasALifetimeMaximum() throws {
        let leaf = try TestPKI.selfSignedLeaf(lifetime: .days(900))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate]))
        XCTAssertEqual(e.failureSummaries, ["validity-period-maximum@0:failed(-67901)"])
        assertVerdict(e, trusted: false, osstatus: -67901, urlError: -999)
    }

    func testSelfSignedLeafNotSetAsAnchorIsNotTrusted() throws {
        let leaf = try TestPKI.selfSignedLeaf()
        let e = try evaluate([leaf.certificate], TestPKI.ssl())
        XCTAssertEqual(e.failureSummaries, ["anchor@0:failed(-67843)"])
        assertVerdict(e, trusted: false, osstatus: -67843, urlError: -1202)
    }

    func testCustomAnchorsStillRequireServerAuthOnLeavesIssuedAfterJune2019() throws {
        let c = try TestPKI.chain { $0.extendedKeyUsage = nil }
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["extended-key-usage@0:failed(-67609)"])
        XCTAssertEqual(
            e.step(.extendedKeyUsage, 0)?.finding.as(ExtendedKeyUsageFinding.self),
            .ekuMissingRequired(anchorClass: .custom))
        assertVerdict(e, trusted: false, osstatus: -67609, urlError: -999)
    }

    func testCustomAnchorsAcceptLeavesWithoutEKUIssuedBeforeJuly2019() throws {
        // Before the cut-off: no EKU requirement and no lifetime maximum under custom anchors.
        let root = try TestPKI.root(notBefore: TestPKI.date(2018, 1, 1), notAfter: TestPKI.date(2030, 1, 1))
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2019, 6, 1), lifetime: .days(1000)) {
            $0.extendedKeyUsage = nil
        }
        let e = try evaluate(
            [leaf.certificate], TestPKI.ssl(anchors: [root.certificate], time: TestPKI.date(2020, 1, 1)))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.extendedKeyUsage, 0)?.status, .passed)
        XCTAssertEqual(e.step(.validityPeriodMaximum, 0)?.status, .notApplicable)
    }

    func testCustomAnchorEKURuleStartsAt2300UTCOnJune30th2019() throws {
        // "if leaf notBefore > 2019-06-30T23:00:00Z": exactly at the cut-off is still exempt.
        let root = try TestPKI.root(notBefore: TestPKI.date(2018, 1, 1), notAfter: TestPKI.date(2030, 1, 1))
        let cutoff = TestPKI.date(2019, 6, 30, hour: 23)
        for (notBefore, passes) in [(cutoff, true), (cutoff + .seconds(1), false)] {
            let leaf = try TestPKI.leaf(issuer: root, notBefore: notBefore) { $0.extendedKeyUsage = nil }
            let e = try evaluate(
                [leaf.certificate],
                TestPKI.ssl(anchors: [root.certificate], time: TestPKI.date(2020, 1, 1)))
            XCTAssertEqual(e.step(.extendedKeyUsage, 0)?.status, passes ? .passed : .failed, "\(notBefore)")
        }
    }

    func testLeafWithOnlyClientAuthFailsUnderCustomAnchors() throws {
        let c = try TestPKI.chain { $0.extendedKeyUsage = .init([.clientAuth]) }
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["extended-key-usage@0:failed(-67609)"])
        assertVerdict(e, trusted: false, osstatus: -67609, urlError: -999)
    }

    func testIntermediateEKUWithoutServerAuthConstrainsTheLeaf() throws {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(issuer: root) { $0.extendedKeyUsage = .init([.clientAuth]) }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["extended-key-usage@1:failed(-67609)"])
        assertVerdict(e, trusted: false, osstatus: -67609, urlError: -999)
    }

    func testIntermediateWithAnyExtendedKeyUsageAllowsServerAuth() throws {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(issuer: root) { $0.extendedKeyUsage = .init([.any]) }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    // MARK: - System roots

    func testSystemRootAnchorsAChainWhenNoCustomAnchorsAreSet() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl(system: [c.root.certificate]))
        XCTAssertEqual(e.path.anchorClass, .system)
        XCTAssertEqual(e.path.sources, [.presented, .presented, .systemStore])
        XCTAssertEqual(
            e.step(.anchor, 2)?.finding.as(ChainFinding.self), .anchoredAt(anchorClass: .system, name: "Test Root"))
    }

    func testSettingCustomAnchorsTurnsSystemRootsIntoParentSourcesOnly() throws {
        let c = try TestPKI.chain()
        let other = try TestPKI.root("App Root")
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [other.certificate], system: [c.root.certificate]))
        XCTAssertEqual(e.pathNames, ["www.example.com", "Test Intermediate", "Test Root"])
        XCTAssertEqual(e.failureSummaries, ["anchor@2:failed(-67843)"])
        assertVerdict(e, trusted: false, osstatus: -67843, urlError: -999)
    }

    func testAnchorCertificatesOnlyFalseAddsTheSystemRootsBack() throws {
        let c = try TestPKI.chain()
        let other = try TestPKI.root("App Root")
        let e = try evaluate(
            c.presented,
            TestPKI.ssl(anchors: [other.certificate], system: [c.root.certificate], anchorsOnly: false))
        XCTAssertEqual(e.path.anchorClass, .system)
        XCTAssertEqual(e.step(.anchor, 2)?.status, .passed)
    }

    func testSystemAnchoredLeafWithoutEKUFails() throws {
        let c = try TestPKI.chain { $0.extendedKeyUsage = nil }
        let e = try evaluate(c.presented, TestPKI.ssl(system: [c.root.certificate]))
        XCTAssertEqual(e.step(.extendedKeyUsage, 0)?.summary, "extended-key-usage@0:failed(-67609)")
        XCTAssertEqual(
            e.step(.extendedKeyUsage, 0)?.finding.as(ExtendedKeyUsageFinding.self),
            .ekuMissingRequired(anchorClass: .system))
        XCTAssertFalse(e.verdict.trusted)
        XCTAssertEqual(e.verdict.urlError, -1202)
    }

    func testSystemAnchoredLeafIssuedBeforeJuly2019StillNeedsEKU() throws {
        let root = try TestPKI.root(notBefore: TestPKI.date(2018, 1, 1), notAfter: TestPKI.date(2030, 1, 1))
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2019, 1, 1)) { $0.extendedKeyUsage = nil }
        let e = try evaluate(
            [leaf.certificate], TestPKI.ssl(system: [root.certificate], time: TestPKI.date(2019, 6, 1)))
        XCTAssertEqual(e.step(.extendedKeyUsage, 0)?.status, .failed)
    }

    func testSystemAnchoredChainWithoutSCTsFailsCertificateTransparency() throws {
        // docs/steps.md: SystemTrustedCTRequired (-67825, Compliance) applies to chains
        // anchored at (non-Apple) system roots; this leaf carries no SCTs at all.
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl(system: [c.root.certificate]))
        XCTAssertTrue(e.failures.contains { $0.osstatus == -67825 }, "no CT step failed: \(e.failureSummaries)")
        XCTAssertFalse(e.verdict.trusted)
        XCTAssertEqual(e.verdict.osstatus, -67825)
    }

    func testCustomAnchoredChainDoesNotNeedSCTs() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertFalse(e.failures.contains { $0.osstatus == -67825 })
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    // MARK: - URLError

    func testRejectionWithoutCustomAnchorsOrPinsIsServerCertificateUntrusted() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented + [c.root.certificate], TestPKI.ssl("wrong.example.com"))
        XCTAssertEqual(e.verdict.urlError, -1202)
        XCTAssertEqual(e.verdict.urlErrorName, "NSURLErrorServerCertificateUntrusted")
    }

    func testRejectionWithCustomAnchorsIsCancelled() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl("wrong.example.com", anchors: [c.root.certificate]))
        assertVerdict(e, trusted: false, osstatus: -67602, urlError: -999)
        XCTAssertEqual(e.verdict.urlErrorName, "NSURLErrorCancelled")
    }
}
