import SuiteFixtures
import XCTest

@testable import PathRules
@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// RFC 5280 6.1 policy processing with Apple's inputs (user-initial-policy-set {anyPolicy},
/// explicit policy not required, mapping and anyPolicy allowed), as trustd runs it for every
/// policy (SecCertificatePathVCVerifyPolicyTree): a rejected path is Apple's PolicyConstraints
/// check on the leaf, errSecInvalidPolicyIdentifiers (-67835). Where the outcome depends on skip
/// counts, openssl's own RFC 5280 implementation (`verify -policy_check`) is asked too.
final class CertificatePolicyTests: XCTestCase {
    typealias Raw = CertificateBuilder.RawExtension
    let p1 = OID(dotted: "2.16.840.1.101.3.2.1.48.1")!
    let p2 = OID(dotted: "2.16.840.1.101.3.2.1.48.2")!

    /// root -> each intermediate in `intermediates` (top first) -> leaf, anchored at the root.
    struct Built {
        var root: Issued
        var intermediates: [Issued]
        var leaf: Issued
        var chain: [Certificate] { [leaf.certificate] + intermediates.reversed().map(\.certificate) }
    }

    func build(_ intermediates: [[Raw]], leaf: [Raw]) throws -> Built {
        let root = try TestPKI.root()
        var issuer = root
        var ints: [Issued] = []
        for (k, extensions) in intermediates.enumerated() {
            issuer = try TestPKI.intermediate("Policy CA \(k + 1)", issuer: issuer) { $0.rawExtensions = extensions }
            ints.append(issuer)
        }
        let l = try TestPKI.leaf(issuer: issuer) { $0.rawExtensions = leaf }
        return Built(root: root, intermediates: ints, leaf: l)
    }

    func evaluateBuilt(_ b: Built, profile: RuleProfile = .apple) throws -> Evaluation {
        var settings = TestPKI.ssl(anchors: [b.root.certificate])
        settings.profile = profile
        return try evaluate(b.chain, settings)
    }

    /// openssl verify -policy_check with anyPolicy as the user's policy set, on the same chain:
    /// true when openssl accepts it.
    func opensslAccepts(_ b: Built) throws -> Bool {
        let dir = try TemporaryDirectory()
        let root = try dir.writePEM("root.pem", [b.root.certificate])
        let untrusted = try dir.writePEM("untrusted.pem", b.intermediates.map(\.certificate))
        let leaf = try dir.writePEM("leaf.pem", [b.leaf.certificate])
        let r = try Shell.run(
            "openssl verify -policy_check -policy 2.5.29.32.0 -attime \(TestPKI.now.secondsSinceEpoch) -CAfile \(root) -untrusted \(untrusted) \(leaf)"
        )
        return r.status == 0
    }

    // MARK: - Without policy constraints

