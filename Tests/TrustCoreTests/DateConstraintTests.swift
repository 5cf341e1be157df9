import PathRules
import TrustSupport
import TrustX509
import XCTest

@testable import CTModel
@testable import TrustBuilder
@testable import TrustCore

/// Roots Apple trusts only for certificates issued before a date (docs/steps.md, `revocation`).
/// Apple's support article support.apple.com/121668 says TLS certificates issued after 2024-11-15
/// by Entrust's, AffirmTrust's and Camerfirma's roots fail on current Apple systems while those
/// issued on or before it keep working until they expire; trustd applies such an entry of its Valid
/// database in SecRVCProcessValidDateConstraints (Revocation when the entry is not overridable,
/// GrayListedKey when it is; a not-before bound only for the leaf) and, for SSL,
/// SecPVCCheckRequireCTConstraints. Nobody can sign with Entrust's key, so a made root carries the
/// same constraint through `TrustSettings.dateConstraints`.
final class DateConstraintTests: XCTestCase {
    /// Apple's cut-off date, 2024-11-15, as the instant trustx takes for it (the end of the day, UTC).
    static let cutoff = Timestamp(rfc3339: "2024-11-15T23:59:59Z")!

    func constraint(on root: Issued, overridable: Bool? = nil, notBefore: Timestamp? = nil) -> DateConstraint {
        DateConstraint(
            sha256: hexString(root.certificate.sha256), name: root.certificate.displayName,
            notBefore: notBefore, notAfter: notBefore == nil ? Self.cutoff : nil,
            cutoffDate: notBefore == nil ? "2024-11-15" : String(notBefore!.rfc3339.prefix(10)),
            overridable: overridable,
            source: "https://support.apple.com/121668")
    }

    func settings(
        _ base: TrustSettings, _ constraints: [DateConstraint]
    ) -> TrustSettings {
        var s = base
        s.dateConstraints = Dictionary(uniqueKeysWithValues: constraints.map { ($0.sha256, $0) })
        return s
    }

