import SuiteFixtures
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// KeySize / WeakKeySize and SignatureHashAlgorithms / WeakSignature (docs/steps.md).
final class KeyAndHashTests: XCTestCase {
    // MARK: - Key sizes

    func testRSA1024LeafFailsKeySizeUnderSSL() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root, key: TestPKI.sharedKey(.rsa(bits: 1024)))
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["key-size@0:failed(-67735)"])
        XCTAssertEqual(
            e.step(.keySize, 0)?.finding.as(KeySizeFinding.self), .keyTooSmall(label: "RSA", bits: 1024, minimum: 2048))
        assertVerdict(e, trusted: false, osstatus: -67735, urlError: -999, resultType: .recoverableTrustFailure)
    }

    func testRSA1024IsAcceptedUnderBasic() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root, key: TestPKI.sharedKey(.rsa(bits: 1024)))
        let e = try evaluate([leaf.certificate], TestPKI.basic(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testRSABelow1024IsAFatalWeakKeyUnderEveryPolicy() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root, key: TestPKI.sharedKey(.rsa(bits: 768)))
        for settings in [TestPKI.basic(anchors: [root.certificate]), TestPKI.ssl(anchors: [root.certificate])] {
            let e = try evaluate([leaf.certificate], settings)
            XCTAssertEqual(e.failureSummaries, ["key-size@0:failed(-67735)"], settings.policy.identifier)
            XCTAssertEqual(e.step(.keySize, 0)?.appleFailure?.check, "WeakKeySize")
            assertVerdict(e, trusted: false, osstatus: -67735, urlError: -999, resultType: .fatalTrustFailure)
        }
    }

    func testRSA1024IntermediateFailsKeySizeUnderSSL() throws {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(issuer: root, key: TestPKI.sharedKey(.rsa(bits: 1024)))
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["key-size@1:failed(-67735)"])
    }

    func testRSA1024AnchorFailsKeySizeUnderSSL() throws {
        // "RSA >= 2048 / EC >= 256, all certs", for every anchor class.
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 1024)))
        let leaf = try TestPKI.leaf(issuer: root)
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["key-size@1:failed(-67735)"])
    }

    func testRSA2048AndEveryNISTCurveMeetTheSSLMinimum() throws {
        for kind in [KeyKind.rsa(bits: 2048), .ecP256, .ecP384, .ecP521] {
            let root = try TestPKI.root()
            let leaf = try TestPKI.leaf(issuer: root, key: TestPKI.sharedKey(kind))
            let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
            assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
            XCTAssertEqual(e.step(.keySize, 0)?.status, .passed, "\(kind)")
        }
    }

    /// The DER SPKI of a fresh EC key on `curve`, made by the openssl CLI (KeyPair makes only
    /// the curves Apple accepts).
    private func opensslECSPKI(_ curve: String) throws -> [UInt8] {
        let r = try Shell.run("openssl ecparam -name \(curve) -genkey -noout | openssl pkey -pubout -outform DER")
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    private func leafWithSPKI(_ spki: [UInt8], issuer: Issued) throws -> Certificate {
        var b = TestPKI.leafBuilder(
            TestPKI.host, key: issuer.key, notBefore: TestPKI.now - .days(30),
            lifetime: .days(365)
        ) { _ in }
        b.subjectPublicKeyInfo = spki
        return try b.sign(issuerKey: issuer.key, issuer: issuer.certificate)
    }

    func testECP224LeafFailsKeySizeUnderSSLButNotUnderBasic() throws {
        let root = try TestPKI.root()
        let leaf = try leafWithSPKI(try opensslECSPKI("secp224r1"), issuer: root)
        XCTAssertEqual(leaf.publicKey.bits, 224)
        let ssl = try evaluate([leaf], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(ssl.failureSummaries, ["key-size@0:failed(-67735)"])
        XCTAssertEqual(
            ssl.step(.keySize, 0)?.finding.as(KeySizeFinding.self),
            .keyTooSmall(label: "EC P-224", bits: 224, minimum: 256))
        assertVerdict(ssl, trusted: false, osstatus: -67735, urlError: -999, resultType: .recoverableTrustFailure)
        let basic = try evaluate([leaf], TestPKI.basic(anchors: [root.certificate]))
        assertVerdict(basic, trusted: true, osstatus: 0, urlError: nil)
    }

    func testECP192LeafIsAboveTheWeakKeyFloorOf160Bits() throws {
        let root = try TestPKI.root()
        let leaf = try leafWithSPKI(try opensslECSPKI("prime192v1"), issuer: root)
        XCTAssertEqual(leaf.publicKey.bits, 192)
        let basic = try evaluate([leaf], TestPKI.basic(anchors: [root.certificate]))
        assertVerdict(basic, trusted: true, osstatus: 0, urlError: nil)
    }

    // MARK: - Signature hashes

    func testSHA1SignedIntermediateFailsUnderSSL() throws {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let int = try TestPKI.intermediate(issuer: root) { $0.signatureAlgorithm = .sha1WithRSA }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["signature-algorithm@1:failed(-67815)"])
        XCTAssertEqual(e.step(.signatureAlgorithm, 1)?.appleFailure?.check, "SignatureHashAlgorithms")
        assertVerdict(e, trusted: false, osstatus: -67815, urlError: -999, resultType: .recoverableTrustFailure)
        XCTAssertEqual(e.verdict.osstatusName, "errSecInvalidDigestAlgorithm")
    }

    func testSHA1SignedIntermediateIsFineUnderBasic() throws {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let int = try TestPKI.intermediate(issuer: root) { $0.signatureAlgorithm = .sha1WithRSA }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.basic(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testECDSAWithSHA1OnTheLeafFailsUnderSSL() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root) { $0.signatureAlgorithm = .ecdsaWithSHA1 }
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["signature-algorithm@0:failed(-67815)"])
    }

    func testSelfSignedSHA1RootIsExempt() throws {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048))) { $0.signatureAlgorithm = .sha1WithRSA }
        let leaf = try TestPKI.leaf(issuer: root)
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.signatureAlgorithm, 1)?.finding.as(SignatureAlgorithmFinding.self),
            .selfSignedHashExempt(name: "sha1WithRSAEncryption"))
    }

    func testMD5SignedIntermediateIsAFatalWeakSignatureUnderEveryPolicy() throws {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048)))
        let int = try TestPKI.intermediate(issuer: root) { $0.signatureAlgorithm = .md5WithRSA }
        let leaf = try TestPKI.leaf(issuer: int)
        for settings in [TestPKI.basic(anchors: [root.certificate]), TestPKI.ssl(anchors: [root.certificate])] {
            let e = try evaluate([leaf.certificate, int.certificate], settings)
            XCTAssertEqual(e.failureSummaries, ["signature-algorithm@1:failed(-67815)"], settings.policy.identifier)
            XCTAssertEqual(e.step(.signatureAlgorithm, 1)?.appleFailure?.check, "WeakSignature")
            assertVerdict(e, trusted: false, osstatus: -67815, urlError: -999, resultType: .fatalTrustFailure)
        }
    }

    func testSelfSignedMD5RootIsExempt() throws {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.rsa(bits: 2048))) { $0.signatureAlgorithm = .md5WithRSA }
        let leaf = try TestPKI.leaf(issuer: root)
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testSHA384AndSHA512SignaturesPass() throws {
        let root = try TestPKI.root(key: TestPKI.sharedKey(.ecP384))
        let int = try TestPKI.intermediate(issuer: root) { $0.signatureAlgorithm = .ecdsaWithSHA512 }
        let leaf = try TestPKI.leaf(issuer: int)
        let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.signatureAlgorithm, 1)?.finding.as(SignatureAlgorithmFinding.self),
            .signatureAlgorithmOK(name: "ecdsa-with-SHA512"))
    }
}
