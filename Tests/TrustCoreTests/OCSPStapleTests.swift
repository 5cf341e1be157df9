import Foundation
import SuiteFixtures
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustReport
@testable import TrustX509

/// A stapled OCSP response (RFC 6960) made by `openssl ocsp` acting as the responder: verified
/// by signature (the issuer or a delegated responder with id-kp-OCSPSigning), CertID and
/// thisUpdate/nextUpdate, then a revoked status fails Apple's Revocation check
/// (errSecCertificateRevoked, -67820, fatal). openssl stamps the response with the real clock,
/// so these certificates are valid around now.
final class OCSPStapleTests: XCTestCase {
    let now = Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))

    struct Responder {
        var certificate: Certificate
        var key: KeyPair
    }

    func makePKI() throws -> (root: Issued, leaf: Issued) {
        let root = try TestPKI.root(notBefore: now - .days(10), notAfter: now + .days(3650))
        let leaf = try TestPKI.leaf(issuer: root, notBefore: now - .days(1), lifetime: .days(90))
        return (root, leaf)
    }

    /// openssl's answer about `leaf`, signed by `signer` (the root by default).
    func opensslResponse(
        root: Issued, leaf: Issued, revoked: Bool, signer: Responder? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [UInt8] {
        let dir = try TemporaryDirectory()
        let rootPEM = try dir.writePEM("root.pem", [root.certificate])
        let leafPEM = try dir.writePEM("leaf.pem", [leaf.certificate])
        let signerCert = try dir.writePEM("signer.pem", [signer?.certificate ?? root.certificate])
        let signerKey = try dir.write("signer.key", Array((signer?.key ?? root.key).privateKeyPEM().utf8))
        let serial = ReportFormatting.hex(leaf.certificate.serialNumber).replacingOccurrences(of: ":", with: "")
        let line1 =
            revoked
            ? "R\t991231235959Z\t250101000000Z\t\(serial.uppercased())\tunknown\t/CN=leaf\n"
            : "V\t991231235959Z\t\t\(serial.uppercased())\tunknown\t/CN=leaf\n"
        let index = try dir.write("index.txt", Array(line1.utf8))
        let req = dir.path + "/req.der"
        let resp = dir.path + "/resp.der"
        _ = try Shell.output(
            "openssl ocsp -issuer \(rootPEM) -cert \(leafPEM) -no_nonce -reqout \(req)", file: file, line: line)
        _ = try Shell.output(
            "openssl ocsp -index \(index) -CA \(rootPEM) -rsigner \(signerCert) -rkey \(signerKey) -reqin \(req) -respout \(resp) -ndays 1",
            file: file, line: line)
        return try dir.read("resp.der")
    }

    func evaluateWith(_ pki: (root: Issued, leaf: Issued), _ staple: [UInt8], at time: Timestamp? = nil) throws
        -> Evaluation
    {
        var s = TestPKI.ssl(anchors: [pki.root.certificate], time: time ?? now)
        s.stapledOCSPResponse = staple
        return try evaluate([pki.leaf.certificate], s)
    }

    func testRevokedStapleFailsWithApplesRevocationCheck() throws {
        let pki = try makePKI()
        let e = try evaluateWith(pki, try opensslResponse(root: pki.root, leaf: pki.leaf, revoked: true))
        XCTAssertEqual(e.failureSummaries, ["revocation@0:failed(-67820)"])
        assertVerdict(e, trusted: false, osstatus: -67820, urlError: -999, resultType: .fatalTrustFailure)
    }

    func testGoodStapleSignedByTheIssuerPasses() throws {
        let pki = try makePKI()
        let e = try evaluateWith(pki, try opensslResponse(root: pki.root, leaf: pki.leaf, revoked: false))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(
            e.step(.revocation, 0)?.finding.as(RevocationFinding.self),
            .ocspGood(signer: pki.root.certificate.displayName))
    }

    func testDelegatedResponderNeedsTheOCSPSigningPurpose() throws {
        let pki = try makePKI()
        func responder(_ purposes: [KeyPurpose]) throws -> Responder {
            let key = try KeyPair.generate(.ecP256)
            var b = CertificateBuilder(
                subject: TestPKI.name("OCSP Responder"), publicKey: key, notBefore: now - .days(1),
                notAfter: now + .days(30))
            b.extendedKeyUsage = .init(purposes)
            return Responder(certificate: try b.sign(issuerKey: pki.root.key, issuer: pki.root.certificate), key: key)
        }
        let delegated = try opensslResponse(
            root: pki.root, leaf: pki.leaf, revoked: true, signer: try responder([.ocspSigning]))
        XCTAssertEqual(try evaluateWith(pki, delegated).failureSummaries, ["revocation@0:failed(-67820)"])
        // Without id-kp-OCSPSigning the responder is not authorised (RFC 6960 4.2.2.2): the
        // response cannot be used and Apple's soft-fail checking ignores it.
        let undelegated = try opensslResponse(
            root: pki.root, leaf: pki.leaf, revoked: true, signer: try responder([.serverAuth]))
        let e = try evaluateWith(pki, undelegated)
        XCTAssertTrue(e.verdict.trusted, "\(e.failureSummaries)")
        XCTAssertEqual(e.step(.revocation, 0)?.status.identifier, "skipped")
    }

    func testAStaleStapleIsIgnored() throws {
        // -ndays 1: two days later the response's nextUpdate has passed.
        let pki = try makePKI()
        let staple = try opensslResponse(root: pki.root, leaf: pki.leaf, revoked: true)
        let e = try evaluateWith(pki, staple, at: now + .days(2))
        XCTAssertTrue(e.verdict.trusted, "\(e.failureSummaries)")
        guard case .revocationNotChecked(let reason, _)? = e.step(.revocation, 0)?.finding.as(RevocationFinding.self)
        else {
            return XCTFail("\(e.stepSummaries)")
        }
        XCTAssertTrue(reason.contains("nextUpdate"), reason)
    }

    func testAStapleForAnotherCertificateIsIgnored() throws {
        let pki = try makePKI()
        let other = try TestPKI.leaf("other.example.com", issuer: pki.root, notBefore: now - .days(1))
        let staple = try opensslResponse(root: pki.root, leaf: other, revoked: true)
        let e = try evaluateWith(pki, staple)
        XCTAssertTrue(e.verdict.trusted)
    }

    func testBuiltResponsesReadTheSameInOpenSSL() throws {
        // OCSPResponseBuilder (the lab's responder) checked by openssl ocsp -respin.
        let pki = try makePKI()
        let der = try OCSPResponseBuilder(
            status: .revoked(now - .days(1)), thisUpdate: now - .hours(1), nextUpdate: now + .days(7)
        ).sign(certificate: pki.leaf.certificate, issuer: pki.root.certificate, key: pki.root.key)
        let dir = try TemporaryDirectory()
        let root = try dir.writePEM("root.pem", [pki.root.certificate])
        let leaf = try dir.writePEM("leaf.pem", [pki.leaf.certificate])
        let resp = try dir.write("resp.der", der)
        let r = try Shell.run(
            "openssl ocsp -respin \(resp) -issuer \(root) -cert \(leaf) -CAfile \(root) -no_nonce")
        XCTAssertTrue((r.text + r.stderr).contains("Response verify OK"), r.text + r.stderr)
        XCTAssertTrue(r.text.contains("revoked"), r.text)
        XCTAssertEqual(try evaluateWith(pki, der).failureSummaries, ["revocation@0:failed(-67820)"])
    }

    func testTheRequestIsWhatOpenSSLSends() throws {
        // `openssl ocsp -no_nonce -reqout` writes the same SHA-1 CertID request, byte for byte.
        let pki = try makePKI()
        let dir = try TemporaryDirectory()
        let root = try dir.writePEM("root.pem", [pki.root.certificate])
        let leaf = try dir.writePEM("leaf.pem", [pki.leaf.certificate])
        _ = try Shell.output("openssl ocsp -issuer \(root) -cert \(leaf) -no_nonce -reqout \(dir.path)/req.der")
        XCTAssertEqual(
            OCSPRequest.der(certificate: pki.leaf.certificate, issuer: pki.root.certificate), try dir.read("req.der"))
    }
}
