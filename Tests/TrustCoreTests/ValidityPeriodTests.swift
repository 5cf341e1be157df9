import SuiteFixtures
import TrustSupport
import XCTest

@testable import TrustCore

/// ValidityPeriodMaximums (docs/steps.md): SSL only, by anchor class and leaf notBefore.
/// System roots: 825 days + 1 h from 2018-03-01, 398 days from 2020-09-01. Custom anchors:
/// 825 days + 1 h from 2019-06-30T23:00Z.
final class ValidityPeriodTests: XCTestCase {
    private let root2017 = Result {
        try TestPKI.root(notBefore: TestPKI.date(2017, 1, 1), notAfter: TestPKI.date(2040, 1, 1))
    }

    /// The validity-period-maximum step of a leaf issued at `notBefore` for `lifetime`,
    /// evaluated one day after issue under the given anchor class.
    private func periodStep(notBefore: Timestamp, lifetime: Span, system: Bool) throws -> Step? {
        let root = try root2017.get()
        let leaf = try TestPKI.leaf(issuer: root, notBefore: notBefore, lifetime: lifetime)
        let settings =
            system
            ? TestPKI.ssl(system: [root.certificate], time: notBefore + .days(1))
            : TestPKI.ssl(anchors: [root.certificate], time: notBefore + .days(1))
        return try evaluate([leaf.certificate], settings).step(.validityPeriodMaximum, 0)
    }

    func testCustomAnchorLeafMayLast825DaysAndAnHour() throws {
        let start = TestPKI.now - .days(30)
        XCTAssertEqual(
            try periodStep(notBefore: start, lifetime: .days(825) + .hours(1), system: false)?.status, .passed)
        let over = try periodStep(notBefore: start, lifetime: .days(825) + .hours(1) + .seconds(1), system: false)
        XCTAssertEqual(over?.summary, "validity-period-maximum@0:failed(-67901)")
    }

    func testCustomAnchorLeafOver825DaysIsRejectedWithTheValidityPeriodCode() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root, lifetime: .days(826))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["validity-period-maximum@0:failed(-67901)"])
        assertVerdict(e, trusted: false, osstatus: -67901, urlError: -999)
        XCTAssertEqual(e.verdict.osstatusName, "errSecCertificateValidityPeriodTooLong")
    }

    /// trustd's ValidityPeriodMaximums applies the system maximum only when the path's root is
    /// in the system anchor source; every other path, an unanchored one included, gets "all other
    /// trust": 825 days and an hour. A two-year self-signed development certificate is therefore
    /// untrusted (-67843), not "too long" (-67901), while a ten-year one is both and reports -67901
    /// (Compliance outranks Trust).
    func testAnUnanchoredPathGetsTheOtherTrustMaximumNotTheSystemOne() throws {
        let twoYears = try TestPKI.selfSignedLeaf(lifetime: .days(730))
        let e = try evaluate([twoYears.certificate], TestPKI.ssl())
        XCTAssertEqual(e.step(.validityPeriodMaximum, 0)?.status, .passed, "730 days is within 825")
        XCTAssertEqual(e.failureSummaries, ["anchor@0:failed(-67843)"])
        let tenYears = try TestPKI.selfSignedLeaf(lifetime: .days(3650))
        let long = try evaluate([tenYears.certificate], TestPKI.ssl())
        XCTAssertEqual(long.step(.validityPeriodMaximum, 0)?.summary, "validity-period-maximum@0:failed(-67901)")
        assertVerdict(long, trusted: false, osstatus: -67901, urlError: -1202)
    }

    func testCustomAnchorLeafIssuedBeforeTheCutOffHasNoMaximum() throws {
        let step = try periodStep(notBefore: TestPKI.date(2019, 6, 30, hour: 22), lifetime: .days(3000), system: false)
        XCTAssertEqual(step?.status, .notApplicable)
    }

    func testCustomAnchorMaximumStartsAt2300UTCOnJune30th2019() throws {
        let step = try periodStep(notBefore: TestPKI.date(2019, 6, 30, hour: 23), lifetime: .days(900), system: false)
        XCTAssertEqual(step?.summary, "validity-period-maximum@0:failed(-67901)")
    }

    func testSC081LimitIsShownButNotEnforcedBecauseAppleEnforcementIsUnconfirmed() throws {
        // docs/steps.md: SC-081 allows 200 days from 2026-03-15, 100 from 2027-03-15;
        // Apple's enforcement is UNCONFIRMED, so the step passes and says so.
        let over = try XCTUnwrap(periodStep(notBefore: TestPKI.date(2026, 6, 1), lifetime: .days(300), system: true))
        XCTAssertEqual(over.status, .passed)
        XCTAssertTrue(over.detail.contains("SC-081 allows 200 days"), over.detail)
        XCTAssertTrue(over.detail.contains("unconfirmed"), over.detail)
        let later = try XCTUnwrap(periodStep(notBefore: TestPKI.date(2027, 6, 1), lifetime: .days(150), system: true))
        XCTAssertTrue(later.detail.contains("SC-081 allows 100 days"), later.detail)
        let within = try XCTUnwrap(periodStep(notBefore: TestPKI.date(2026, 6, 1), lifetime: .days(90), system: true))
        XCTAssertFalse(within.detail.contains("SC-081"), within.detail)
        // Custom anchors are outside the CA/Browser Forum's rules.
        let custom = try XCTUnwrap(periodStep(notBefore: TestPKI.date(2026, 6, 1), lifetime: .days(300), system: false))
        XCTAssertFalse(custom.detail.contains("SC-081"), custom.detail)
    }

    func testSystemRootLeafIssuedFromSeptember2020MayLast398Days() throws {
        let start = TestPKI.date(2020, 9, 1)
        XCTAssertEqual(try periodStep(notBefore: start, lifetime: .days(398), system: true)?.status, .passed)
        XCTAssertEqual(
            try periodStep(notBefore: start, lifetime: .days(398) + .seconds(1), system: true)?.summary,
            "validity-period-maximum@0:failed(-67901)")
        XCTAssertEqual(
            try periodStep(notBefore: start, lifetime: .days(400), system: true)?.summary,
            "validity-period-maximum@0:failed(-67901)")
    }

    func testSystemRootLeafIssuedBeforeSeptember2020MayLast825Days() throws {
        let start = TestPKI.date(2020, 8, 31)
        XCTAssertEqual(try periodStep(notBefore: start, lifetime: .days(800), system: true)?.status, .passed)
        XCTAssertEqual(
            try periodStep(notBefore: start, lifetime: .days(825) + .hours(1), system: true)?.status, .passed)
        XCTAssertEqual(
            try periodStep(notBefore: start, lifetime: .days(826), system: true)?.summary,
            "validity-period-maximum@0:failed(-67901)")
    }

    func testCustomAnchorsAreNotHeldToThe398DayRule() throws {
        XCTAssertEqual(
            try periodStep(notBefore: TestPKI.now - .days(30), lifetime: .days(700), system: false)?.status,
            .passed)
    }

    func testBasicX509HasNoLifetimeMaximum() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root, lifetime: .days(3650))
        let e = try evaluate([leaf.certificate], TestPKI.basic(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.validityPeriodMaximum, 0)?.status.identifier, "skipped")
    }
}
