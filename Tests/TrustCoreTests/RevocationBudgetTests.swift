import SuiteFixtures
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// The signatures of CRLs and OCSP responses are evaluation work like any other: charged to the
/// evaluation's budget, each (CRL or response, key) once, and remembered by the signature cache,
/// so that a pile of CRLs met on many candidate paths costs one verification each, and a pile
/// larger than the budget ends the evaluation with the `budget` step instead of holding it.
final class RevocationBudgetTests: XCTestCase {
    /// Three roots, each certifying the same intermediate name and key: three candidate paths
    /// for one leaf, every one through the same issuer key.
    struct CrossSigned {
        var roots: [Issued]
        var intermediates: [Issued]
        var leaf: Issued
        var presented: [Certificate] { [leaf.certificate] + intermediates.map(\.certificate) }
    }

    func crossSigned(paths: Int) throws -> CrossSigned {
        let key = try KeyPair.generate(.ecP256)
        let roots = try (0..<paths).map { try TestPKI.root("Test Root \($0)") }
        let intermediates = try roots.map { try TestPKI.intermediate(issuer: $0, key: key) }
        let leaf = try TestPKI.leaf(issuer: intermediates[0])
        return CrossSigned(roots: roots, intermediates: intermediates, leaf: leaf)
    }

    func crl(_ issuer: Issued, revoking: [Certificate] = [], signedBy key: KeyPair? = nil) throws -> RevocationList {
        var b = RevocationListBuilder(thisUpdate: TestPKI.now - .days(1), nextUpdate: TestPKI.now + .days(6))
        b.revoked = revoking.map { ($0.serialNumber, TestPKI.now - .days(2)) }
        return try b.sign(key: key ?? issuer.key, issuer: issuer.certificate)
    }

    func testACRLMetOnEveryCandidatePathIsVerifiedOnce() throws {
        let pki = try crossSigned(paths: 3)
        var s = TestPKI.ssl(anchors: pki.roots.map(\.certificate))
        s.revocationLists = [try crl(pki.intermediates[0], revoking: [pki.leaf.certificate])]
        let evaluator = Evaluator()
        let e = try XCTUnwrap(evaluator.evaluate(chain: pki.presented, settings: s))
        // The revoked leaf fails every path, so each of the three is built and checked.
        XCTAssertEqual(e.candidatePaths, 3)
        XCTAssertEqual(e.verdict.osstatus, -67820, "\(e.failureSummaries)")
        XCTAssertEqual(evaluator.cache.revocationVerificationCount, 1)
        // Evaluating again (a settings toggle) verifies nothing and decides the same.
        let again = try XCTUnwrap(evaluator.evaluate(chain: pki.presented, settings: s))
        XCTAssertEqual(again.verdict.osstatus, -67820)
        XCTAssertEqual(evaluator.cache.revocationVerificationCount, 1)
    }

    func testCRLSignaturesBeyondTheBudgetEndTheEvaluationWithTheBudgetStep() throws {
        let chain = try TestPKI.chain()
        // Twelve CRLs naming the intermediate, signed by another key: each costs a verification
        // and fails it. Path building spends 2 of the 8 checks; 6 CRLs fit in the rest.
        let forger = try KeyPair.generate(.ecP256)
        var s = TestPKI.ssl(anchors: [chain.root.certificate])
        s.revocationLists = try (0..<12).map { _ in try crl(chain.intermediate, signedBy: forger) }
        s.limits = EvaluationLimits(signatureChecks: 8)
        let evaluator = Evaluator()
        let e = try XCTUnwrap(evaluator.evaluate(chain: chain.presented, settings: s))
        XCTAssertEqual(e.verdict.decisiveStep?.id, .budget, "\(e.failureSummaries)")
        XCTAssertEqual(
            e.verdict.decisiveStep?.finding.as(BudgetFinding.self), .budgetExhausted(budget: .signatureChecks, limit: 8)
        )
        XCTAssertFalse(e.verdict.trusted)
        XCTAssertEqual(
            e.step(.revocation, 0)?.status,
            .skipped("the evaluation's budget ran out before its revocation was checked"))
        XCTAssertEqual(evaluator.cache.revocationVerificationCount, 6)
        // Within the budget the forged CRLs are ignored (Apple's revocation checking fails soft).
        s.limits = .standard
        let within = try XCTUnwrap(Evaluator().evaluate(chain: chain.presented, settings: s))
        XCTAssertTrue(within.verdict.trusted, "\(within.failureSummaries)")
    }