    func testLeafIssuedOnTheCutoffDayIsTrusted() throws {
        let root = try TestPKI.root("Constrained Root")
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2024, 11, 15, hour: 12))
        let e = try evaluate(
            [leaf.certificate], settings(TestPKI.basic(anchors: [root.certificate]), [constraint(on: root)]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        guard case .issuedWithinDateConstraint = e.step(.revocation, 0)?.finding.as(DateConstraintFinding.self) else {
            return XCTFail("no date-constraint step: \(e.stepSummaries)")
        }
        let anchor = try XCTUnwrap(e.step(.anchor, 1))
        XCTAssertTrue(anchor.title.contains("issued after 2024-11-15: not trusted"), anchor.title)
        XCTAssertTrue(anchor.detail.contains("support.apple.com/121668"), anchor.detail)
    }

    func testLeafIssuedAfterTheCutoffIsRevokedAndFatal() throws {
        let root = try TestPKI.root("Constrained Root")
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2024, 11, 16))
        let e = try evaluate(
            [leaf.certificate], settings(TestPKI.basic(anchors: [root.certificate]), [constraint(on: root)]))
        XCTAssertEqual(e.failureSummaries, ["revocation@0:failed(-67820)"])
        assertVerdict(e, trusted: false, osstatus: -67820, urlError: -999, resultType: .fatalTrustFailure)
        XCTAssertEqual(e.failures.first?.appleFailure?.check, "Revocation")
        XCTAssertTrue(e.failures.first?.detail.contains("2024-11-15T23:59:59Z") ?? false)
    }

    func testOverridableEntryFailsRecoverablyWithGrayListedKey() throws {
        let root = try TestPKI.root("Constrained Root")
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2024, 11, 16))
        let e = try evaluate(
            [leaf.certificate],
            settings(TestPKI.basic(anchors: [root.certificate]), [constraint(on: root, overridable: true)]))
        XCTAssertEqual(e.failureSummaries, ["revocation@0:failed(-67843)"])
        XCTAssertEqual(e.failures.first?.appleFailure?.check, "GrayListedKey")
        assertVerdict(e, trusted: false, osstatus: -67843, urlError: -999, resultType: .recoverableTrustFailure)
    }

    /// A constraint keyed on a root judges the certificates the root issued directly: an
    /// intermediate issued after the cut-off fails at its own position.
    func testIntermediateIssuedAfterTheCutoffFailsAtTheIntermediate() throws {
        let root = try TestPKI.root("Constrained Root")
        let int = try TestPKI.intermediate(issuer: root, notBefore: TestPKI.date(2024, 12, 1))
        let leaf = try TestPKI.leaf(issuer: int, notBefore: TestPKI.date(2025, 1, 10))
        let e = try evaluate(
            [leaf.certificate, int.certificate],
            settings(TestPKI.basic(anchors: [root.certificate]), [constraint(on: root)]))
        XCTAssertEqual(e.failureSummaries, ["revocation@1:failed(-67820)"])
        assertVerdict(e, trusted: false, osstatus: -67820, urlError: -999, resultType: .fatalTrustFailure)
    }

    /// A new leaf under an intermediate issued before the cut-off: the Basic policy judges only
    /// the intermediate (trusted); under SSL the path's issuance time (the leaf's notBefore, no
    /// SCT) is after the root's bound, which fails the intermediate's position with
    /// BlackListedLeaf (Blocked, the highest priority), and the passed bound requires CT.
    func testNewLeafUnderAnOldIntermediateFailsUnderSSLOnly() throws {
        let root = try TestPKI.root("Constrained Root")
        let int = try TestPKI.intermediate(issuer: root, notBefore: TestPKI.date(2024, 7, 1))
        let leaf = try TestPKI.leaf(issuer: int, notBefore: TestPKI.date(2025, 1, 10))
        let chain = [leaf.certificate, int.certificate]
        let basic = try evaluate(chain, settings(TestPKI.basic(anchors: [root.certificate]), [constraint(on: root)]))
        assertVerdict(basic, trusted: true, osstatus: 0, urlError: nil)
        let ssl = try evaluate(chain, settings(TestPKI.ssl(anchors: [root.certificate]), [constraint(on: root)]))
        XCTAssertEqual(ssl.failureSummaries, ["revocation@1:failed(-67820)", "revocation@0:failed(-67843)"])
        XCTAssertEqual(ssl.failures.map { $0.appleFailure?.check }, ["BlackListedLeaf", "CTRequired"])
        assertVerdict(ssl, trusted: false, osstatus: -67820, urlError: -999, resultType: .fatalTrustFailure)
        XCTAssertEqual(ssl.verdict.decisiveStep?.appleFailure?.subtype, .blocked)
    }

    /// A bound already passed makes trustd require CT of a TLS chain through the CA, even one
    /// issued before the cut-off and anchored in the app's own anchors.
    func testPassedBoundRequiresCTOfAnSSLChain() throws {
        let root = try TestPKI.root("Constrained Root")
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2024, 11, 1))
        let e = try evaluate(
            [leaf.certificate], settings(TestPKI.ssl(anchors: [root.certificate]), [constraint(on: root)]))
        XCTAssertEqual(e.failureSummaries, ["revocation@0:failed(-67843)"])
        XCTAssertEqual(e.failures.first?.appleFailure?.check, "CTRequired")
        assertVerdict(e, trusted: false, osstatus: -67843, urlError: -999, resultType: .fatalTrustFailure)
        // Before the bound passes, nothing requires CT and the chain is trusted.
        let before = try evaluate(
            [leaf.certificate],
            settings(TestPKI.ssl(anchors: [root.certificate], time: TestPKI.date(2024, 11, 10)), [constraint(on: root)])
        )
        assertVerdict(before, trusted: true, osstatus: 0, urlError: nil)
    }

    /// Only the CAs the table names are constrained: a custom anchor of the app's own is not.
    func testCustomAnchorOutsideTheTableIsUnaffected() throws {
        let constrained = try TestPKI.root("Constrained Root")
        let own = try TestPKI.root("App Root")
        let leaf = try TestPKI.leaf(issuer: own, notBefore: TestPKI.date(2025, 1, 10))
        let e = try evaluate(
            [leaf.certificate], settings(TestPKI.ssl(anchors: [own.certificate]), [constraint(on: constrained)]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertFalse(e.steps.contains { $0.id == .revocation })
        // And Apple's own table, the default, names no made root.
        let apple = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [own.certificate]))
        XCTAssertEqual(apple.stepSummaries, e.stepSummaries)
    }

    /// The Valid snapshot's rows carry not-before bounds too; trustd applies one to the leaf only.
    func testNotBeforeBoundAppliesToTheLeafOnly() throws {
        let root = try TestPKI.root("Constrained Root")
        let bound = constraint(on: root, notBefore: TestPKI.date(2024, 10, 1))
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2024, 9, 1))
        let direct = try evaluate([leaf.certificate], settings(TestPKI.basic(anchors: [root.certificate]), [bound]))
        XCTAssertEqual(direct.failureSummaries, ["revocation@0:failed(-67820)"])
        let int = try TestPKI.intermediate(issuer: root, notBefore: TestPKI.date(2024, 9, 1))
        let below = try TestPKI.leaf(issuer: int, notBefore: TestPKI.date(2025, 1, 10))
        let e = try evaluate(
            [below.certificate, int.certificate], settings(TestPKI.basic(anchors: [root.certificate]), [bound]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testWebPKIProfileAppliesNoAppleConstraint() throws {
        let root = try TestPKI.root("Constrained Root")
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2024, 11, 16))
        var s = settings(TestPKI.ssl(anchors: [root.certificate]), [constraint(on: root)])
        s.profile = .webpki
        let e = try evaluate([leaf.certificate], s)
        XCTAssertFalse(e.steps.contains { $0.id == .revocation })
    }

    /// support.apple.com/121668: Entrust Root Certification Authority - G2 and AffirmTrust
    /// Commercial, by the SHA-256 Apple prints, issued after 2024-11-15: not trusted.
    func testAppleTableConstrainsEntrustG2AndAffirmTrustCommercial() throws {
        for digest in [
            "43DF5774B03E7FEF5FE40D931A7BEDF1BB2E6B42738C4E6D3841103D3AA7F339",
            "0376AB1D54C5F9803CE4B2E201A0EE7EEF7B57B636E8A93C9B8D4860C96F5FA7",
        ] {
            let c = try XCTUnwrap(DateConstraint.apple[digest])
            XCTAssertEqual(c.notAfter, Self.cutoff)
            XCTAssertNil(c.notBefore)
            XCTAssertFalse(c.isOverridable)
            XCTAssertEqual(c.rule, "issued after 2024-11-15: not trusted")
        }
    }

    // MARK: - A system root with Certificate Transparency, as on a device

    /// A leaf of CertificateTransparencyTests' root with three embedded SCTs dated `sctTime`, and
    /// SSL settings trusting that root as a system root, its logs, and the root constrained.
    func ctChain(notBefore: Timestamp, sctTime: Timestamp) throws -> (Certificate, TrustSettings) {
        let logs = Array(CertificateTransparencyTests.logs[0..<3])
        let root = CertificateTransparencyTests.root
        let b = TestPKI.leafBuilder(
            TestPKI.host, key: try TestPKI.sharedKey(.ecP256), notBefore: notBefore, lifetime: .days(365)
        ) { _ in }
        let leaf = try b.signWithEmbeddedSCTs(
            logs.map { EmbeddedSCTRequest($0, at: sctTime) }, issuerKey: root.key, issuer: root.certificate)
        var s = settings(TestPKI.ssl(system: [root.certificate]), [constraint(on: root)])
        s.ctLogs = CTLogList(
            source: "test logs",
            logs: logs.map { CTLog(key: $0.key.spkiDER, operatorName: $0.operatorName, description: $0.description) })
        return (leaf, s)
    }

    /// support.apple.com/121668: certificates issued on or before the date keep working until they
    /// expire; with its SCTs the chain is CT-qualified, so nothing else is required.
    func testSystemRootLeafIssuedBeforeTheCutoffWithSCTsIsTrusted() throws {
        let (leaf, s) = try ctChain(notBefore: TestPKI.date(2024, 11, 1), sctTime: TestPKI.date(2024, 11, 1))
        let e = try evaluate([leaf], s)
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.revocation, 0)?.status, .passed)
    }

    /// trustd's issuance time is the earliest embedded SCT when one verifies: a leaf dated before the
    /// cut-off but logged after it is issued after it (BlackListedLeaf, -67820).
    func testLeafBackdatedBeforeTheCutoffButLoggedAfterItFails() throws {
        let (leaf, s) = try ctChain(notBefore: TestPKI.date(2024, 11, 10), sctTime: TestPKI.date(2024, 11, 20))
        let e = try evaluate([leaf], s)
        XCTAssertEqual(e.failureSummaries, ["revocation@0:failed(-67820)"])
        XCTAssertEqual(e.failures.first?.appleFailure?.check, "BlackListedLeaf")
        XCTAssertTrue(e.failures.first?.detail.contains("earliest embedded SCT") ?? false)
        assertVerdict(e, trusted: false, osstatus: -67820, urlError: -1202, resultType: .fatalTrustFailure)
    }
}
