import SuiteFixtures
import XCTest

@testable import TrustCore

/// The whole step sequence of each policy, every step id in order with its status, on a trusted
/// chain and on one failing chain (the leaf expired): a check dropped from, added to or moved in
/// a policy's list fails here even when every verdict stays the same. The expected lists are
/// written from docs/steps.md: the report order at its top, each section's **On:** line (which
/// certificates a step covers) and its findings' statuses under each policy and profile.
final class StepSequenceTests: XCTestCase {
    /// Root (2), intermediate (1) and leaf (0), anchored at the root as a custom anchor.
    func chain() throws -> TestPKI.Chain { try TestPKI.chain() }

    /// The evaluation time at which the leaf (one year) has expired and its issuers (longer) have
    /// not: `validity` fails on the leaf alone, -67818.
    static let leafExpired = TestPKI.now + .days(400)

    /// The steps every policy shares up to `extended-key-usage`, for a three-certificate path to
    /// a custom anchor, with `validity` of the leaf as given.
    static func pathSteps(leafValidity: String) -> [String] {
        [
            // `chain` is path-level when it passes; `signature` on every certificate but the last,
            // which is not-applicable when it is a self-signed anchor; `anchor` on the last.
            "chain@-:passed",
            "signature@0:passed", "signature@1:passed", "signature@2:not-applicable",
            "anchor@2:passed",
            // `validity`: every certificate, the anchor too.
            "validity@0:\(leafValidity)", "validity@1:passed", "validity@2:passed",
            // `basic-constraints`: every certificate; a leaf that is no CA is `leafNeedsNoCA`.
            "basic-constraints@0:not-applicable", "basic-constraints@1:passed", "basic-constraints@2:passed",
            // `key-usage`: every certificate.
            "key-usage@0:passed", "key-usage@1:passed", "key-usage@2:passed",
        ]
    }

    /// From `name-constraints` to `compliance`: the same under every policy for this path (no
    /// nameConstraints anywhere: one path-level step; `certificate-policies` path-level when it
    /// passes; `critical-extensions` and `compliance` on every certificate, in turn).
    static let extensionSteps = [
        "name-constraints@-:not-applicable", "certificate-policies@-:passed",
        "critical-extensions@0:passed", "compliance@0:passed",
        "critical-extensions@1:passed", "compliance@1:passed",
        "critical-extensions@2:passed", "compliance@2:passed",
    ]

    /// `key-size` (every certificate, anchor included) and `signature-algorithm` (every certificate).
    static let keySteps = [
        "key-size@0:passed", "key-size@1:passed", "key-size@2:passed",
        "signature-algorithm@0:passed", "signature-algorithm@1:passed", "signature-algorithm@2:passed",
    ]

    /// Apple's SSL policy with a host: `extended-key-usage` on the leaf (the intermediate carries
    /// none), `hostname` on the leaf, `validity-period-maximum` on the leaf (SSL only),
    /// `certificate-transparency` not-applicable to a custom anchor's path, and `pin` last,
    /// not-applicable with no pins. No `revocation` (no CRL or OCSP response), no
    /// `system-pinning` (a host Apple does not pin), no `pinned-domains` (no ATS).
    static func appleSSL(leafValidity: String) -> [String] {
        pathSteps(leafValidity: leafValidity) + ["extended-key-usage@0:passed"] + extensionSteps
            + ["hostname@0:passed"] + keySteps
            + ["validity-period-maximum@0:passed", "certificate-transparency@0:not-applicable", "pin@-:not-applicable"]
    }

    /// Apple's Basic X.509 policy: EKU, the host and the lifetime maximum are not checked
    /// (`ekuNotChecked`, `hostNotChecked`, skipped), and only the SSL policy requires CT
    /// (`ctNotRequired`, skipped under Basic X.509).
    static func appleBasic(leafValidity: String) -> [String] {
        pathSteps(leafValidity: leafValidity) + ["extended-key-usage@0:skipped"] + extensionSteps
            + ["hostname@0:skipped"] + keySteps
            + ["validity-period-maximum@0:skipped", "certificate-transparency@0:skipped", "pin@-:not-applicable"]
    }

    /// The webpki profile under the SSL policy with the CA/Browser Forum rules (the default): as
    /// Apple's SSL policy, but CT is computed and never enforced (skipped).
    static func webpkiSSL(leafValidity: String) -> [String] {
        pathSteps(leafValidity: leafValidity) + ["extended-key-usage@0:passed"] + extensionSteps
            + ["hostname@0:passed"] + keySteps
            + ["validity-period-maximum@0:passed", "certificate-transparency@0:skipped", "pin@-:not-applicable"]
    }

    func testAppleSSLStepsOnATrustedChain() throws {
        let c = try chain()
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate]))
        XCTAssertEqual(e.stepSummaries, Self.appleSSL(leafValidity: "passed"))
        XCTAssertTrue(e.verdict.trusted)
    }

    func testAppleSSLStepsWhenTheLeafExpired() throws {
        let c = try chain()
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate], time: Self.leafExpired))
        XCTAssertEqual(e.stepSummaries, Self.appleSSL(leafValidity: "failed(-67818)"))
        XCTAssertEqual(e.verdict.osstatus, -67818)
    }

    func testBasicX509StepsOnATrustedChain() throws {
        let c = try chain()
        let e = try evaluate(c.presented, TestPKI.basic(anchors: [c.root.certificate]))
        XCTAssertEqual(e.stepSummaries, Self.appleBasic(leafValidity: "passed"))
        XCTAssertTrue(e.verdict.trusted)
    }

    func testBasicX509StepsWhenTheLeafExpired() throws {
        let c = try chain()
        let e = try evaluate(c.presented, TestPKI.basic(anchors: [c.root.certificate], time: Self.leafExpired))
        XCTAssertEqual(e.stepSummaries, Self.appleBasic(leafValidity: "failed(-67818)"))
        XCTAssertEqual(e.verdict.osstatus, -67818)
    }

    func testWebPKIStepsOnATrustedChain() throws {
        let c = try chain()
        let e = try webpki(c.presented, anchor: c.root.certificate)
        XCTAssertEqual(e.stepSummaries, Self.webpkiSSL(leafValidity: "passed"))
        XCTAssertTrue(e.verdict.trusted)
    }

    func testWebPKIStepsWhenTheLeafExpired() throws {
        let c = try chain()
        var s = TestPKI.ssl(anchors: [c.root.certificate], time: Self.leafExpired)
        s.profile = .webpki
        let e = try evaluate(c.presented, s)
        XCTAssertEqual(e.stepSummaries, Self.webpkiSSL(leafValidity: "failed(-67818)"))
        XCTAssertEqual(e.verdict.osstatus, -67818)
    }

    /// Every step id a policy can produce on this path appears in its list, so the lists above
    /// cover each configured check: the ids the policy's checks make, less those that need input
    /// this path lacks (revocation information, pins, ATS, a pinned host, a spent budget).
    func testTheListsNameEveryCheckThePoliciesRun() {
        let needInput: Set<StepID> = [
            .revocation, .budget, .atsTLSVersion, .atsCipher, .atsForwardSecrecy, .atsKeySize, .atsSignatureHash,
            .pinnedDomains, .systemPinning,
        ]
        let expected = Set(StepID.allCases).subtracting(needInput).map(\.rawValue).sorted()
        for list in [Self.appleSSL, Self.appleBasic, Self.webpkiSSL].map({ $0("passed") }) {
            let ids = Set(list.map { String($0.prefix { $0 != "@" }) })
            XCTAssertEqual(ids.sorted(), expected)
        }
    }
}