    func testAStapledResponseIsChargedToTheBudgetToo() throws {
        let chain = try TestPKI.chain()
        let staple = try OCSPResponseBuilder(
            status: .good, thisUpdate: TestPKI.now - .hours(1), nextUpdate: TestPKI.now + .days(1)
        ).sign(certificate: chain.leaf.certificate, issuer: chain.intermediate.certificate, key: chain.intermediate.key)
        var s = TestPKI.ssl(anchors: [chain.root.certificate])
        s.stapledOCSPResponse = staple
        let good = try XCTUnwrap(Evaluator().evaluate(chain: chain.presented, settings: s))
        XCTAssertTrue(good.verdict.trusted, "\(good.failureSummaries)")
        XCTAssertEqual(good.step(.revocation, 0)?.status, .passed)
        // Path building's two checks use the whole budget: the response's signature is not verified.
        s.limits = EvaluationLimits(signatureChecks: 2)
        let evaluator = Evaluator()
        let e = try XCTUnwrap(evaluator.evaluate(chain: chain.presented, settings: s))
        XCTAssertEqual(
            e.verdict.decisiveStep?.finding.as(BudgetFinding.self), .budgetExhausted(budget: .signatureChecks, limit: 2)
        )
        XCTAssertEqual(evaluator.cache.revocationVerificationCount, 0)
    }

    func testAResponderKeyThatWouldBeRefusedForACertificateIsRefusedForAResponse() throws {
        // A delegated responder whose RSA key has the exponent 2^32 + 1 (made by openssl): a
        // certificate under such a key is refused before verification, and so is a response.
        let pem = try Shell.output(
            "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -pkeyopt rsa_keygen_pubexp:4294967297 2>/dev/null"
        )
        let responderKey = try KeyPair(privateKeyPEM: pem)
        let chain = try TestPKI.chain()
        let responder = try TestPKI.leaf("OCSP Responder", issuer: chain.intermediate, key: responderKey) { b in
            b.extendedKeyUsage = .init([.ocspSigning])
        }
        let staple = try OCSPResponseBuilder(
            status: .revoked(TestPKI.now - .days(1)), thisUpdate: TestPKI.now - .hours(1),
            nextUpdate: TestPKI.now + .days(1)
        ).sign(
            certificate: chain.leaf.certificate, issuer: chain.intermediate.certificate, key: responderKey,
            responderCertificate: responder.certificate)
        var s = TestPKI.ssl(anchors: [chain.root.certificate])
        s.stapledOCSPResponse = staple
        let evaluator = Evaluator()
        let e = try XCTUnwrap(evaluator.evaluate(chain: chain.presented, settings: s))
        // Apple's revocation checking fails soft: the unusable response is ignored, and says why.
        XCTAssertTrue(e.verdict.trusted, "\(e.failureSummaries)")
        guard case .revocationNotChecked(let reason, _)? = e.step(.revocation, 0)?.finding.as(RevocationFinding.self)
        else {
            return XCTFail("\(e.stepSummaries)")
        }
        XCTAssertTrue(
            reason.contains(
                "a signer's key is refused before verifying its signature: the RSA public exponent has 33 bits"),
            reason)
        // Only the intermediate's key checked the response; the responder's key verified nothing.
        XCTAssertEqual(evaluator.cache.revocationVerificationCount, 1)
    }
}
