import SuiteFixtures
import TrustReport
import XCTest

@testable import TrustCore

/// What a toggle changed: the explorer highlights these after every settings change.
final class EvaluationDiffTests: XCTestCase {
    func testSwitchingToAWrongHostChangesOnlyTheHostnameStepAndTheVerdict() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root)
        let host = try XCTUnwrap(leaf.certificate.dnsNames.first)
        let evaluator = Evaluator()
        let good = try XCTUnwrap(
            evaluator.evaluate(chain: [leaf.certificate], settings: TestPKI.ssl(host, anchors: [root.certificate])))
        let wrong = try XCTUnwrap(
            evaluator.evaluate(
                chain: [leaf.certificate], settings: TestPKI.ssl("other.example", anchors: [root.certificate])))
        let diff = EvaluationDiff(from: good, to: wrong)
        XCTAssertEqual(diff.changes.map(\.summary), ["hostname@0: passed -> failed"])
        XCTAssertFalse(diff.pathChanged)
        XCTAssertEqual(diff.verdict?.before.trusted, true)
        XCTAssertEqual(diff.verdict?.after.osstatus, -67602)
    }

    func testTheSameSettingsTwiceChangeNothing() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root)
        let settings = TestPKI.ssl(anchors: [root.certificate])
        let evaluator = Evaluator()
        let a = try XCTUnwrap(evaluator.evaluate(chain: [leaf.certificate], settings: settings))
        let b = try XCTUnwrap(evaluator.evaluate(chain: [leaf.certificate], settings: settings))
        XCTAssertTrue(EvaluationDiff(from: a, to: b).isEmpty)
    }

    func testSwitchingToBasicX509SkipsTheSSLOnlySteps() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root)
        let evaluator = Evaluator()
        let ssl = try XCTUnwrap(
            evaluator.evaluate(
                chain: [leaf.certificate], settings: TestPKI.ssl("other.example", anchors: [root.certificate])))
        var basicSettings = TestPKI.ssl(anchors: [root.certificate])
        basicSettings.policy = .basicX509
        let basic = try XCTUnwrap(evaluator.evaluate(chain: [leaf.certificate], settings: basicSettings))
        let diff = EvaluationDiff(from: ssl, to: basic)
        // docs/steps.md: Basic X.509 has no hostname, EKU, lifetime or CT checks.
        XCTAssertEqual(
            Set(diff.changes.map(\.summary)),
            [
                "hostname@0: failed -> skipped", "extended-key-usage@0: passed -> skipped",
                "validity-period-maximum@0: passed -> skipped", "certificate-transparency@0: not-applicable -> skipped",
            ])
        XCTAssertEqual(diff.verdict?.after.trusted, true)
        // The toggle re-verified nothing: both signatures came from the cache.
        XCTAssertEqual(evaluator.cache.verificationCount, 1)
    }
}

extension EvaluationDiffTests {
    func testAChangeOfReasonAloneNamesTheNewReason() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root)
        let evaluator = Evaluator()
        let noHost = try XCTUnwrap(
            evaluator.evaluate(chain: [leaf.certificate], settings: TestPKI.ssl(nil, anchors: [root.certificate])))
        var basicSettings = TestPKI.ssl(nil, anchors: [root.certificate])
        basicSettings.policy = .basicX509
        let basic = try XCTUnwrap(evaluator.evaluate(chain: [leaf.certificate], settings: basicSettings))
        let summaries = EvaluationDiff(from: noHost, to: basic).changes.map(\.summary)
        XCTAssertTrue(summaries.contains("hostname@0: skipped (Basic X.509 does not check host names)"), "\(summaries)")
    }
}
