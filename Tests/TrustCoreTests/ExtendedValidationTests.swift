import SuiteFixtures
import TrustSupport
import XCTest

@testable import CTModel
@testable import TrustBuilder
@testable import TrustCore
@testable import TrustReport
@testable import TrustX509

/// kSecTrustExtendedValidation as trustd decides it (docs/steps.md, the store paragraph):
/// `SecPolicyCheckEV` with its subordinate and root rules in trust/trustd/SecPolicyServer.c, CT
/// qualification, and the revocation answer `SecPathBuilderReportResult` asks for. The test root
/// is a system root the EV table lists for `evPolicy`.
final class ExtendedValidationTests: XCTestCase {
    static let evPolicy = OID(dotted: "2.23.140.1.1")!
    static let otherPolicy = OID(dotted: "1.3.6.1.4.1.99999.1")!
    static let logs: [CTTestLog] = (0..<3).map { try! CTTestLog("EV log \($0)", operatorName: "EV operator \($0)") }
    static let root = try! TestPKI.root("EV Test Root")
    static let crlPoint = DistributionPoint(name: .fullName([.uri("http://crl.example/ev.crl")]))

    /// An intermediate asserting `policies`, with a CRL distribution point unless `crlDP` is false.
    func intermediate(policies: [OID] = [evPolicy], crlDP: Bool = true) throws -> Issued {
        try TestPKI.intermediate("EV Test Intermediate", issuer: Self.root) { b in
            b.rawExtensions.append(.certificatePolicies(policies))
            if crlDP { b.rawExtensions.append(CRLExtensionBuilder.distributionPoints([Self.crlPoint])) }
        }
    }

    /// A leaf for www.example.com asserting `policies`, with SCTs of `sctCount` listed logs.
    func leaf(issuer: Issued, policies: [OID] = [evPolicy], sctCount: Int = 3) throws -> Certificate {
        let b = TestPKI.leafBuilder(
            TestPKI.host, key: try TestPKI.sharedKey(.ecP256), notBefore: TestPKI.now - .days(30), lifetime: .days(365)
        ) { $0.rawExtensions.append(.certificatePolicies(policies)) }
        let scts = Self.logs.prefix(sctCount).map { EmbeddedSCTRequest($0, at: TestPKI.now - .days(30)) }
        return try b.signWithEmbeddedSCTs(scts, issuerKey: issuer.key, issuer: issuer.certificate)
    }

    /// An empty CRL of `issuer`, a positive answer for every certificate it issued.
    func crl(_ issuer: Issued) throws -> RevocationList {
        var b = RevocationListBuilder(thisUpdate: TestPKI.now - .days(1), nextUpdate: TestPKI.now + .days(6))
        b.crlNumber = 1
        return try b.sign(key: issuer.key, issuer: issuer.certificate)
    }

    /// SSL to www.example.com, the root a system root listed as EV for `evPolicy`, both CAs' CRLs
    /// given unless `revocation` is false.
    func settings(_ intermediate: Issued, revocation: Bool = true, evRoots: [String: [String]]? = nil) throws
        -> TrustSettings
    {
        var s = TestPKI.ssl(system: [Self.root.certificate])
        s.ctLogs = CTLogList(
            source: "EV test logs",
            logs: Self.logs.map {
                CTLog(key: $0.key.spkiDER, operatorName: $0.operatorName, description: $0.description)
            })
        s.evRoots = evRoots ?? [hexString(Self.root.certificate.sha256).uppercased(): [Self.evPolicy.dotted]]
        if revocation { s.revocationLists = [try crl(Self.root), try crl(intermediate)] }
        return s
    }

    func assertNotEV(_ e: Evaluation, because reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(e.verdict.extendedValidation, file: file, line: line)
        let why = e.verdict.extendedValidationFailure ?? "(none)"
        XCTAssertTrue(why.contains(reason), "\(why) lacks \(reason)", file: file, line: line)
    }

