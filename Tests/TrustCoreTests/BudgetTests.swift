import SuiteFixtures
import TrustBuilder
import XCTest

@testable import PathRules
@testable import TrustCore
@testable import TrustReport
@testable import TrustX509

/// One budget bounds an evaluation's work (docs/steps.md, `budget`): the shapes that made
/// verifiers hang end with a not-trusted verdict naming the budget that ran out. Small versions
/// with lowered limits; the full-size ones are in scripts/slow-shapes.sh.
final class BudgetTests: XCTestCase {
    /// Settings with no anchor under `profile`, with `limits`.
    func settings(_ limits: EvaluationLimits, profile: RuleProfile = .apple) -> TrustSettings {
        var s = TestPKI.ssl("host0.example")
        s.profile = profile
        s.limits = limits
        return s
    }

    /// Asserts the evaluation ended on `budget`: not trusted, the budget step decisive with
    /// Apple's chain-building failure (D35), the pin step skipped.
    func assertBudgetVerdict(
        _ e: Evaluation, _ budget: BudgetKind, limit: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        let step = e.steps.first { $0.id == .budget }
        XCTAssertEqual(
            step?.finding.as(BudgetFinding.self), .budgetExhausted(budget: budget, limit: limit), file: file, line: line
        )
        XCTAssertEqual(step?.status, .failed, file: file, line: line)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .budget, file: file, line: line)
        XCTAssertFalse(e.verdict.trusted, file: file, line: line)
        XCTAssertEqual(e.verdict.osstatus, -25318, file: file, line: line)
        XCTAssertEqual(e.steps.last?.id, .pin, file: file, line: line)
        XCTAssertEqual(step?.appleFailure?.check, "MissingIntermediate", file: file, line: line)
    }

    func testNameConstraintComparisonsAreSummedOverPathsUnderTheAppleProfile() throws {
        // 2 x 2 cross-signed CAs: 4 paths, each comparing (leaf subject + 20 SANs) and the lower
        // CA's subject with 20 subtrees: 22 x 20 = 440 per path, so a limit of 1,000 lets two
        // paths through and stops the third.
        let chain = try PathologicalShapes.nameConstraintMesh(sans: 20, subtrees: 20, width: 2)
        let limits = EvaluationLimits(nameConstraintComparisons: 1_000)
        let e = try XCTUnwrap(Evaluator().evaluate(chain: chain, settings: settings(limits)))
        assertBudgetVerdict(e, .nameConstraintComparisons, limit: 1_000)
        XCTAssertEqual(e.candidatePaths, 3)
        XCTAssertEqual(
            e.step(.nameConstraints, nil)?.status,
            .skipped("the evaluation's budget ran out before these names were compared"))
    }

    func testNameConstraintComparisonsAreBoundedUnderTheWebPKIProfileToo() throws {
        let chain = try PathologicalShapes.nameConstraintMesh(sans: 20, subtrees: 20, width: 2)
        let limits = EvaluationLimits(nameConstraintComparisons: 1_000)
        let e = try XCTUnwrap(Evaluator().evaluate(chain: chain, settings: settings(limits, profile: .webpki)))
        assertBudgetVerdict(e, .nameConstraintComparisons, limit: 1_000)
    }

    func testTheSameMeshWithinTheDefaultsChecksEveryPath() throws {
        // The control: nothing runs out, and the verdict is the chain's own (no anchor).
        let chain = try PathologicalShapes.nameConstraintMesh(sans: 20, subtrees: 20, width: 2)
        let e = try XCTUnwrap(Evaluator().evaluate(chain: chain, settings: settings(.standard)))
        XCTAssertNil(e.steps.first { $0.id == .budget })
        XCTAssertEqual(e.candidatePaths, 4)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .chain)
        XCTAssertEqual(e.step(.nameConstraints, 0)?.status, .passed)
    }

    func testCandidatePathsAreBounded() throws {
        let chain = try PathologicalShapes.nameConstraintMesh(sans: 1, subtrees: 1, width: 3)
        let e = try XCTUnwrap(Evaluator().evaluate(chain: chain, settings: settings(EvaluationLimits(paths: 4))))
        assertBudgetVerdict(e, .paths, limit: 4)
        XCTAssertEqual(e.candidatePaths, 4)
    }

    func testFailedSignatureChecksAreCharged() throws {
        // 3 intermediates, each sending path building through 6 same-name candidates whose
        // signatures cannot verify: 3 + 3 x 6 checks, more than 12.
        let chain = try PathologicalShapes.signatureFlood(valid: 3, bogus: 6, modulusBits: 2048, exponentBits: 17)
        let e = try XCTUnwrap(
            Evaluator().evaluate(chain: chain, settings: settings(EvaluationLimits(signatureChecks: 12))))
        assertBudgetVerdict(e, .signatureChecks, limit: 12)
        // The path reported is the first complete one, with every candidate it discarded.
        XCTAssertEqual(e.path.certificates.count, 2)
        XCTAssertEqual(e.path.rejected.count, 6)
    }

    func testAWarmCacheGivesTheSameBudgetVerdict() throws {
        let chain = try PathologicalShapes.signatureFlood(valid: 3, bogus: 6, modulusBits: 2048, exponentBits: 17)
        let evaluator = Evaluator()
        let s = settings(EvaluationLimits(signatureChecks: 12))
        let cold = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: s))
        let warm = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: s))
        XCTAssertEqual(cold.steps, warm.steps)
        XCTAssertEqual(cold.verdict, warm.verdict)
    }

    func testCandidateIssuersAreBounded() throws {
        let chain = try PathologicalShapes.signatureFlood(valid: 2, bogus: 8, modulusBits: 2048, exponentBits: 17)
        let e = try XCTUnwrap(
            Evaluator().evaluate(chain: chain, settings: settings(EvaluationLimits(candidateIssuers: 5))))
        assertBudgetVerdict(e, .candidateIssuers, limit: 5)
    }

    func testHugeRSAExponentsAreRefusedWithoutVerifying() throws {
        // Intermediates RSA-signed; their issuer's only candidates carry 3,070-bit exponents.
        let chain = try PathologicalShapes.signatureFlood(valid: 1, bogus: 3)
        let evaluator = Evaluator()
        let e = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: settings(.standard)))
        // Only leaf -> intermediate was verified; the three candidates never reached OpenSSL.
        XCTAssertEqual(evaluator.cache.verificationCount, 1)
        let refused = e.steps.filter {
            if case .signatureKeyRefused(let reason)? = $0.finding.as(ChainFinding.self) {
                reason.contains("3070 bits, over 2^32")
            } else {
                false
            }
        }
        XCTAssertEqual(refused.count, 3)
        XCTAssertEqual(e.path.rejected.map(\.reason).count, 3)
        XCTAssertNil(e.steps.first { $0.id == .budget })
    }

    func testRSAExponentWithNonMinimalDERLengthIsRefusedWithoutVerifying() throws {
        // The shape of the huge-exponent flood, each candidate's exponent length written
        // `83 00 01 80`: unreadable to the strict reader, it used to reach OpenSSL, which read
        // the 3,070-bit exponent and did a private-key-sized operation per candidate.
        let chain = try PathologicalShapes.signatureFlood(valid: 1, bogus: 3, nonMinimalExponentLength: true)
        let evaluator = Evaluator()
        let e = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: settings(.standard)))
        XCTAssertEqual(evaluator.cache.verificationCount, 1)
        let refused = e.steps.filter {
            if case .signatureKeyRefused(let reason)? = $0.finding.as(ChainFinding.self) {
                reason.contains("not a DER RSAPublicKey")
            } else {
                false
            }
        }
        XCTAssertEqual(refused.count, 3)
    }

    func testACAKeyWithANonMinimalDERExponentLengthIsNotTrusted() throws {
        // A real CA key (e = 65537) whose exponent length is written `83 00 00 03`: OpenSSL reads
        // the key and the leaf's signature verifies, but Apple's DER parser refuses the key.
        let key = try TestPKI.sharedKey(.rsa(bits: 2048))
        func anchor(_ spki: [UInt8]) throws -> Certificate {
            var b = CertificateBuilder(
                subject: TestPKI.name("Lax Root"), subjectPublicKeyInfo: spki, notBefore: TestPKI.now - .days(10),
                notAfter: TestPKI.now + .days(1000))
            b.basicConstraints = .init(isCA: true)
            b.keyUsage = .init([.keyCertSign, .cRLSign])
            return try b.sign(issuerKey: key, issuerName: TestPKI.name("Lax Root"), issuerKeyIdentifier: nil)
        }
        let strict = try anchor(key.spkiDER)
        let lax = try anchor(try PathologicalShapes.withNonMinimalExponentLength(key.spkiDER))
        let leaf = try TestPKI.leaf(issuer: Issued(certificate: strict, key: key)) {
            $0.authorityKeyIdentifier = .omitted
        }
        // The same key in DER: trusted, so only the encoding differs.
        let good = try XCTUnwrap(
            Evaluator().evaluate(chain: [leaf.certificate], settings: TestPKI.ssl(anchors: [strict])))
        XCTAssertTrue(good.verdict.trusted, "\(good.failures)")
        let evaluator = Evaluator()
        let e = try XCTUnwrap(evaluator.evaluate(chain: [leaf.certificate], settings: TestPKI.ssl(anchors: [lax])))
        XCTAssertFalse(e.verdict.trusted)
        XCTAssertEqual(evaluator.cache.verificationCount, 0)
    }

    func testTheStoreComparisonEndsByTheRunsDeadlineAndSaysSo() throws {
        // Under a spent deadline the other store's evaluation would end in a budget verdict, which
        // is no store's answer: the comparison says it was skipped instead of "not trusted".
        let c = try TestPKI.chain()
        let e = try XCTUnwrap(
            Evaluator().evaluate(chain: c.presented, settings: TestPKI.ssl(system: [c.root.certificate])))
        let spent = EvaluationDeadline(at: ContinuousClock.now - .seconds(1), allowance: .milliseconds(900))
        let comparison = try XCTUnwrap(
            StoreComparison.compare(
                e, stores: [AppleRootStore.shared, TestStore(roots: [c.root.certificate])], evaluator: Evaluator(),
                deadline: spent))
        let text = ReportFormatting.trustedBy(comparison)
        XCTAssertFalse(text.contains("not trusted"), text)
        XCTAssertTrue(text.contains("not compared"), text)
    }

    func testAnRSAExponentOf2To32IsStillVerified() throws {
        // The bound is "over 2^32": 2^32 + 1 is refused, 2^32 - 1 (33 and 32 bits) is not.
        let over = PathologicalShapes.bogusRSAKey(modulusBits: 2048, exponentBits: 34)
        let key = try Certificate(
            der: try PathologicalShapes.candidate(
                named: TestPKI.name("x"), spki: over, signer: TestPKI.sharedKey(.ecP256)
            ).der
        ).publicKey
        XCTAssertNotNil(SignatureVerifier.refusal(ofRSAKey: key))
        let within = PathologicalShapes.bogusRSAKey(modulusBits: 2048, exponentBits: 32)
        let key2 = try PathologicalShapes.candidate(
            named: TestPKI.name("x"), spki: within, signer: TestPKI.sharedKey(.ecP256)
        ).publicKey
        XCTAssertNil(SignatureVerifier.refusal(ofRSAKey: key2))
    }

    func testRSAModuliBeyondAppleLimitAreRefused() throws {
        // SecRSAKey.c refuses PKCS#1 public keys whose modulus needs more than 8192 bits.
        let signer = try TestPKI.sharedKey(.ecP256)
        let big = try PathologicalShapes.candidate(
            named: TestPKI.name("x"), spki: PathologicalShapes.bogusRSAKey(modulusBits: 8200, exponentBits: 17),
            signer: signer)
        XCTAssertEqual(big.publicKey.bits, 8200)
        let reason = try XCTUnwrap(SignatureVerifier.refusal(ofRSAKey: big.publicKey))
        XCTAssertTrue(reason.contains("8200 bits, more than the 8192"), reason)
        let largest = try PathologicalShapes.candidate(
            named: TestPKI.name("x"), spki: PathologicalShapes.bogusRSAKey(modulusBits: 8192, exponentBits: 17),
            signer: signer)
        XCTAssertNil(SignatureVerifier.refusal(ofRSAKey: largest.publicKey))
    }

    func testAPassedDeadlineEndsTheEvaluation() throws {
        let c = try TestPKI.chain()
        let deadline = EvaluationDeadline(at: ContinuousClock.now, allowance: .milliseconds(1500))
        let e = try XCTUnwrap(
            Evaluator().evaluate(
                chain: c.presented, settings: TestPKI.ssl(anchors: [c.root.certificate]), deadline: deadline))
        assertBudgetVerdict(e, .time, limit: 1500)
        XCTAssertEqual(e.steps.first { $0.id == .budget }?.title, "Evaluation stopped at its 1.5 s deadline")
    }

    func testADistantDeadlineChangesNothing() throws {
        let c = try TestPKI.chain()
        let s = TestPKI.ssl(anchors: [c.root.certificate])
        let e = try XCTUnwrap(
            Evaluator().evaluate(chain: c.presented, settings: s, deadline: EvaluationDeadline(after: .seconds(60))))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertEqual(e.steps, try evaluate(c.presented, s).steps)
    }

    func testTheBudgetStepAppearsInTheJSONAndTextReports() throws {
        let chain = try PathologicalShapes.nameConstraintMesh(sans: 1, subtrees: 1, width: 3)
        let e = try XCTUnwrap(Evaluator().evaluate(chain: chain, settings: settings(EvaluationLimits(paths: 2))))
        let json = JSONReport.render(e)
        XCTAssertTrue(json.contains("\"id\": \"budget\""), json)
        XCTAssertTrue(json.contains("Evaluation stopped: more than 2 candidate paths"))
        let text = TextReport.render(e)
        XCTAssertTrue(text.contains("Evaluation stopped: more than 2 candidate paths"), text)
    }
}

/// The allocation-free dNSName comparison follows RFC 5280 4.2.1.10 as the string one does.
final class DNSConstraintMatchingTests: XCTestCase {
    func testDNSNameSubtreesMatchWithoutRegardToASCIICase() {
        // "any DNS name that can be constructed by simply adding zero or more labels to the
        // left-hand side of the name satisfies the name constraint"; comparison is case-insensitive.
        let cases: [(String, String, Bool)] = [
            ("WWW.Example.COM", "example.com", true),
            ("example.com", "EXAMPLE.COM", true),
            ("example.com.", "example.com", true),
            ("badexample.com", "example.com", false),
            ("example.com", "www.example.com", false),
            // A leading dot (a common extension): below the domain only.
            ("a.example.com", ".EXAMPLE.com", true),
            ("example.com", ".example.com", false),
            ("anything.test", "", true),
            ("", "example.com", false),
        ]
        for (name, base, expected) in cases {
            XCTAssertEqual(NameConstraintMatcher.dnsWithinIgnoringCase(name, base), expected, "\(name) within \(base)")
        }
    }
}
