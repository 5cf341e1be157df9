import SuiteFixtures
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Apple's rule for name forms it cannot process (trustd SecPolicyServer.c, basic certificate
/// processing step (g); NameConstraintsTests' UnsupportedGeneralName cases): a CA below the anchor
/// whose critical nameConstraints names otherName, x400Address, ediPartyName or registeredID
/// fails NameConstraints (errSecInvalidName, -67689); the same extension non-critical, or on the
/// trusted anchor, does not. RFC 5280 4.2.1.10 allows either processing or rejecting.
final class NameConstraintFormTests: XCTestCase {
    let registered = GeneralName.registeredID(OID(dotted: "1.3.6.1.4.1.99999.7")!)

    func chain(constraint: GeneralName, critical: Bool, onRoot: Bool = false, excluded: Bool = false)
        throws -> (Evaluation, Evaluation)
    {
        let ext = CertificateBuilder.NameConstraintsExtension(
            permitted: excluded ? [] : [constraint, .dnsName("example.com")],
            excluded: excluded ? [constraint] : [], critical: critical)
        let root = try TestPKI.root { if onRoot { $0.nameConstraints = ext } }
        let int = try TestPKI.intermediate(issuer: root) { if !onRoot { $0.nameConstraints = ext } }
        let leaf = try TestPKI.leaf(issuer: int)
        let chain = [leaf.certificate, int.certificate]
        var webpki = TestPKI.ssl(anchors: [root.certificate])
        webpki.profile = .webpki
        return (try evaluate(chain, TestPKI.ssl(anchors: [root.certificate])), try evaluate(chain, webpki))
    }

    func testCriticalRegisteredIDConstraintOnAnIntermediateIsNotTrusted() throws {
        let (apple, webpki) = try chain(constraint: registered, critical: true)
        XCTAssertEqual(apple.failureSummaries, ["name-constraints@1:failed(-67689)"])
        XCTAssertEqual(
            apple.step(.nameConstraints, 1)?.finding.as(NameConstraintsFinding.self),
            .nameConstraintFormUnsupported(form: "registeredID"))
        assertVerdict(apple, trusted: false, osstatus: -67689, urlError: -999, resultType: .recoverableTrustFailure)
        // The webpki profile processes registeredID constraints; the leaf has no such name.
        XCTAssertTrue(webpki.verdict.trusted, "\(webpki.failureSummaries)")
    }

    func testCriticalOtherNameInExcludedSubtreesIsNotTrusted() throws {
        let other = GeneralName.otherName(type: OID(dotted: "1.3.6.1.4.1.311.20.2.3")!, value: [0x0C, 0x01, 0x61])
        let (apple, _) = try chain(constraint: other, critical: true, excluded: true)
        XCTAssertEqual(
            apple.step(.nameConstraints, 1)?.finding.as(NameConstraintsFinding.self),
            .nameConstraintFormUnsupported(form: "otherName"))
        XCTAssertFalse(apple.verdict.trusted)
    }

    func testNonCriticalUnsupportedFormIsTrusted() throws {
        let (apple, _) = try chain(constraint: registered, critical: false)
        assertVerdict(apple, trusted: true, osstatus: 0, urlError: nil)
    }

    func testUnsupportedFormOnTheTrustedAnchorIsNotJudged() throws {
        let (apple, _) = try chain(constraint: registered, critical: true, onRoot: true)
        assertVerdict(apple, trusted: true, osstatus: 0, urlError: nil)
    }
}
