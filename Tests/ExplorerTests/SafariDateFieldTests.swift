import SuiteFixtures
import TrustSupport
import TrustX509
import XCTest

@testable import ExplorerState

/// A root's fields in the Detail pane give its date for Safari and Apple's other programs:
/// trustd judges a root valid for more than 120 days 60 days after the evaluation time for them
/// (Security-61901, trust/trustd/SecPolicyServer.c, `_ShouldApplyEarlyExpirationCheck`), so it
/// stops being trusted at notAfter less 60 days; a root valid for 120 days or less, and a
/// certificate that is no root, get no such field.
final class SafariDateFieldTests: XCTestCase {
    func safariField(_ c: Certificate) -> String? {
        CertificateFields.lines(c, at: TestPKI.now).first { $0.kind == .field("For Safari") }?.text
    }

    func testALongLivedRootShowsItsNotAfterLessSixtyDays() throws {
        let notAfter = TestPKI.date(2030, 3, 1)
        let root = try TestPKI.root("Safari Date Root", notBefore: TestPKI.date(2020, 3, 1), notAfter: notAfter)
        // 2030-03-01 less 60 days: 2029-12-31 (January has 31 days, February 2030 28).
        let field = try XCTUnwrap(safariField(root.certificate))
        XCTAssertTrue(field.hasPrefix("until 2029-12-31T00:00:00Z, 60 days early"), field)
    }

    func testAShortLivedRootAndALeafHaveNone() throws {
        let short = try TestPKI.root(
            "Short Root", notBefore: TestPKI.now - .days(10), notAfter: TestPKI.now + .days(110))
        XCTAssertNil(safariField(short.certificate))
        let root = try TestPKI.root("Leaf Root")
        let leaf = try TestPKI.leafBuilder(
            TestPKI.host, key: try TestPKI.sharedKey(.ecP256), notBefore: TestPKI.now - .days(1), lifetime: .days(300)
        ) { _ in }
        .sign(issuerKey: root.key, issuer: root.certificate)
        XCTAssertNil(safariField(leaf))
    }
}
