import SuiteFixtures
import XCTest

@testable import TrustCore
@testable import TrustX509

/// The `webpki` profile's two halves: RFC 5280 path validation, and the CA/Browser Forum
/// Baseline Requirements on top (`caBrowserForumRules`, on by default). x509-limbo declares its
/// RFC 5280 and Web PKI cases as conflicting where the two disagree; each test names the rule.
final class WebPKIFamilyTests: XCTestCase {
    func testCAInLeafPositionIsRFC5280ButNotBaselineRequirements() throws {
        // RFC 5280 makes no rule about a CA in leaf position; BR 7.1.2.7.8 does.
        let root = try TestPKI.root()
        let ca = try TestPKI.intermediate("ca.example.com", issuer: root, notAfter: TestPKI.now + .days(200)) {
            $0.subjectAltNames = .dns("ca.example.com")
        }
        let rfc = try webpki([ca.certificate], anchor: root.certificate, host: "ca.example.com", br: false)
        XCTAssertTrue(rfc.verdict.trusted, "\(rfc.failureSummaries) \(rfc.failures.map(\.detail))")
        XCTAssertEqual(
            try webpki([ca.certificate], anchor: root.certificate, host: "ca.example.com").step(.basicConstraints, 0)?
                .finding.as(BasicConstraintsFinding.self), .leafIsCA)
    }

    func testLeafWithoutExtendedKeyUsageIsRFC5280ButNotBaselineRequirements() throws {
        // RFC 5280 4.2.1.12 lets a certificate omit extKeyUsage; BR 7.1.2.7.6 requires it.
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root) { $0.extendedKeyUsage = nil }
        XCTAssertTrue(try webpki([leaf.certificate], anchor: root.certificate, br: false).verdict.trusted)
        XCTAssertFalse(try webpki([leaf.certificate], anchor: root.certificate).verdict.trusted)
    }

    func testIssuerWithoutKeyUsageIsRFC5280ButNotBaselineRequirements() throws {
        // RFC 5280 6.1.4 (n) checks keyUsage only when present (4.2.1.3's "MUST include" binds
        // the CA that issues, not the path validator); BR 7.1.2.10.7 requires it on a CA.
        let root = try TestPKI.root()
        let ca = try TestPKI.intermediate("No KeyUsage CA", issuer: root, notAfter: TestPKI.now + .days(300)) {
            $0.keyUsage = nil
        }
        let leaf = try TestPKI.leaf(issuer: ca)
        let chain = [leaf.certificate, ca.certificate]
        XCTAssertTrue(try webpki(chain, anchor: root.certificate, br: false).verdict.trusted)
        XCTAssertEqual(
            try webpki(chain, anchor: root.certificate).step(.keyUsage, 1)?.finding.as(KeyUsageFinding.self),
            .keyUsageMissingOnCA)
    }

    func testCommonNameMustBeOneOfTheSANValuesUnderTheBaselineRequirements() throws {
        // BR 7.1.4.3: "this attribute MUST contain exactly one entry that is one of the values
        // contained in the Certificate's subjectAltName extension".
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root) { $0.subject = [.commonName("other.example.com")] }
        let e = try webpki([leaf.certificate], anchor: root.certificate)
        XCTAssertEqual(
            e.steps.filter { $0.id == .compliance && $0.status == .failed }.map {
                $0.finding.as(ComplianceFinding.self)
            },
            [
                .nonCompliant(
                    detail:
                        "subject commonName other.example.com is not one of the subjectAltName values (CA/Browser Forum BR 7.1.4.3)"
                )
            ])
        XCTAssertTrue(try webpki([leaf.certificate], anchor: root.certificate, br: false).verdict.trusted)
        // A copy differing in letter case is not "a character-for-character copy" (BR 7.1.4.3).
        let upper = try TestPKI.leaf(issuer: root) { $0.subject = [.commonName("WWW.Example.COM")] }
        XCTAssertFalse(try webpki([upper.certificate], anchor: root.certificate).verdict.trusted)
    }

    func testNonCriticalNameConstraintsAreAllowedByTheBaselineRequirementsOnly() throws {
        // RFC 5280 4.2.1.10: "Conforming CAs MUST mark this extension as critical"; BR
        // 7.1.2.10.8 lets it be non-critical.
        let root = try TestPKI.root {
            $0.nameConstraints = .init(permitted: [.dnsName("example.com")], critical: false)
        }
        let leaf = try TestPKI.leaf(issuer: root)
        XCTAssertTrue(try webpki([leaf.certificate], anchor: root.certificate).verdict.trusted)
        XCTAssertFalse(try webpki([leaf.certificate], anchor: root.certificate, br: false).verdict.trusted)
    }

    func testSANAndConstraintDNSNamesMustBeInPreferredNameSyntax() throws {
        // RFC 5280 4.2.1.6 (SAN) and 4.2.1.10 (constraints), whichever half applies.
        let root = try TestPKI.root()
        let badSAN = try TestPKI.leaf(issuer: root) { $0.subjectAltNames = .dns(TestPKI.host, "bad name.example.com") }
        XCTAssertFalse(try webpki([badSAN.certificate], anchor: root.certificate, br: false).verdict.trusted)
        let badNC = try TestPKI.intermediate(issuer: root) {
            $0.nameConstraints = .init(excluded: [.dnsName("*.example.org")])
        }
        let leaf = try TestPKI.leaf(issuer: badNC)
        let e = try webpki([leaf.certificate, badNC.certificate], anchor: root.certificate)
        XCTAssertEqual(e.failureSummaries, ["compliance@1:failed(-67603)"])
        // Apple's profile does not judge either.
        XCTAssertTrue(
            try evaluate([badSAN.certificate], TestPKI.ssl(anchors: [root.certificate])).verdict.trusted)
    }

    func testRootWithoutSubjectKeyIdentifierFailsUnderWebPKI() throws {
        // RFC 5280 4.2.1.2: "this extension MUST appear in all conforming CA certificates".
        let root = try TestPKI.root { $0.subjectKeyIdentifier = .omitted }
        let leaf = try TestPKI.leaf(issuer: root)
        XCTAssertFalse(try webpki([leaf.certificate], anchor: root.certificate, br: false).verdict.trusted)
        XCTAssertTrue(try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate])).verdict.trusted)
    }
}
