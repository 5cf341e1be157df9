import SuiteFixtures
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Path building (docs/steps.md): order, extras, missing issuers, bad signatures.
final class ChainBuildingTests: XCTestCase {
    func testCompleteChainToACustomAnchorIsTrustedWithEveryStepReported() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertEqual(
            e.stepSummaries,
            [
                "chain@-:passed",
                "signature@0:passed", "signature@1:passed", "signature@2:not-applicable",
                "anchor@2:passed",
                "validity@0:passed", "validity@1:passed", "validity@2:passed",
                "basic-constraints@0:not-applicable", "basic-constraints@1:passed", "basic-constraints@2:passed",
                "key-usage@0:passed", "key-usage@1:passed", "key-usage@2:passed",
                "extended-key-usage@0:passed",
                "name-constraints@-:not-applicable", "certificate-policies@-:passed",
                "critical-extensions@0:passed", "compliance@0:passed",
                "critical-extensions@1:passed", "compliance@1:passed",
                "critical-extensions@2:passed", "compliance@2:passed",
                "hostname@0:passed",
                "key-size@0:passed", "key-size@1:passed", "key-size@2:passed",
                "signature-algorithm@0:passed", "signature-algorithm@1:passed", "signature-algorithm@2:passed",
                "validity-period-maximum@0:passed",
                // Custom anchors are exempt from Apple's CT policy.
                "certificate-transparency@0:not-applicable", "pin@-:not-applicable",
            ])
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil, resultType: .unspecified)
        XCTAssertEqual(e.pathNames, ["www.example.com", "Test Intermediate", "Test Root"])
        XCTAssertEqual(e.path.sources, [.presented, .presented, .anchor])
        XCTAssertEqual(e.path.anchorClass, .custom)
        XCTAssertNil(e.verdict.decisiveStep)
    }

    func testStepTitlesAreOneLine() throws {
        let c = try TestPKI.chain()
        let e = try evaluate([c.leaf.certificate], TestPKI.ssl("other.example", anchors: [c.root.certificate]))
        for step in e.steps {
            XCTAssertFalse(step.title.contains("\n"), step.summary)
            XCTAssertFalse(step.title.isEmpty, step.summary)
        }
        XCTAssertFalse(e.verdict.summary.contains("\n"))
    }

    func testOrderOfPresentationDoesNotMatter() throws {
        let c = try TestPKI.chain()
        let settings = TestPKI.ssl(anchors: [c.root.certificate])
        let orders: [[Certificate]] = [
            [c.root.certificate, c.intermediate.certificate],
            [c.intermediate.certificate, c.root.certificate],
        ]
        for presented in orders {
            let e = sharedEvaluator.evaluate(leaf: c.leaf.certificate, presented: presented, settings: settings)
            assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
            XCTAssertEqual(e.pathNames, ["www.example.com", "Test Intermediate", "Test Root"])
        }
    }

    func testExtraAndDuplicateCertificatesAreIgnored() throws {
        let c = try TestPKI.chain()
        let stranger = try TestPKI.root("Unrelated Root").certificate
        let chain = [
            c.leaf.certificate, stranger, c.intermediate.certificate, c.intermediate.certificate,
            c.leaf.certificate, c.root.certificate,
        ]
        let e = try evaluate(chain, TestPKI.ssl(anchors: [c.root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.pathNames, ["www.example.com", "Test Intermediate", "Test Root"])
        XCTAssertEqual(e.presented.count, 6)
    }

    func testMissingIntermediateReportsCreateChainFailed() throws {
        let c = try TestPKI.chain()
        let e = try evaluate([c.leaf.certificate], TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["chain@0:failed(-25318)"])
        XCTAssertEqual(e.step(.anchor, nil)?.status.identifier, "skipped")
        // Custom anchors mean the app's delegate decided: it cancels the challenge.
        assertVerdict(e, trusted: false, osstatus: -25318, urlError: -999, resultType: .recoverableTrustFailure)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .chain)
        XCTAssertEqual(e.verdict.osstatusName, "errSecCreateChainFailed")
    }

    func testUntrustedSelfSignedRootReportsNotTrusted() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented + [c.root.certificate], TestPKI.ssl())
        XCTAssertEqual(e.failureSummaries, ["anchor@2:failed(-67843)"])
        XCTAssertEqual(e.step(.chain, nil)?.status, .passed)
        XCTAssertTrue(e.path.endsSelfSigned)
        assertVerdict(e, trusted: false, osstatus: -67843, urlError: -1202, resultType: .recoverableTrustFailure)
    }

    func testChainEndingInANonSelfSignedCertificateIsMissingAnIntermediate() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl())
        XCTAssertEqual(e.failureSummaries, ["chain@1:failed(-25318)"])
        assertVerdict(e, trusted: false, osstatus: -25318, urlError: -1202)
    }

    func testLeafSignedByTheWrongKeyIsReportedWithoutItsIssuer() throws {
        // docs/steps.md: a bad signature discards the candidate; the best remaining path's
        // error is reported, here MissingIntermediate.
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(issuer: root)
        let forged = try TestPKI.leaf(issuer: Issued(certificate: int.certificate, key: KeyPair.generate(.ecP256)))
        let e = try evaluate([forged.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.pathNames, ["www.example.com"])
        XCTAssertEqual(e.failureSummaries, ["chain@0:failed(-25318)", "signature@0:failed"])
        XCTAssertEqual(e.path.rejected.map(\.candidate), [int.certificate])
        XCTAssertEqual(e.path.rejected.first?.reason, .invalid)
        assertVerdict(e, trusted: false, osstatus: -25318, urlError: -999)
    }

    func testIntermediateSignedByTheWrongKeyStopsThePathBelowTheAnchor() throws {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(
            issuer: Issued(certificate: root.certificate, key: KeyPair.generate(.ecP256)))
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate(
            [leaf.certificate, int.certificate, root.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.pathNames, ["www.example.com", "Test Intermediate"])
        XCTAssertEqual(e.failureSummaries, ["chain@1:failed(-25318)", "signature@1:failed"])
        assertVerdict(e, trusted: false, osstatus: -25318, urlError: -999)
    }

    func testBadlySignedCandidateIsDiscardedWhenAValidIssuerWithTheSameNameExists() throws {
        // Two intermediates share a name (a re-keyed CA); the first one presented did not sign
        // the leaf. Apple discards that candidate and trusts the path through the other one.
        let root = try TestPKI.root()
        let good = try TestPKI.intermediate(issuer: root)
        // Without a subjectKeyIdentifier the stale one is not ranked below the good one.
        let stale = try TestPKI.intermediate(issuer: root) { $0.subjectKeyIdentifier = .omitted }
        let leaf = try TestPKI.leaf(issuer: good)
        let e = try evaluate(
            [leaf.certificate, stale.certificate, good.certificate],
            TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.path.certificates, [leaf.certificate, good.certificate, root.certificate])
        XCTAssertEqual(e.failureSummaries, [])
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil, resultType: .unspecified)
    }

    func testIssuerChosenByKeyIdentifierWhenNamesCollide() throws {
        let root = try TestPKI.root()
        let good = try TestPKI.intermediate(issuer: root)
        let other = try TestPKI.intermediate(issuer: root)
        let leaf = try TestPKI.leaf(issuer: good)
        let e = try evaluate(
            [leaf.certificate, other.certificate, good.certificate],
            TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.path.certificates, [leaf.certificate, good.certificate, root.certificate])
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.failureSummaries, [])
    }

    func testLongerChainWithTwoIntermediatesIsTrusted() throws {
        let root = try TestPKI.root()
        let i1 = try TestPKI.intermediate("Int 1", issuer: root)
        let i2 = try TestPKI.intermediate("Int 2", issuer: i1)
        let leaf = try TestPKI.leaf(issuer: i2)
        let e = try evaluate(
            [leaf.certificate, i1.certificate, i2.certificate], TestPKI.ssl(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.pathNames, ["www.example.com", "Int 2", "Int 1", "Test Root"])
    }

    func testCrossCertificateLoopEndsWithoutHanging() throws {
        // A and B certify each other; neither is an anchor. Path building must terminate.
        let keyA = try KeyPair.generate(.ecP256)
        let keyB = try KeyPair.generate(.ecP256)
        let nameA = TestPKI.name("CA A")
        let nameB = TestPKI.name("CA B")
        func ca(_ subject: NameBuilder, _ key: KeyPair, issuer: NameBuilder, issuerKey: KeyPair) throws -> Certificate {
            var b = CertificateBuilder(
                subject: subject, publicKey: key, notBefore: TestPKI.now - .days(10),
                notAfter: TestPKI.now + .days(100))
            b.basicConstraints = .init(isCA: true)
            return try b.sign(issuerKey: issuerKey, issuerName: issuer, issuerKeyIdentifier: issuerKey.keyIdentifier)
        }
        let aByB = try ca(nameA, keyA, issuer: nameB, issuerKey: keyB)
        let bByA = try ca(nameB, keyB, issuer: nameA, issuerKey: keyA)
        let leaf = try TestPKI.leaf(issuer: Issued(certificate: aByB, key: keyA))
        let e = try evaluate([leaf.certificate, aByB, bByA], TestPKI.ssl())
        XCTAssertFalse(e.verdict.trusted)
        XCTAssertEqual(e.verdict.osstatus, -25318)
        XCTAssertLessThanOrEqual(e.path.certificates.count, 3)
    }

    // MARK: - Choosing among candidate paths (docs/steps.md: the best failed path)

    /// Two intermediates with one name and one key (so both verify the leaf) but different issuers.
    private func twin(
        _ issuer: Issued, key: KeyPair, notBefore: Timestamp = TestPKI.now - .days(180),
        notAfter: Timestamp = TestPKI.now + .days(1825)
    ) throws -> Certificate {
        try TestPKI.intermediate(
            "Shared Intermediate", issuer: issuer, key: key, notBefore: notBefore,
            notAfter: notAfter
        ).certificate
    }

    func testBestFailedPathPrefersOneEndingSelfSignedOverAMissingIssuer() throws {
        let key = try KeyPair.generate(.ecP256)
        let untrustedRoot = try TestPKI.root("Untrusted Root")
        let ghost = try TestPKI.root("Ghost Root")
        let viaGhost = try twin(ghost, key: key)
        let viaRoot = try twin(untrustedRoot, key: key)
        let leaf = try TestPKI.leaf(issuer: Issued(certificate: viaRoot, key: key))
        let e = try evaluate([leaf.certificate, viaGhost, viaRoot, untrustedRoot.certificate], TestPKI.ssl())
        XCTAssertEqual(e.path.certificates, [leaf.certificate, viaRoot, untrustedRoot.certificate])
        XCTAssertEqual(e.failureSummaries, ["anchor@2:failed(-67843)"])
        XCTAssertEqual(e.verdict.osstatus, -67843)
        XCTAssertEqual(e.candidatePaths, 2)
    }

    func testRejectedCandidatePathIsKeptWithWhyItLost() throws {
        let key = try KeyPair.generate(.ecP256)
        let untrustedRoot = try TestPKI.root("Untrusted Root")
        let ghost = try TestPKI.root("Ghost Root")
        let viaGhost = try twin(ghost, key: key)
        let viaRoot = try twin(untrustedRoot, key: key)
        let leaf = try TestPKI.leaf(issuer: Issued(certificate: viaRoot, key: key))
        let e = try evaluate([leaf.certificate, viaGhost, viaRoot, untrustedRoot.certificate], TestPKI.ssl())
        // The path through the twin whose issuer (Ghost Root) was never presented ends there:
        // MissingIntermediate on its last certificate, which loses to the self-signed ending.
        XCTAssertEqual(e.rejectedPaths.map(\.path.certificates), [[leaf.certificate, viaGhost]])
        XCTAssertEqual(
            e.rejectedPaths.first?.failures.map { "\($0.id.rawValue)@\($0.certificate ?? -1):\($0.osstatus ?? 0)" },
            ["chain@1:-25318"])
        XCTAssertEqual(e.rejectedPaths.count, e.candidatePaths - 1)
    }

    func testBestFailedPathPrefersAnAnchoredPathEvenWithBadDates() throws {
        let key = try KeyPair.generate(.ecP256)
        let anchor = try TestPKI.root("Anchor Root")
        let untrustedRoot = try TestPKI.root("Untrusted Root")
        let expiredUnderAnchor = try twin(
            anchor, key: key, notBefore: TestPKI.now - .days(800),
            notAfter: TestPKI.now - .days(1))
        let viaUntrusted = try twin(untrustedRoot, key: key)
        let leaf = try TestPKI.leaf(issuer: Issued(certificate: viaUntrusted, key: key))
        let e = try evaluate(
            [leaf.certificate, viaUntrusted, untrustedRoot.certificate, expiredUnderAnchor],
            TestPKI.ssl(anchors: [anchor.certificate]))
        XCTAssertEqual(e.path.certificates, [leaf.certificate, expiredUnderAnchor, anchor.certificate])
        XCTAssertEqual(e.failureSummaries, ["validity@1:failed(-67818)"])
        assertVerdict(e, trusted: false, osstatus: -67818, urlError: -999)
    }

    func testBestFailedPathPrefersValidDatesAmongUnanchoredPaths() throws {
        let key = try KeyPair.generate(.ecP256)
        let rootA = try TestPKI.root("Root A")
        let rootB = try TestPKI.root("Root B")
        let expired = try twin(rootA, key: key, notBefore: TestPKI.now - .days(800), notAfter: TestPKI.now - .days(1))
        let valid = try twin(rootB, key: key)
        let leaf = try TestPKI.leaf(issuer: Issued(certificate: valid, key: key))
        let e = try evaluate([leaf.certificate, expired, rootA.certificate, valid, rootB.certificate], TestPKI.ssl())
        XCTAssertEqual(e.path.certificates, [leaf.certificate, valid, rootB.certificate])
        XCTAssertEqual(e.failureSummaries, ["anchor@2:failed(-67843)"])
    }

    func testReissuedIntermediateWithValidDatesIsUsedWhenTheExpiredOneIsPresentedFirst() throws {
        let key = try KeyPair.generate(.ecP256)
        let root = try TestPKI.root()
        let expired = try twin(root, key: key, notBefore: TestPKI.now - .days(800), notAfter: TestPKI.now - .days(1))
        let renewed = try twin(root, key: key)
        let leaf = try TestPKI.leaf(issuer: Issued(certificate: renewed, key: key))
        let e = try evaluate([leaf.certificate, expired, renewed], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.path.certificates, [leaf.certificate, renewed, root.certificate])
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testCrossSignedIntermediateReachesTheTrustedRootDirectly() throws {
        // New root X is cross-signed by old root Y; the server sends the cross certificate.
        let newRoot = try TestPKI.root("New Root")
        let oldRoot = try TestPKI.root("Old Root")
        let cross = try TestPKI.intermediate("New Root", issuer: oldRoot, key: newRoot.key).certificate
        let int = try TestPKI.intermediate(issuer: newRoot)
        let leaf = try TestPKI.leaf(issuer: int)
        let presented = [leaf.certificate, int.certificate, cross]
        let toNew = try evaluate(presented, TestPKI.ssl(anchors: [newRoot.certificate]))
        XCTAssertEqual(toNew.path.certificates, [leaf.certificate, int.certificate, newRoot.certificate])
        assertVerdict(toNew, trusted: true, osstatus: 0, urlError: nil)
        let toOld = try evaluate(presented, TestPKI.ssl(anchors: [oldRoot.certificate]))
        XCTAssertEqual(toOld.path.certificates, [leaf.certificate, int.certificate, cross, oldRoot.certificate])
        assertVerdict(toOld, trusted: true, osstatus: 0, urlError: nil)
    }

    func testLeafThatIsItselfACustomAnchorIsTrustedAlone() throws {
        // "Any certificate in the custom anchors is an anchor, self-signed or not."
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.leaf.certificate]))
        XCTAssertEqual(e.path.certificates, [c.leaf.certificate])
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testEmptyChainHasNoEvaluation() {
        XCTAssertNil(sharedEvaluator.evaluate(chain: [], settings: TestPKI.ssl()))
    }
}
