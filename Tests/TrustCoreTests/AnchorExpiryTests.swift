import PathRules
import SuiteFixtures
import TrustSupport
import TrustX509
import XCTest

@testable import TrustCore

/// trustd's adjustments to the date check (docs/steps.md, `validity`), with the expected values
/// read from Security-61901's trust/trustd/SecPolicyServer.c: `SecCertificateIsValidWithAdjustments`
/// skips the check for Apple's anchors (`_ShouldSkipExpirationCheck`) and, for Apple's own
/// programs, judges the path's root 60 days later when it was valid for more than 2 x 60 days and is
/// not a user anchor (`_ShouldApplyEarlyExpirationCheck`); a failure is TemporalValidity at the
/// root's index, errSecCertificateExpired (-67818) (OSX/sec/Security/SecPolicyChecks.list).
final class AnchorExpiryTests: XCTestCase {
    /// A root valid for ten years whose notAfter is 30 days after `TestPKI.now`.
    func rootExpiringIn30Days() throws -> Issued {
        try TestPKI.root(notBefore: TestPKI.now - .days(3620), notAfter: TestPKI.now + .days(30))
    }

    func basicSystem(_ root: Issued, client: TrustClient) -> TrustSettings {
        var s = TestPKI.basic(system: [root.certificate])
        s.client = client
        return s
    }

    func testSafariFailsASystemRoot30DaysBeforeItsExpiryWhereAnAppTrustsIt() throws {
        let root = try rootExpiringIn30Days()
        let leaf = try TestPKI.leaf(issuer: root)
        let app = try evaluate([leaf.certificate], basicSystem(root, client: .app))
        assertVerdict(app, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            app.step(.validity, 1)?.finding.as(ValidityFinding.self),
            .withinValidity(notBefore: root.certificate.notBefore, notAfter: root.certificate.notAfter))

        let safari = try evaluate([leaf.certificate], basicSystem(root, client: .safari))
        XCTAssertEqual(safari.failureSummaries, ["validity@1:failed(-67818)"])
        assertVerdict(safari, trusted: false, osstatus: -67818, urlError: -1202, resultType: .recoverableTrustFailure)
        // Judged at the evaluation time plus 60 days (SecPolicyServer.c: earlyVerifyTime += 60*24*3600).
        let judged = TestPKI.now + .days(60)
        XCTAssertEqual(
            safari.step(.validity, 1)?.finding.as(ValidityFinding.self),
            .expiresEarly(.init(kind: .early(judgedAt: judged), notAfter: root.certificate.notAfter)))
        // The leaf, below the root, is never moved: trustd asks early expiry of the root alone.
        XCTAssertEqual(safari.step(.validity, 0)?.status, .passed)
    }

    func testTheStepNamesTheRuleAndItsDoubt() throws {
        let root = try rootExpiringIn30Days()
        let leaf = try TestPKI.leaf(issuer: root)
        let e = try evaluate([leaf.certificate], basicSystem(root, client: .safari))
        let finding = try XCTUnwrap(e.step(.validity, 1)?.finding)
        XCTAssertTrue(finding.title.hasPrefix("Expires early for Safari"), finding.title)
        XCTAssertFalse(finding.title.contains("\n"))
        XCTAssertTrue(finding.detail.contains("_ShouldApplyEarlyExpirationCheck"), finding.detail)
        XCTAssertTrue(finding.detail.contains("Apple-internal"), finding.detail)
    }

    func testAnAnchorTheAppSetsExpiresEarlyToo() throws {
        // Apple's testEarlyAnchorExpiration (tests/TrustTests/EvaluationTests/VerifyDateTests.m)
        // expects failure with an anchor given to SecTrustSetAnchorCertificates.
        let root = try rootExpiringIn30Days()
        let int = try TestPKI.intermediate(issuer: root)
        let leaf = try TestPKI.leaf(issuer: int)
        var s = TestPKI.ssl(anchors: [root.certificate])
        s.client = .safari
        let e = try evaluate([leaf.certificate, int.certificate], s)
        XCTAssertEqual(e.failureSummaries, ["validity@2:failed(-67818)"])
        assertVerdict(e, trusted: false, osstatus: -67818, urlError: -999)
        s.client = .app
        assertVerdict(try evaluate([leaf.certificate, int.certificate], s), trusted: true, osstatus: 0, urlError: nil)
    }

