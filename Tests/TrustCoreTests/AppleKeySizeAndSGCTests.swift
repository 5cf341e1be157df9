import Foundation
import SuiteFixtures
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Apple's remaining small differences (docs/steps.md, `key-size` and `extended-key-usage`): key
/// sizes compared in whole bytes, RSA moduli over 8,192 bits, and the Server Gated Crypto purposes.
///
/// The boundary keys are RSA public keys nobody holds (a random modulus of the exact size), so no
/// slow key generation is needed: the leaf's key is never used to verify anything, and a
/// one-certificate anchor's signature is not checked.
final class AppleKeySizeAndSGCTests: XCTestCase {
    /// One P-256 root for every test of the class: the keys under test are the leaves'.
    static let sharedRoot = try? TestPKI.root("Key Size Root")

    func root() throws -> Issued { try XCTUnwrap(Self.sharedRoot) }

    /// A leaf for the test host whose key is an RSA modulus of exactly `bits` bits.
    func leaf(rsaBits bits: Int) throws -> Certificate {
        let root = try root()
        let spki = PathologicalShapes.bogusRSAKey(modulusBits: bits, exponentBits: 17)
        var b = CertificateBuilder(
            subject: TestPKI.name(TestPKI.host), subjectPublicKeyInfo: spki, notBefore: TestPKI.now - .days(30),
            notAfter: TestPKI.now + .days(335))
        b.keyUsage = .init([.digitalSignature])
        b.extendedKeyUsage = .init([.serverAuth])
        b.subjectAltNames = .dns(TestPKI.host)
        let leaf = try b.sign(issuerKey: root.key, issuer: root.certificate)
        XCTAssertEqual(leaf.publicKey.bits, bits)
        return leaf
    }

