import SuiteFixtures
import XCTest

@testable import TrustCore
@testable import TrustX509

/// SecPolicyCreateSSL versus SecPolicyCreateBasicX509 (docs/steps.md).
final class PolicyTests: XCTestCase {
    /// A chain that breaks every SSL-only rule and no Basic one: a leaf without EKU, for the
    /// wrong host, valid for 900 days, under an RSA-1024 intermediate signed with SHA-1.
    private func sslOnlyViolations() throws -> (chain: [Certificate], root: Certificate) {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let int = try TestPKI.intermediate(issuer: root, key: TestPKI.sharedKey(.rsa(bits: 1024))) {
            $0.signatureAlgorithm = .sha1WithRSA
        }
        let leaf = try TestPKI.leaf("elsewhere.example.org", issuer: int, lifetime: .days(900)) {
            $0.extendedKeyUsage = nil
        }
        return ([leaf.certificate, int.certificate], root.certificate)
    }

    func testBasicX509SkipsHostnameEKUKeySizeSHA1AndLifetimeMaximum() throws {
        let (chain, root) = try sslOnlyViolations()
        let e = try evaluate(chain, TestPKI.basic(anchors: [root]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil, resultType: .unspecified)
        XCTAssertEqual(e.step(.hostname, 0)?.status.identifier, "skipped")
        XCTAssertEqual(e.step(.extendedKeyUsage, 0)?.status.identifier, "skipped")
        XCTAssertEqual(e.step(.validityPeriodMaximum, 0)?.status.identifier, "skipped")
        XCTAssertEqual(e.step(.keySize, 1)?.status, .passed)
        XCTAssertEqual(e.step(.signatureAlgorithm, 1)?.status, .passed)
    }

    func testSSLReportsEveryRuleBasicX509Skips() throws {
        let (chain, root) = try sslOnlyViolations()
        let e = try evaluate(chain, TestPKI.ssl(anchors: [root]))
        XCTAssertEqual(
            e.failureSummaries,
            [
                "extended-key-usage@0:failed(-67609)",
                "hostname@0:failed(-67602)",
                "key-size@1:failed(-67735)",
                "signature-algorithm@1:failed(-67815)",
                "validity-period-maximum@0:failed(-67901)",
            ])
        // KeySize outranks everything else present.
        assertVerdict(e, trusted: false, osstatus: -67735, urlError: -999, resultType: .recoverableTrustFailure)
        XCTAssertEqual(e.verdict.decisiveStep?.summary, "key-size@1:failed(-67735)")
    }

    func testSSLWithANilHostSkipsTheHostnameCheck() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.ssl(nil, anchors: [c.root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        guard case .skipped(let why)? = e.step(.hostname, 0)?.status else { return XCTFail("hostname not skipped") }
        XCTAssertTrue(why.contains("nil host"), why)
    }

    func testSSLWithANilHostAcceptsACertificateForAnyServer() throws {
        let c = try TestPKI.chain(host: "unrelated.example.net")
        let e = try evaluate(c.presented, TestPKI.ssl(nil, anchors: [c.root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testBasicX509StillChecksChainAnchorAndValidity() throws {
        let c = try TestPKI.chain()
        let noAnchor = try evaluate(c.presented + [c.root.certificate], TestPKI.basic())
        XCTAssertEqual(noAnchor.failureSummaries, ["anchor@2:failed(-67843)"])
        let missing = try evaluate([c.leaf.certificate], TestPKI.basic(anchors: [c.root.certificate]))
        XCTAssertEqual(missing.failureSummaries, ["chain@0:failed(-25318)"])
        let expired = try evaluate(
            c.presented, TestPKI.basic(anchors: [c.root.certificate], time: TestPKI.now + .days(400)))
        XCTAssertEqual(expired.failureSummaries, ["validity@0:failed(-67818)"])
    }

    func testBasicX509StepSequenceForAValidChain() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented, TestPKI.basic(anchors: [c.root.certificate]))
        XCTAssertEqual(
            e.stepSummaries,
            [
                "chain@-:passed",
                "signature@0:passed", "signature@1:passed", "signature@2:not-applicable",
                "anchor@2:passed",
                "validity@0:passed", "validity@1:passed", "validity@2:passed",
                "basic-constraints@0:not-applicable", "basic-constraints@1:passed", "basic-constraints@2:passed",
                "key-usage@0:passed", "key-usage@1:passed", "key-usage@2:passed",
                "extended-key-usage@0:skipped",
                "name-constraints@-:not-applicable", "certificate-policies@-:passed",
                "critical-extensions@0:passed", "compliance@0:passed",
                "critical-extensions@1:passed", "compliance@1:passed",
                "critical-extensions@2:passed", "compliance@2:passed",
                "hostname@0:skipped",
                "key-size@0:passed", "key-size@1:passed", "key-size@2:passed",
                "signature-algorithm@0:passed", "signature-algorithm@1:passed", "signature-algorithm@2:passed",
                "validity-period-maximum@0:skipped",
                // Only the SSL policy requires CT.
                "certificate-transparency@0:skipped", "pin@-:not-applicable",
            ])
    }

    func testPolicyNamesMatchApplesAPI() {
        XCTAssertEqual(TrustPolicy.ssl(host: "a.example").appleName, "SecPolicyCreateSSL(true, \"a.example\")")
        XCTAssertEqual(TrustPolicy.ssl(host: nil).appleName, "SecPolicyCreateSSL(true, nil)")
        XCTAssertEqual(TrustPolicy.basicX509.appleName, "SecPolicyCreateBasicX509()")
    }
}