    func testAUserTrustedAnchorDoesNotExpireEarly() throws {
        // `TAGetAnchorSource(...) == TAUserAnchor` returns before the rule; Apple's
        // testNoEarlyAnchorExpirationForUserAnchors expects success with a trust-settings root.
        let root = try rootExpiringIn30Days()
        let leaf = try TestPKI.leaf(issuer: root)
        var s = TestPKI.ssl(anchors: [root.certificate], anchorClass: .device)
        s.client = .safari
        let e = try evaluate([leaf.certificate], s)
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.validity, 1)?.status, .passed)
    }

    func testARootValidFor120DaysOrLessIsNotMoved() throws {
        // "Unless the cert has < 120 days validity": the time moves only when notAfter - notBefore
        // is more than 2 x 60 days.
        let exactly = try TestPKI.root(notBefore: TestPKI.now - .days(90), notAfter: TestPKI.now + .days(30))
        let leaf = try TestPKI.leaf(issuer: exactly, notBefore: TestPKI.now - .days(10), lifetime: .days(20))
        let e = try evaluate([leaf.certificate], basicSystem(exactly, client: .safari))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        let longer = try TestPKI.root(
            notBefore: TestPKI.now - .days(90) - .seconds(1), notAfter: TestPKI.now + .days(30))
        let leaf2 = try TestPKI.leaf(issuer: longer, notBefore: TestPKI.now - .days(10), lifetime: .days(20))
        let f = try evaluate([leaf2.certificate], basicSystem(longer, client: .safari))
        XCTAssertEqual(f.failureSummaries, ["validity@1:failed(-67818)"])
    }

    func testAnIntermediateCloseToItsExpiryIsNotMoved() throws {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(
            issuer: root, notBefore: TestPKI.now - .days(1000), notAfter: TestPKI.now + .days(30))
        let leaf = try TestPKI.leaf(issuer: int, notBefore: TestPKI.now - .days(10), lifetime: .days(30))
        var s = TestPKI.basic(system: [root.certificate])
        s.client = .safari
        assertVerdict(try evaluate([leaf.certificate, int.certificate], s), trusted: true, osstatus: 0, urlError: nil)
    }

    func testARootThatOutlivesTheMovedTimeNamesIt() throws {
        let root = try TestPKI.root(notBefore: TestPKI.now - .days(3000), notAfter: TestPKI.now + .days(61))
        let leaf = try TestPKI.leaf(issuer: root)
        let e = try evaluate([leaf.certificate], basicSystem(root, client: .safari))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.validity, 1)?.finding.as(ValidityFinding.self),
            .withinEarlyExpiry(
                .init(kind: .early(judgedAt: TestPKI.now + .days(60)), notAfter: root.certificate.notAfter)))
    }

    func testARootAlreadyExpiredIsPlainlyExpired() throws {
        // SecCertificateIsValidWithAdjustments returns the plain answer first when it is "not valid".
        let root = try TestPKI.root(notBefore: TestPKI.now - .days(3000), notAfter: TestPKI.now - .days(1))
        let leaf = try TestPKI.leaf(issuer: root)
        let e = try evaluate([leaf.certificate], basicSystem(root, client: .safari))
        XCTAssertEqual(
            e.step(.validity, 1)?.finding.as(ValidityFinding.self), .expired(notAfter: root.certificate.notAfter))
    }

    func testTheWebPKIProfileKnowsNoClient() throws {
        let root = try rootExpiringIn30Days()
        let leaf = try TestPKI.leaf(issuer: root)
        var s = basicSystem(root, client: .safari)
        s.profile = .webpki
        let e = try evaluate([leaf.certificate], s)
        XCTAssertEqual(e.step(.validity, 1)?.status, .passed)
    }

    /// Apple's testNonExpiringAnchors evaluates each of its anchors alone with Basic X.509 at
    /// 2045-02-01 (2369548800 seconds after 1970) and expects success, whoever asks.
    func testApplesAnchorsNeverExpire() throws {
        let farFuture = Timestamp(secondsSinceEpoch: 2_369_548_800)
        let store = AppleRootStore.shared
        let apple = store.allCertificates().filter { AnchorExpiryRules.neverExpiring[hexString($0.sha256)] != nil }
        // Apple Root CA, - G2 and - G3 are in security_certificates' roots; the Backport roots may be too.
        XCTAssertGreaterThanOrEqual(apple.count, 3)
        for root in apple {
            XCTAssertLessThan(root.notAfter, farFuture, "\(root.displayName) would not test the rule")
            for client in TrustClient.allCases {
                var s = TestPKI.basic(system: [root], time: farFuture)
                s.client = client
                let e = try evaluate([root], s)
                assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
                guard case .appleAnchorNeverExpires(let o)? = e.step(.validity, 0)?.finding.as(ValidityFinding.self)
                else { return XCTFail("\(root.displayName): \(e.stepSummaries)") }
                XCTAssertEqual(o.notAfter, root.notAfter)
            }
        }
    }

    /// The table names every root of Apple's store that SecAppleAnchor.c's getAnchors lists by name.
    func testTheNeverExpiringTableHoldsApplesRootsFromTheStore() {
        let names = ["Apple Root CA", "Apple Root CA - G2", "Apple Root CA - G3"]
        for name in names {
            let found = AppleRootStore.shared.allCertificates().filter { $0.subject.commonNames.first == name }
            XCTAssertEqual(found.count, 1, name)
            XCTAssertEqual(found.first.map { AnchorExpiryRules.neverExpiring[hexString($0.sha256)] }, name)
        }
    }
}
