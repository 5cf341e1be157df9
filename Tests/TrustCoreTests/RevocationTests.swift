import SuiteFixtures
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// CRLs supplied with the settings (RFC 5280 6.3): a revoked certificate fails Apple's Revocation
/// check (errSecCertificateRevoked, -67820, fatal); a CRL that cannot be used fails under
/// `webpki` and is ignored under `apple`, whose revocation checking fails soft.
final class RevocationTests: XCTestCase {
    func crl(
        _ issuer: Issued, revoking: [Certificate] = [], thisUpdate: Timestamp = TestPKI.now - .days(1),
        nextUpdate: Timestamp? = TestPKI.now + .days(6), crlNumber: Int? = 1
    ) throws -> RevocationList {
        var b = RevocationListBuilder(thisUpdate: thisUpdate, nextUpdate: nextUpdate)
        b.revoked = revoking.map { ($0.serialNumber, TestPKI.now - .days(2)) }
        b.crlNumber = crlNumber
        return try b.sign(key: issuer.key, issuer: issuer.certificate)
    }

    func evaluateWith(_ chain: TestPKI.Chain, _ crls: [RevocationList], profile: RuleProfile = .apple) throws
        -> Evaluation
    {
        var s = TestPKI.ssl(anchors: [chain.root.certificate])
        s.revocationLists = crls
        s.profile = profile
        return try evaluate(chain.presented, s)
    }

    func testRevokedLeafFailsWithApplesRevocationCheck() throws {
        let chain = try TestPKI.chain()
        let e = try evaluateWith(chain, [try crl(chain.intermediate, revoking: [chain.leaf.certificate])])
        XCTAssertEqual(e.failureSummaries, ["revocation@0:failed(-67820)"])
        assertVerdict(e, trusted: false, osstatus: -67820, urlError: -999, resultType: .fatalTrustFailure)
        XCTAssertEqual(e.verdict.osstatusName, "errSecCertificateRevoked")
        // The intermediate is checked against the root's CRL when one is supplied, and passes.
        XCTAssertEqual(e.step(.revocation, 1)?.status.identifier, "skipped")

        // openssl, given the same CRL, reports the leaf revoked too.
        let dir = try TemporaryDirectory()
        let root = try dir.writePEM("root.pem", [chain.root.certificate])
        let int = try dir.writePEM("int.pem", [chain.intermediate.certificate])
        let leaf = try dir.writePEM("leaf.pem", [chain.leaf.certificate])
        let list = try dir.write(
            "crl.pem",
            Array(
                PEM.encode(try crl(chain.intermediate, revoking: [chain.leaf.certificate]).der, label: "X509 CRL").utf8)
        )
        let r = try Shell.run(
            "openssl verify -crl_check -attime \(TestPKI.now.secondsSinceEpoch) -CAfile \(root) -untrusted \(int) -CRLfile \(list) \(leaf)"
        )
        XCTAssertTrue((r.text + r.stderr).contains("certificate revoked"), r.text + r.stderr)
    }

    func testRevokedPriorityBeatsCompliance() throws {
        // SecTrust.c's priority: Revoked is second only to Blocked.
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(issuer: root)
        let leaf = try TestPKI.leaf(issuer: int, lifetime: .days(900))
        let chain = TestPKI.Chain(root: root, intermediate: int, leaf: leaf)
        let e = try evaluateWith(chain, [try crl(int, revoking: [leaf.certificate])])
        XCTAssertEqual(e.failureSummaries, ["validity-period-maximum@0:failed(-67901)", "revocation@0:failed(-67820)"])
        XCTAssertEqual(e.verdict.osstatus, -67820)
    }

    func testCertificateNotOnTheCRLPasses() throws {
        let chain = try TestPKI.chain()
        let other = try TestPKI.leaf("other.example.com", issuer: chain.intermediate)
        let e = try evaluateWith(chain, [try crl(chain.intermediate, revoking: [other.certificate])])
        XCTAssertTrue(e.verdict.trusted)
        guard case .notRevoked(let issuer, let evidence)? = e.step(.revocation, 0)?.finding.as(RevocationFinding.self)
        else { return XCTFail("\(e.stepSummaries)") }
        XCTAssertEqual(issuer, chain.intermediate.certificate.displayName)
        XCTAssertEqual(evidence.count, 1, "\(evidence)")
    }

    func testACRLFromAnotherIssuerDoesNotApply() throws {
        let chain = try TestPKI.chain()
        let stranger = try TestPKI.root("Another CA")
        let e = try evaluateWith(chain, [try crl(stranger, revoking: [chain.leaf.certificate])])
        XCTAssertTrue(e.verdict.trusted)
    }

    func testUnusableCRLsFailUnderWebPKIAndAreIgnoredUnderApple() throws {
        let chain = try TestPKI.chain()
        let forged = TestPKI.Chain(
            root: chain.root,
            intermediate: Issued(certificate: chain.intermediate.certificate, key: try KeyPair.generate(.ecP256)),
            leaf: chain.leaf)
        let cases: [(RevocationList, String)] = [
            (try crl(chain.intermediate, nextUpdate: TestPKI.now - .days(1)), "has passed"),
            (try crl(chain.intermediate, thisUpdate: TestPKI.now + .days(1)), "after the evaluation time"),
            (try crl(chain.intermediate, crlNumber: nil), "no cRLNumber"),
            (try crl(forged.intermediate, revoking: [chain.leaf.certificate]), "signature does not verify"),
        ]
        for (list, why) in cases {
            let apple = try evaluateWith(chain, [list])
            XCTAssertTrue(apple.verdict.trusted, why)
            guard
                case .revocationNotChecked(let reason, _)? = apple.step(.revocation, 0)?.finding.as(
                    RevocationFinding.self)
            else {
                return XCTFail("\(why): \(apple.stepSummaries)")
            }
            XCTAssertTrue(reason.contains(why), reason)
            let web = try evaluateWith(chain, [list], profile: .webpki)
            XCTAssertEqual(web.failureSummaries, ["revocation@0:failed(-67603)"], why)
        }
    }

    func testNoRevocationStepWithoutCRLs() throws {
        let chain = try TestPKI.chain()
        XCTAssertFalse(try evaluateWith(chain, []).steps.contains { $0.id == .revocation })
    }
}