    func testAnEVPathToAnEVRootWithCTAndRevocationAnswersIsExtendedValidation() throws {
        let ca = try intermediate()
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca))
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
        XCTAssertTrue(e.verdict.certificateTransparency)
        XCTAssertTrue(e.verdict.extendedValidation, e.verdict.extendedValidationFailure ?? "")
        XCTAssertNil(e.verdict.extendedValidationFailure)
    }

    func testAnOfflineCheckWithoutRevocationAnswersIsNotExtendedValidation() throws {
        let ca = try intermediate()
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca, revocation: false))
        XCTAssertTrue(e.verdict.trusted)
        assertNotEV(e, because: "no positive revocation answer")
    }

    func testARootTheEVTableDoesNotListGivesNoEVAndNoReason() throws {
        let ca = try intermediate()
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca, evRoots: [:]))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertFalse(e.verdict.extendedValidation)
        XCTAssertNil(e.verdict.extendedValidationFailure)
    }

    func testARootListedForAnotherPolicyIsNotEV() throws {
        let ca = try intermediate()
        let table = [hexString(Self.root.certificate.sha256).uppercased(): [Self.otherPolicy.dotted]]
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca, evRoots: table))
        assertNotEV(e, because: "not listed as EV for any of the leaf's policies")
    }

    func testALeafAssertingOnlyAnyPolicyIsNotEV() throws {
        let ca = try intermediate()
        let e = try evaluate([try leaf(issuer: ca, policies: [.anyPolicy]), ca.certificate], try settings(ca))
        XCTAssertTrue(e.verdict.trusted)
        assertNotEV(e, because: "no certificate policy other than anyPolicy")
    }

    func testAnIntermediateWithoutACRLDistributionPointIsNotEV() throws {
        let ca = try intermediate(crlDP: false)
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca))
        assertNotEV(e, because: "certificate 1 has no CRL distribution point")
    }

    func testAnIntermediateNotAssertingTheLeafsPolicyIsNotEV() throws {
        let ca = try intermediate(policies: [Self.otherPolicy])
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca))
        assertNotEV(e, because: "certificate 1 asserts none of the leaf's policies")
    }

    func testAnIntermediateAssertingAnyPolicyKeepsTheLeafsPolicy() throws {
        let ca = try intermediate(policies: [.anyPolicy])
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca))
        XCTAssertTrue(e.verdict.extendedValidation, e.verdict.extendedValidationFailure ?? "")
    }

    func testARootSigningTheLeafDirectlyIsNotEV() throws {
        let rootAsIssuer = Self.root
        var s = try settings(try intermediate())
        s.revocationLists = [try crl(rootAsIssuer)]
        let e = try evaluate([try leaf(issuer: rootAsIssuer)], s)
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
        assertNotEV(e, because: "root signed the leaf directly")
    }

    func testAPathCTDoesNotQualifyIsNotEV() throws {
        // Under Basic X.509 CT is assessed but not enforced, so the evaluation still succeeds.
        let ca = try intermediate()
        var s = try settings(ca)
        s.policy = .basicX509
        let e = try evaluate([try leaf(issuer: ca, sctCount: 2), ca.certificate], s)
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
        assertNotEV(e, because: "not CT-qualified")
    }

    func testAFailedEvaluationIsNotEV() throws {
        let ca = try intermediate()
        var s = try settings(ca)
        s.policy = .ssl(host: "other.example.com")
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], s)
        XCTAssertFalse(e.verdict.trusted)
        assertNotEV(e, because: "the evaluation failed")
    }

    func testTheSameRootAsACustomAnchorIsNotEV() throws {
        let ca = try intermediate()
        var s = try settings(ca)
        s.anchors = [Self.root.certificate]
        let e = try evaluate([try leaf(issuer: ca), ca.certificate], s)
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
        XCTAssertFalse(e.verdict.extendedValidation)
        XCTAssertNil(e.verdict.extendedValidationFailure)
    }

    func testTheReportsSayEVInJSONAndInOneTextAndMarkdownLineOnlyWhenItHoldsOrFailsAtAnEVRoot() throws {
        let ca = try intermediate()
        let ev = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca))
        XCTAssertTrue(JSONReport.render(ev).contains("\"extendedValidation\": true"))
        XCTAssertTrue(TextReport.render(ev).contains("Extended Validation: yes"))
        let offline = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca, revocation: false))
        XCTAssertTrue(JSONReport.render(offline).contains("\"extendedValidation\": false"))
        XCTAssertTrue(TextReport.render(offline).contains("Extended Validation: no, certificate 0 has no positive"))
        let plain = try evaluate([try leaf(issuer: ca), ca.certificate], try settings(ca, evRoots: [:]))
        XCTAssertFalse(TextReport.render(plain).contains("Extended Validation"))
        XCTAssertTrue(MarkdownReport.render(ev).contains("- Extended Validation: yes"))
        XCTAssertTrue(
            MarkdownReport.render(offline).contains("- Extended Validation: no, certificate 0 has no positive"))
        XCTAssertFalse(MarkdownReport.render(plain).contains("Extended Validation"))
    }
}