    func testTheBoundaryKeysHaveTheSizesOpenSSLReads() throws {
        for bits in [2040, 2047] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-keysize-\(bits).pem")
            try PEM.encode(try leaf(rsaBits: bits).der).write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let text = try Shell.output("openssl x509 -noout -text -in '\(file.path)'")
            XCTAssertTrue(text.contains("Public-Key: (\(bits) bit)"), "\(bits)")
        }
    }

    // MARK: - Whole bytes

    func testA2047BitRSALeafMeetsTheSSLMinimumInWholeBytes() throws {
        // SecCertificateIsAtLeastMinKeySize: 256 bytes >= (2048 + 7) / 8.
        for bits in [2041, 2047] {
            let e = try evaluate([leaf(rsaBits: bits)], TestPKI.ssl(anchors: [root().certificate]))
            assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
            XCTAssertEqual(
                e.step(.keySize, 0)?.finding.as(KeySizeFinding.self),
                .keySizeWholeBytes(label: "RSA", bits: bits, minimum: 2048))
        }
    }

    func testA2040BitRSALeafFallsAByteShortOfTheSSLMinimum() throws {
        let e = try evaluate([leaf(rsaBits: 2040)], TestPKI.ssl(anchors: [root().certificate]))
        XCTAssertEqual(
            e.step(.keySize, 0)?.finding.as(KeySizeFinding.self), .keyTooSmall(label: "RSA", bits: 2040, minimum: 2048))
        assertVerdict(e, trusted: false, osstatus: -67735, urlError: -999, resultType: .recoverableTrustFailure)
    }

    func testTheWeakKeyFloorIsInWholeBytesToo() throws {
        // SecCertificateIsWeakKey: MIN_RSA_KEY_SIZE is 128 bytes.
        let settings = TestPKI.basic(anchors: [try root().certificate])
        assertVerdict(try evaluate([leaf(rsaBits: 1017)], settings), trusted: true, osstatus: 0, urlError: nil)
        let e = try evaluate([leaf(rsaBits: 1016)], settings)
        XCTAssertEqual(e.step(.keySize, 0)?.appleFailure?.check, "WeakKeySize")
        assertVerdict(e, trusted: false, osstatus: -67735, urlError: -999, resultType: .fatalTrustFailure)
    }

    func testTheWebPKIProfileStillCountsBits() throws {
        var settings = TestPKI.ssl(anchors: [try root().certificate])
        settings.profile = .webpki
        let e = try evaluate([leaf(rsaBits: 2047)], settings)
        XCTAssertEqual(e.step(.keySize, 0)?.status, .failed)
    }

    // MARK: - Over 8,192 bits

    func testAnRSALeafOver8192BitsIsAWeakKeyUnderEveryPolicy() throws {
        let big = try leaf(rsaBits: 8200)
        let anchor = try root().certificate
        for settings in [TestPKI.basic(anchors: [anchor]), TestPKI.ssl(anchors: [anchor])] {
            let e = try evaluate([big], settings)
            XCTAssertEqual(
                e.step(.keySize, 0)?.finding.as(KeySizeFinding.self), .keyTooLargeToBuild(bits: 8200, limit: 8192),
                settings.policy.identifier)
            XCTAssertEqual(e.step(.keySize, 0)?.appleFailure?.check, "WeakKeySize")
            assertVerdict(e, trusted: false, osstatus: -67735, urlError: -999, resultType: .fatalTrustFailure)
        }
        // 8,192 bits is the largest key Apple builds.
        let e = try evaluate([leaf(rsaBits: 8192)], TestPKI.ssl(anchors: [root().certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testAnAnchorOver8192BitsIsAWeakKeyToo() throws {
        // A root trusted as itself: its own signature is not checked, its key size is.
        let signer = try TestPKI.sharedKey(.ecP256)
        let name = TestPKI.name("Huge Root")
        var b = CertificateBuilder(
            subject: name, subjectPublicKeyInfo: PathologicalShapes.bogusRSAKey(modulusBits: 8200, exponentBits: 17),
            notBefore: TestPKI.now - .days(30), notAfter: TestPKI.now + .days(300))
        b.basicConstraints = .init(isCA: true)
        b.keyUsage = .init([.keyCertSign])
        let anchor = try b.sign(issuerKey: signer, issuerName: name, issuerKeyIdentifier: nil)
        let e = try evaluate([anchor], TestPKI.basic(anchors: [anchor]))
        XCTAssertEqual(e.step(.anchor, 0)?.status, .passed)
        XCTAssertEqual(e.step(.keySize, 0)?.appleFailure?.check, "WeakKeySize")
        assertVerdict(e, trusted: false, osstatus: -67735, urlError: -999, resultType: .fatalTrustFailure)
    }

    // MARK: - Server Gated Crypto

    static let netscapeSGC = KeyPurpose.custom(OID(dotted: "2.16.840.1.113730.4.1")!)
    static let microsoftSGC = KeyPurpose.custom(OID(dotted: "1.3.6.1.4.1.311.10.3.3")!)

    func sgcLeaf(_ purpose: KeyPurpose, notBefore: Timestamp = TestPKI.now - .days(30)) throws -> Certificate {
        try TestPKI.leaf(issuer: root(), notBefore: notBefore) { $0.extendedKeyUsage = .init([purpose]) }.certificate
    }

    func testAnSGCLeafIsTrustedBelowADeviceInstalledRoot() throws {
        for purpose in [Self.netscapeSGC, Self.microsoftSGC] {
            let e = try evaluate([sgcLeaf(purpose)], TestPKI.ssl(anchors: [root().certificate], anchorClass: .device))
            assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        }
    }

    func testAnSGCLeafIssuedBeforeJuly2019IsTrustedUnderAnAppAnchor() throws {
        let root = try TestPKI.root("2018 Root", notBefore: TestPKI.date(2018, 1, 1))
        let old = try TestPKI.leaf(issuer: root, notBefore: TestPKI.date(2019, 1, 1)) {
            $0.extendedKeyUsage = .init([Self.netscapeSGC])
        }
        let e = try evaluate(
            [old.certificate], TestPKI.ssl(anchors: [root.certificate], time: TestPKI.date(2019, 6, 1)))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.extendedKeyUsage, 0)?.finding.as(ExtendedKeyUsageFinding.self),
            .ekuServerGatedCrypto(present: ["2.16.840.1.113730.4.1"]))
    }

    func testAnSGCLeafIssuedLaterOrUnderASystemRootIsRefused() throws {
        // ServerAuthEKU: serverAuth itself for system roots, and for app anchors after 2019-07-01.
        let later = try sgcLeaf(Self.microsoftSGC)
        let anchor = try root().certificate
        for settings in [TestPKI.ssl(anchors: [anchor]), TestPKI.ssl(system: [anchor])] {
            let e = try evaluate([later], settings)
            XCTAssertEqual(e.step(.extendedKeyUsage, 0)?.summary, "extended-key-usage@0:failed(-67609)")
        }
    }

    func testAnSGCIntermediatePassesExceptUnderASystemRoot() throws {
        let root = try root()
        let int = try TestPKI.intermediate(issuer: root) { $0.extendedKeyUsage = .init([Self.netscapeSGC]) }
        let leaf = try TestPKI.leaf(issuer: int)
        let chain = [leaf.certificate, int.certificate]
        assertVerdict(
            try evaluate(chain, TestPKI.ssl(anchors: [root.certificate])), trusted: true, osstatus: 0, urlError: nil)
        let system = try evaluate(chain, TestPKI.ssl(system: [root.certificate]))
        XCTAssertEqual(system.step(.extendedKeyUsage, 1)?.summary, "extended-key-usage@1:failed(-67609)")
    }
}