    func testNoPoliciesAnywhereIsAcceptedWithAnEmptyPolicySet() throws {
        // RFC 5280 6.1.3 (e) empties the tree, and (f) allows that while explicit_policy > 0.
        let b = try build([[]], leaf: [])
        let e = try evaluateBuilt(b)
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.certificatePolicies, nil)?.finding.as(CertificatePoliciesFinding.self), .policySet(policies: []))
    }

    func testCommonPolicyIsTheResultingSet() throws {
        // RFC 5280 6.1.3 (d)(1): P1 under anyPolicy, then P1 under P1; P2 has no parent expecting it.
        let b = try build([[.certificatePolicies([p1, p2])]], leaf: [.certificatePolicies([p1])])
        let e = try evaluateBuilt(b)
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.certificatePolicies, nil)?.finding.as(CertificatePoliciesFinding.self),
            .policySet(policies: [p1.dotted]))
    }

    func testAnyPolicyOnTheIntermediateCarriesTheLeafsPolicy() throws {
        // RFC 5280 6.1.3 (d)(2) then (d)(1)(ii).
        let b = try build([[.certificatePolicies([.anyPolicy])]], leaf: [.certificatePolicies([p2])])
        let e = try evaluateBuilt(b)
        XCTAssertEqual(
            e.step(.certificatePolicies, nil)?.finding.as(CertificatePoliciesFinding.self),
            .policySet(policies: [p2.dotted]))
    }

    // MARK: - requireExplicitPolicy (RFC 5280 4.2.1.11, 6.1.4 (i), 6.1.5 (a)-(b))

    func testRequireExplicitPolicyZeroWithoutPoliciesFailsWithApplesPolicyConstraints() throws {
        let b = try build([[.policyConstraints(requireExplicitPolicy: 0)]], leaf: [])
        let e = try evaluateBuilt(b)
        XCTAssertEqual(e.failureSummaries, ["certificate-policies@0:failed(-67835)"])
        XCTAssertEqual(
            e.step(.certificatePolicies, 0)?.finding.as(CertificatePoliciesFinding.self),
            .policyFailed(.explicitPolicyRequired(certificate: 0)))
        XCTAssertEqual(e.verdict.decisiveStep?.appleFailure?.check, "PolicyConstraints")
        assertVerdict(e, trusted: false, osstatus: -67835, urlError: -999)
        XCTAssertEqual(e.verdict.osstatusName, "errSecInvalidPolicyIdentifiers")
        XCTAssertFalse(try opensslAccepts(b))
    }

    func testRequireExplicitPolicyFailsUnderBasicX509Too() throws {
        // trustd runs policy processing in basic certificate processing, for every policy.
        let b = try build([[.policyConstraints(requireExplicitPolicy: 0)]], leaf: [])
        let e = try evaluate(b.chain, TestPKI.basic(anchors: [b.root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["certificate-policies@0:failed(-67835)"])
    }

    func testRequireExplicitPolicyIsMetByACommonPolicy() throws {
        let b = try build(
            [[.policyConstraints(requireExplicitPolicy: 0), .certificatePolicies([p1])]],
            leaf: [.certificatePolicies([p1])])
        let e = try evaluateBuilt(b)
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.certificatePolicies, nil)?.finding.as(CertificatePoliciesFinding.self),
            .policySet(policies: [p1.dotted]))
        XCTAssertTrue(try opensslAccepts(b))
    }

    func testRequireExplicitPolicyIsNotMetByADifferentLeafPolicy() throws {
        let b = try build(
            [[.policyConstraints(requireExplicitPolicy: 0), .certificatePolicies([p1])]],
            leaf: [.certificatePolicies([p2])])
        let e = try evaluateBuilt(b)
        XCTAssertEqual(e.failureSummaries, ["certificate-policies@0:failed(-67835)"])
        XCTAssertFalse(try opensslAccepts(b))
    }

    func testRequireExplicitPolicySkipCounts() throws {
        // CA 1 asserts P1 and requireExplicitPolicy = k; CA 2 and the leaf assert nothing, so
        // the tree is empty from CA 2 on. 6.1.4 (h) counts CA 2 and 6.1.5 (a) the leaf: k = 0
        // runs out at CA 2, 1 at the leaf, 2 at the wrap-up, 3 never.
        for (skip, accepted) in [(0, false), (1, false), (2, false), (3, true)] {
            let b = try build(
                [[.certificatePolicies([p1]), .policyConstraints(requireExplicitPolicy: skip)], []], leaf: [])
            let e = try evaluateBuilt(b)
            XCTAssertEqual(e.verdict.trusted, accepted, "requireExplicitPolicy \(skip): \(e.failureSummaries)")
            XCTAssertEqual(try opensslAccepts(b), accepted, "openssl, requireExplicitPolicy \(skip)")
        }
    }

    func testLeafsOwnRequireExplicitPolicyZeroApplies() throws {
        // RFC 5280 6.1.5 (b): the leaf's own policyConstraints with requireExplicitPolicy 0.
        let b = try build([[]], leaf: [.policyConstraints(requireExplicitPolicy: 0)])
        let e = try evaluateBuilt(b)
        XCTAssertEqual(e.failureSummaries, ["certificate-policies@0:failed(-67835)"])
    }

    // MARK: - Mapping (RFC 5280 4.2.1.5, 6.1.4 (a)-(b))

    func testMappedPolicyReachesTheLeaf() throws {
        let b = try build(
            [
                [.certificatePolicies([p1]), .policyConstraints(requireExplicitPolicy: 0)],
                [.certificatePolicies([p1]), .policyMappings([(p1, p2)])],
            ], leaf: [.certificatePolicies([p2])])
        let e = try evaluateBuilt(b)
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.certificatePolicies, nil)?.finding.as(CertificatePoliciesFinding.self),
            .policySet(policies: [p2.dotted]))
        XCTAssertTrue(try opensslAccepts(b))
    }

    func testInhibitPolicyMappingDeletesTheMappedPolicy() throws {
        let b = try build(
            [
                [
                    .certificatePolicies([p1]),
                    .policyConstraints(requireExplicitPolicy: 0, inhibitPolicyMapping: 0),
                ],
                [.certificatePolicies([p1]), .policyMappings([(p1, p2)])],
            ], leaf: [.certificatePolicies([p2])])
        let e = try evaluateBuilt(b)
        XCTAssertEqual(e.failureSummaries, ["certificate-policies@0:failed(-67835)"])
        XCTAssertFalse(try opensslAccepts(b))
    }

    func testMappingAnyPolicyIsRejected() throws {
        // RFC 5280 6.1.4 (a); trustd rejects the path.
        let b = try build(
            [[.certificatePolicies([p1])], [.certificatePolicies([p1]), .policyMappings([(p1, .anyPolicy)])]],
            leaf: [.certificatePolicies([p1])])
        let e = try evaluateBuilt(b)
        XCTAssertEqual(e.failureSummaries, ["certificate-policies@0:failed(-67835)"])
        XCTAssertEqual(
            e.step(.certificatePolicies, 0)?.finding.as(CertificatePoliciesFinding.self),
            .policyFailed(.anyPolicyMapped(certificate: 1)))
    }

    // MARK: - inhibitAnyPolicy (RFC 5280 4.2.1.14, 6.1.3 (d)(2), 6.1.4 (j))

    func testInhibitAnyPolicyStopsAnyPolicyBelow() throws {
        for (inhibit, accepted) in [(0, false), (1, true)] {
            let b = try build(
                [
                    [
                        .certificatePolicies([.anyPolicy]), .policyConstraints(requireExplicitPolicy: 0),
                        .inhibitAnyPolicy(inhibit),
                    ],
                    [.certificatePolicies([.anyPolicy])],
                ], leaf: [.certificatePolicies([p1])])
            let e = try evaluateBuilt(b)
            XCTAssertEqual(e.verdict.trusted, accepted, "inhibitAnyPolicy \(inhibit): \(e.failureSummaries)")
            XCTAssertEqual(try opensslAccepts(b), accepted, "openssl, inhibitAnyPolicy \(inhibit)")
        }
    }

    // MARK: - The extensions' own encoding rules

    func testNonCriticalPolicyConstraintsFailsUnderWebPKIOnly() throws {
        // RFC 5280 4.2.1.11: "Conforming CAs MUST mark this extension as critical." Apple's
        // parser reads it either way.
        let b = try build([[.policyConstraints(requireExplicitPolicy: 5, critical: false)]], leaf: [])
        XCTAssertTrue(try evaluateBuilt(b).verdict.trusted)
        let web = try evaluateBuilt(b, profile: .webpki)
        XCTAssertEqual(web.failureSummaries, ["compliance@1:failed(-67603)"])
    }

    func testEmptyPolicyConstraintsAndNonCriticalInhibitAnyPolicyFailUnderWebPKI() throws {
        // RFC 5280 4.2.1.11 (no empty sequence) and 4.2.1.14 (MUST be critical).
        let b = try build([[.policyConstraints(), .inhibitAnyPolicy(3, critical: false)]], leaf: [])
        XCTAssertTrue(try evaluateBuilt(b).verdict.trusted)
        let web = try evaluateBuilt(b, profile: .webpki)
        XCTAssertEqual(web.failureSummaries, ["compliance@1:failed(-67603)", "compliance@1:failed(-67603)"])
    }

    func testCriticalPolicyExtensionsAreUnderstood() throws {
        let b = try build(
            [[.certificatePolicies([p1], critical: true), .policyConstraints(inhibitPolicyMapping: 2)]],
            leaf: [.certificatePolicies([p1], critical: true)])
        let e = try evaluateBuilt(b)
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.criticalExtensions, 1)?.status, .passed)
    }

    // MARK: - Bounded

    func testPathologicalPoliciesEndWithAVerdict() throws {
        // The top CA asserts 1,024 policies (Apple's per-extension maximum, anyPolicy included);
        // each CA below asserts only anyPolicy, which carries all 1,024 down a level. Each level
        // costs 2,048 units of work: eight stay within the bound of 16,384, the ninth crosses it,
        // far beyond any real chain; the work bound ends it with a failing step.
        let many = (0..<1023).map { OID(dotted: "1.3.6.1.4.1.99999.\($0)")! } + [.anyPolicy]
        let levels = PolicyProcessor.maximumWork / (2 * many.count) + 1
        XCTAssertEqual(levels, 9)
        let b = try build(
            [[.certificatePolicies(many)]]
                + Array(repeating: [.certificatePolicies([.anyPolicy])], count: levels - 1), leaf: [])
        let e = try evaluateBuilt(b)
        XCTAssertEqual(
            e.step(.certificatePolicies, 0)?.finding.as(CertificatePoliciesFinding.self),
            .policyFailed(.tooLarge(limit: PolicyProcessor.maximumWork)))
        XCTAssertFalse(e.verdict.trusted)
    }
}
