import SuiteFixtures
import XCTest

@testable import TrustCore

/// Apple's anchor classes: the same custom anchor set by the app (SecTrustSetAnchorCertificates) or
/// trusted on the device through a configuration profile (trustd's user anchor source). Expected
/// values follow trustd's SecPolicyServer.c: ServerAuthEKU and SignatureHashAlgorithms ask whether
/// the path's root is a user anchor, KeySize and ValidityPeriodMaximums whether the leaf is.
final class AnchorClassTests: XCTestCase {
    /// Prefix of every reason a rule gives for being skipped under a device-trusted anchor.
    let devicePrefix = "device-trusted anchor: "

    func assertSkippedForDevice(_ step: Step?, file: StaticString = #filePath, line: UInt = #line) {
        guard case .skipped(let why)? = step?.status else {
            return XCTFail("not skipped: \(String(describing: step?.summary))", file: file, line: line)
        }
        XCTAssertTrue(why.hasPrefix(devicePrefix), why, file: file, line: line)
    }

    // MARK: - serverAuth EKU (trustd asks about the root)

    /// A 397-day leaf without extKeyUsage, issued after 2019-07-01, signed by a CA.
    func leafWithoutEKU() throws -> (ca: Issued, leaf: Issued) {
        let ca = try TestPKI.root("Staging CA")
        let leaf = try TestPKI.leaf(issuer: ca, lifetime: .days(397)) { $0.extendedKeyUsage = nil }
        XCTAssertGreaterThan(leaf.certificate.notBefore, TestPKI.date(2019, 7, 1))
        return (ca, leaf)
    }

