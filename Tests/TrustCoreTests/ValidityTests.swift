import SuiteFixtures
import XCTest

@testable import TrustCore

/// TemporalValidity (docs/steps.md): every certificate, under SSL and Basic alike, and
/// not-yet-valid reported as -67818 (errSecCertificateExpired), never -67819.
final class ValidityTests: XCTestCase {
    func testExpiredLeafReportsExpired() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.now - .days(400))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["validity@0:failed(-67818)"])
        XCTAssertEqual(
            e.step(.validity, 0)?.finding.as(ValidityFinding.self), .expired(notAfter: leaf.certificate.notAfter))
        assertVerdict(e, trusted: false, osstatus: -67818, urlError: -999, resultType: .recoverableTrustFailure)
        XCTAssertEqual(e.verdict.osstatusName, "errSecCertificateExpired")
    }

    func testNotYetValidLeafReportsExpiredStatus() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.now + .days(1))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["validity@0:failed(-67818)"])
        XCTAssertEqual(
            e.step(.validity, 0)?.finding.as(ValidityFinding.self), .notYetValid(notBefore: leaf.certificate.notBefore))
        assertVerdict(e, trusted: false, osstatus: -67818, urlError: -999)
        XCTAssertNotEqual(e.verdict.osstatus, -67819)
    }

    func testNotYetValidLeafReportsExpiredStatusUnderBasicToo() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.now + .days(1))
        let e = try evaluate([leaf.certificate], TestPKI.basic(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["validity@0:failed(-67818)"])
        assertVerdict(e, trusted: false, osstatus: -67818, urlError: -999)
    }

    func testExpiredIntermediateIsReportedOnItsIndex() throws {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(
            issuer: root, notBefore: TestPKI.now - .days(400),
            notAfter: TestPKI.now - .days(1))
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["validity@1:failed(-67818)"])
        assertVerdict(e, trusted: false, osstatus: -67818, urlError: -999)
    }

    func testExpiredAnchorIsReportedToo() throws {
        // Apple checks every certificate of the path, the anchor included.
        let root = try TestPKI.root(notBefore: TestPKI.now - .days(3650), notAfter: TestPKI.now - .days(1))
        let leaf = try TestPKI.leaf(issuer: root)
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["validity@1:failed(-67818)"])
        assertVerdict(e, trusted: false, osstatus: -67818, urlError: -999)
    }

    func testValidityBoundsAreInclusive() throws {
        // RFC 5280 4.1.2.5: valid from notBefore through notAfter, both included.
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root)
        let cert = leaf.certificate
        for (time, valid) in [
            (cert.notBefore, true), (cert.notAfter, true), (cert.notBefore - .seconds(1), false),
            (cert.notAfter + .seconds(1), false),
        ] {
            let e = try evaluate([cert], TestPKI.ssl(anchors: [root.certificate], time: time))
            XCTAssertEqual(e.step(.validity, 0)?.status, valid ? .passed : .failed, "\(time)")
        }
    }
}
