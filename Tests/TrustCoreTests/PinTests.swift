import SuiteFixtures
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// SPKI pins checked by the app's delegate after evaluation (docs/steps.md): never instead of
/// evaluation, on the DER SubjectPublicKeyInfo, cancelling with -999.
final class PinTests: XCTestCase {
    func testMatchingLeafPinOnAPassingChainIsTrusted() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(
            c.presented, TestPKI.ssl(anchors: [c.root.certificate], pins: [c.leaf.certificate.spkiSHA256]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.pin, 0)?.status, .passed)
        XCTAssertEqual(e.step(.pin, 0)?.finding.as(PinFinding.self), .pinMatched(pin: c.leaf.certificate.spkiPin))
    }

    func testPinOnTheIntermediateOrTheAnchorMatchesToo() throws {
        let c = try TestPKI.chain()
        for (index, cert) in [(1, c.intermediate.certificate), (2, c.root.certificate)] {
            let e = try evaluate(c.presented, TestPKI.ssl(anchors: [c.root.certificate], pins: [cert.spkiSHA256]))
            assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
            XCTAssertEqual(e.step(.pin, index)?.status, .passed)
        }
    }

    func testWrongPinOnAPassingChainIsCancelledWithoutAnOSStatus() throws {
        let c = try TestPKI.chain()
        let stranger = try KeyPair.generate(.ecP256)
        let e = try evaluate(
            c.presented,
            TestPKI.ssl(anchors: [c.root.certificate], pins: [Digest.sha256(stranger.spkiDER)]))
        XCTAssertEqual(e.failureSummaries, ["pin@-:failed"])
        assertVerdict(e, trusted: false, osstatus: 0, urlError: -999)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .pin)
    }

    func testWrongPinCancelsEvenUnderDefaultSystemAnchors() throws {
        // Pins alone make the delegate the decider: -999, not -1202.
        let c = try TestPKI.chain()
        let e = try evaluate(
            c.presented, TestPKI.ssl(system: [c.root.certificate], pins: [[UInt8](repeating: 7, count: 32)]))
        XCTAssertFalse(e.verdict.trusted)
        XCTAssertEqual(e.verdict.urlError, -999)
    }

    func testMatchingPinOnAFailingChainIsNotChecked() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(
            c.presented,
            TestPKI.ssl("wrong.example.com", anchors: [c.root.certificate], pins: [c.leaf.certificate.spkiSHA256]))
        XCTAssertEqual(e.step(.pin, nil)?.status.identifier, "skipped")
        XCTAssertEqual(e.step(.pin, nil)?.finding.as(PinFinding.self), .pinNotChecked)
        XCTAssertEqual(e.failureSummaries, ["hostname@0:failed(-67602)"])
        assertVerdict(e, trusted: false, osstatus: -67602, urlError: -999)
    }

    func testMatchingPinDoesNotRescueAnUntrustedRoot() throws {
        let c = try TestPKI.chain()
        let e = try evaluate(c.presented + [c.root.certificate], TestPKI.ssl(pins: [c.root.certificate.spkiSHA256]))
        XCTAssertEqual(e.step(.pin, nil)?.status.identifier, "skipped")
        assertVerdict(e, trusted: false, osstatus: -67843, urlError: -999)
    }

    func testPinIsTheHashOfTheDERSubjectPublicKeyInfoNotOfTheRawKey() throws {
        let key = try KeyPair.generate(.ecP256)
        let cert = try TestPKI.selfSignedLeaf(key: key).certificate
        XCTAssertEqual(cert.spkiSHA256, Digest.sha256(key.spkiDER))
        XCTAssertNotEqual(cert.spkiSHA256, Digest.sha256(cert.publicKey.keyBytes))
    }

    func testPinsEqualTheOpenSSLPipelineForEveryKeyType() throws {
        let dir = try TemporaryDirectory()
        let kinds: [KeyKind] = [.rsa(bits: 1024), .rsa(bits: 2048), .ecP256, .ecP384, .ecP521, .ed25519, .ed448]
        for kind in kinds {
            let cert = try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey(kind)).certificate
            let file = try dir.writePEM("cert.pem", [cert])
            let out = try Shell.output(
                "openssl x509 -pubkey -noout -in \(file) | openssl pkey -pubin -outform der "
                    + "| openssl dgst -sha256 -binary | base64")
            XCTAssertEqual(cert.spkiPin, out.trimmingCharacters(in: .whitespacesAndNewlines), "\(kind)")
            XCTAssertEqual(PinSet.parse("sha256//" + cert.spkiPin), cert.spkiSHA256, "\(kind)")
        }
    }

    func testPinParsingAcceptsPrefixedAndBareBase64Only() {
        let digest = [UInt8](0..<32)
        let b64 = Base64.encode(digest)
        XCTAssertEqual(PinSet.parse("sha256//" + b64), digest)
        XCTAssertEqual(PinSet.parse(b64), digest)
        XCTAssertNil(PinSet.parse("sha256//" + Base64.encode([UInt8](0..<20))), "a SHA-1 length is not a pin")
        XCTAssertNil(PinSet.parse("not base64!"))
        XCTAssertNil(PinSet.parse(""))
    }
}