    func testLeafWithoutEKUUnderAnAppAnchorFailsTheServerAuthRule() throws {
        let (ca, leaf) = try leafWithoutEKU()
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [ca.certificate], anchorClass: .app))
        XCTAssertEqual(e.path.anchorClass, .custom)
        XCTAssertEqual(e.failureSummaries, ["extended-key-usage@0:failed(-67609)"])
        assertVerdict(e, trusted: false, osstatus: -67609, urlError: -999)
    }

    func testLeafWithoutEKUUnderADeviceAnchorIsTrusted() throws {
        let (ca, leaf) = try leafWithoutEKU()
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [ca.certificate], anchorClass: .device))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.path.anchorClass, .device)
        XCTAssertEqual(
            e.step(.anchor, 1)?.finding.as(ChainFinding.self), .anchoredAt(anchorClass: .device, name: "Staging CA"))
        XCTAssertEqual(
            e.step(.extendedKeyUsage, 0)?.finding.as(ExtendedKeyUsageFinding.self), .ekuDeviceAnchorExempt(present: []))
        assertSkippedForDevice(e.step(.extendedKeyUsage, 0))
        XCTAssertEqual(e.verdict.summary, "Trusted: www.example.com chains to Staging CA (a device-trusted anchor).")
    }

    func testDeviceRootExemptsTheLeafThroughAnIntermediate() throws {
        // ServerAuthEKU asks about the root (the last certificate), not the leaf's issuer.
        let c = try TestPKI.chain { $0.extendedKeyUsage = nil }
        let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate], anchorClass: .device))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        assertSkippedForDevice(e.step(.extendedKeyUsage, 0))
    }

    func testDeviceAnchorAcceptsAnyExtendedKeyUsageWhereTheAppAnchorDoesNot() throws {
        // The loose ExtendedKeyUsage rule accepts anyExtendedKeyUsage; only the strict rule needs
        // serverAuth itself, for app anchors on leaves issued after 2019-06-30T23:00Z.
        let ca = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: ca) { $0.extendedKeyUsage = .init([.any]) }
        let app = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [ca.certificate]))
        XCTAssertEqual(app.failureSummaries, ["extended-key-usage@0:failed(-67609)"])
        let device = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [ca.certificate], anchorClass: .device))
        assertVerdict(device, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            device.step(.extendedKeyUsage, 0)?.finding.as(ExtendedKeyUsageFinding.self),
            .ekuDeviceAnchorExempt(present: ["anyExtendedKeyUsage"]))
    }

    func testDeviceAnchorStillRejectsALeafWhoseEKUExcludesServerAuth() throws {
        // The loose rule still holds: a present extKeyUsage must allow serverAuth.
        let ca = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: ca) { $0.extendedKeyUsage = .init([.clientAuth]) }
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [ca.certificate], anchorClass: .device))
        XCTAssertEqual(e.failureSummaries, ["extended-key-usage@0:failed(-67609)"])
        // No delegate decides for a device-trusted anchor: URLSession's default handling rejects.
        assertVerdict(e, trusted: false, osstatus: -67609, urlError: -1202)
    }

    func testDeviceAnchorDoesNotLiftAnIntermediatesEKUConstraint() throws {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(issuer: root) { $0.extendedKeyUsage = .init([.clientAuth]) }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate(
            [leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate], anchorClass: .device))
        XCTAssertEqual(e.failureSummaries, ["extended-key-usage@1:failed(-67609)"])
    }

    // MARK: - Lifetime maximum (trustd asks about the leaf)

    func testSelfSigned900DayLeafAsAppAnchorIsTooLong() throws {
        let leaf = try TestPKI.selfSignedLeaf(lifetime: .days(900))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate], anchorClass: .app))
        XCTAssertEqual(e.failureSummaries, ["validity-period-maximum@0:failed(-67901)"])
        assertVerdict(e, trusted: false, osstatus: -67901, urlError: -999)
    }

    func testSelfSigned900DayLeafAsDeviceAnchorIsTrusted() throws {
        let leaf = try TestPKI.selfSignedLeaf(lifetime: .days(900))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate], anchorClass: .device))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.path.anchorClass, .device)
        XCTAssertEqual(
            e.step(.validityPeriodMaximum, 0)?.finding.as(ValidityPeriodFinding.self),
            .periodDeviceAnchorExempt(days: 900))
        assertSkippedForDevice(e.step(.validityPeriodMaximum, 0))
        XCTAssertEqual(e.step(.hostname, 0)?.status, .passed, "the host check still applies")
    }

    func testDeviceLeafAnchorStillNeedsTheHost() throws {
        let leaf = try TestPKI.selfSignedLeaf(lifetime: .days(900))
        let e = try evaluate(
            [leaf.certificate], TestPKI.ssl("other.example.com", anchors: [leaf.certificate], anchorClass: .device))
        XCTAssertEqual(e.failureSummaries, ["hostname@0:failed(-67602)"])
    }

    func test900DayLeafUnderADeviceCAIsStillTooLong() throws {
        // ValidityPeriodMaximums exempts only a leaf that is itself the user anchor.
        let ca = try TestPKI.root("Staging CA")
        let leaf = try TestPKI.leaf(issuer: ca, lifetime: .days(900))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [ca.certificate], anchorClass: .device))
        XCTAssertEqual(e.failureSummaries, ["validity-period-maximum@0:failed(-67901)"])
        assertVerdict(e, trusted: false, osstatus: -67901, urlError: -1202)
    }

    // MARK: - Key size (trustd asks about the leaf; WeakKeySize has no exemption)

    func testRSA1024LeafAsDeviceAnchorIsNotRejectedForKeySize() throws {
        // KeySize (RSA >= 2048) is skipped; WeakKeySize's floor is 128 bytes, i.e. 1024 bits, met.
        let leaf = try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey(.rsa(bits: 1024)))
        let app = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate]))
        XCTAssertEqual(app.failureSummaries, ["key-size@0:failed(-67735)"])
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate], anchorClass: .device))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.keySize, 0)?.finding.as(KeySizeFinding.self),
            .keySizeDeviceAnchorExempt(label: "RSA", bits: 1024, minimum: 2048))
        assertSkippedForDevice(e.step(.keySize, 0))
    }

    func testRSA768LeafAsDeviceAnchorIsStillAWeakKey() throws {
        // Below 1024 bits WeakKeySize applies to every certificate, whatever the anchor.
        let leaf = try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey(.rsa(bits: 768)))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [leaf.certificate], anchorClass: .device))
        XCTAssertEqual(e.failureSummaries, ["key-size@0:failed(-67735)"])
        XCTAssertEqual(e.step(.keySize, 0)?.appleFailure?.check, "WeakKeySize")
        assertVerdict(e, trusted: false, osstatus: -67735, urlError: -1202, resultType: .fatalTrustFailure)
    }

    func testRSA1024LeafUnderADeviceCAIsStillTooSmall() throws {
        // The exemption is for a leaf that is itself the anchor, not for chains to a device root.
        let ca = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: ca, key: TestPKI.sharedKey(.rsa(bits: 1024)))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [ca.certificate], anchorClass: .device))
        XCTAssertEqual(e.failureSummaries, ["key-size@0:failed(-67735)"])
        XCTAssertEqual(e.step(.keySize, 0)?.appleFailure?.check, "KeySize")
    }

    // MARK: - Signature hash (trustd asks about the root)

    /// A SHA-1-signed CA certified by a root, used as the anchor itself (so it is not self-signed).
    func sha1SignedAnchor() throws -> (anchor: Issued, leaf: Issued) {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let anchor = try TestPKI.intermediate("SHA-1 CA", issuer: root) { $0.signatureAlgorithm = .sha1WithRSA }
        return (anchor, try TestPKI.leaf(issuer: anchor))
    }

    func testSHA1SignedAppAnchorIsRejected() throws {
        let (anchor, leaf) = try sha1SignedAnchor()
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [anchor.certificate]))
        XCTAssertEqual(e.failureSummaries, ["signature-algorithm@1:failed(-67815)"])
        XCTAssertEqual(e.step(.signatureAlgorithm, 1)?.appleFailure?.check, "SignatureHashAlgorithms")
    }

    func testSHA1SignedDeviceAnchorIsNotJudged() throws {
        let (anchor, leaf) = try sha1SignedAnchor()
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [anchor.certificate], anchorClass: .device))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.signatureAlgorithm, 1)?.finding.as(SignatureAlgorithmFinding.self),
            .signatureHashDeviceAnchorExempt(name: "sha1WithRSAEncryption"))
        assertSkippedForDevice(e.step(.signatureAlgorithm, 1))
    }

    func testSelfSignedSHA1RootIsExemptInBothClasses() throws {
        // SignatureHashAlgorithms skips self-signed certificates anyway.
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048))) { $0.signatureAlgorithm = .sha1WithRSA }
        let leaf = try TestPKI.leaf(issuer: root)
        for cls in CustomAnchorClass.allCases {
            let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate], anchorClass: cls))
            assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
            XCTAssertEqual(
                e.step(.signatureAlgorithm, 1)?.finding.as(SignatureAlgorithmFinding.self),
                .selfSignedHashExempt(name: "sha1WithRSAEncryption"))
        }
    }

    func testMD5SignedDeviceAnchorIsStillAWeakSignature() throws {
        // WeakSignature has no user-anchor exemption.
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let anchor = try TestPKI.intermediate("MD5 CA", issuer: root) { $0.signatureAlgorithm = .md5WithRSA }
        let leaf = try TestPKI.leaf(issuer: anchor)
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [anchor.certificate], anchorClass: .device))
        XCTAssertEqual(e.failureSummaries, ["signature-algorithm@1:failed(-67815)"])
        XCTAssertEqual(e.step(.signatureAlgorithm, 1)?.appleFailure?.check, "WeakSignature")
    }

    func testSHA1IntermediateBelowADeviceRootIsStillRejected() throws {
        // Only the anchor itself is dropped from SignatureHashAlgorithms.
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let int = try TestPKI.intermediate(issuer: root) { $0.signatureAlgorithm = .sha1WithRSA }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate(
            [leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate], anchorClass: .device))
        XCTAssertEqual(e.failureSummaries, ["signature-algorithm@1:failed(-67815)"])
    }

    // MARK: - Scope of the class

    func testDeviceClassChangesNothingWhenThePathEndsAtASystemRoot() throws {
        // trustd checks the system anchor source first; the device class is about the custom anchors.
        let c = try TestPKI.chain { $0.extendedKeyUsage = nil }
        let other = try TestPKI.root("Profile Root")
        let e = try evaluate(
            c.presented,
            TestPKI.ssl(
                anchors: [other.certificate], system: [c.root.certificate], anchorsOnly: false, anchorClass: .device))
        XCTAssertEqual(e.path.anchorClass, .system)
        XCTAssertEqual(e.step(.extendedKeyUsage, 0)?.summary, "extended-key-usage@0:failed(-67609)")
    }

    func testWebPKIProfileIgnoresTheDeviceClass() throws {
        // The exemptions are Apple's; RFC 5280 and the CA/Browser Forum know no device anchors.
        let leaf = try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey(.rsa(bits: 1024)))
        var s = TestPKI.ssl(anchors: [leaf.certificate], anchorClass: .device)
        s.profile = .webpki
        let e = try evaluate([leaf.certificate], s)
        XCTAssertEqual(e.step(.keySize, 0)?.status, .failed)
    }
}
