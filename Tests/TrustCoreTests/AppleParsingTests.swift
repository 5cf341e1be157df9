import SuiteFixtures
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Read what Apple's certificate parser reads, and judge it in evaluation (SecCertificate.c,
/// SecPolicyServer.c): an extension value Apple cannot parse fails UnparseableExtension
/// (errSecUnknownCertExtension, -67618; PathParseTests testUnparseableExtensions), a critical CT
/// poison is an unknown critical extension (-67603; CTTests testPrecertsFail), and a signature
/// BIT STRING with unused bits is read and then fails to verify.
final class AppleParsingTests: XCTestCase {
    typealias Raw = CertificateBuilder.RawExtension

    func leafUnderRoot(_ configure: @escaping (inout CertificateBuilder) -> Void) throws -> (Issued, Issued) {
        let root = try TestPKI.root()
        return (root, try TestPKI.leaf(issuer: root, configure: configure))
    }

    func testExtendedKeyUsageEncodedAsASetIsUnparseable() throws {
        // The shape of Apple's own vector: extKeyUsage holding a SET instead of a SEQUENCE.
        let ekuAsSet = DERWriter.encode { $0.setOf([DERWriter.encode { $0.oid(.serverAuth) }]) }
        let (root, leaf) = try leafUnderRoot {
            $0.extendedKeyUsage = nil
            $0.rawExtensions = [Raw(oid: .extKeyUsage, critical: false, value: ekuAsSet)]
        }
        let e = try evaluate([leaf.certificate], TestPKI.basic(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["compliance@0:failed(-67618)"])
        XCTAssertEqual(e.verdict.decisiveStep?.appleFailure?.check, "UnparseableExtension")
        XCTAssertEqual(e.verdict.osstatusName, "errSecUnknownCertExtension")
        var web = TestPKI.basic(anchors: [root.certificate])
        web.profile = .webpki
        XCTAssertFalse(try evaluate([leaf.certificate], web).verdict.trusted)
    }

    func testAStrictDERSlipApplesParserReadsIsStillTolerated() throws {
        // basicConstraints with an encoded cA FALSE: not DER (X.690 11.5), but Apple reads it.
        let bc = DERWriter.encode { w in w.sequence { $0.boolean(false) } }
        let (root, leaf) = try leafUnderRoot {
            $0.rawExtensions = [Raw(oid: .basicConstraints, critical: true, value: bc)]
        }
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertTrue(e.verdict.trusted, "\(e.failureSummaries)")
        XCTAssertEqual(
            e.steps.filter { $0.id == .compliance && $0.certificate == 0 }.map(\.status.identifier), ["skipped"])
    }

    func testCriticalPrecertificatePoisonIsAnUnknownCriticalExtension() throws {
        // RFC 6962 3.1: the poison is critical so that a precertificate is never accepted.
        let poison = DERWriter.encode { $0.null() }
        let (root, leaf) = try leafUnderRoot { $0.rawExtensions = [Raw(oid: .ctPoison, critical: true, value: poison)] }
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["critical-extensions@0:failed(-67603)"])
        XCTAssertEqual(
            e.step(.criticalExtensions, 0)?.finding.as(ExtensionsFinding.self),
            .unknownCriticalExtension(oid: OID.ctPoison.dotted))
    }

    func testSignatureWithUnusedBitsIsReadAndFailsToVerify() throws {
        let (root, leaf) = try leafUnderRoot { _ in }
        var der = leaf.certificate.der
        // The signature is the last element: BIT STRING tag, length, then the unused-bits octet.
        let sig = leaf.certificate.signature
        let unusedAt = der.count - sig.count - 1
        XCTAssertEqual(der[unusedAt], 0)
        der[unusedAt] = 1
        let cert = try Certificate(der: der)
        XCTAssertEqual(cert.signatureUnusedBits, 1)
        XCTAssertEqual(cert.signature, sig)
        // openssl reads the same bytes and does not verify them either.
        let dir = try TemporaryDirectory()
        let r = try dir.writePEM("root.pem", [root.certificate])
        let l = try dir.writePEM("leaf.pem", [cert])
        XCTAssertNotEqual(
            try Shell.run("openssl verify -attime \(TestPKI.now.secondsSinceEpoch) -CAfile \(r) \(l)").status, 0)
        let e = try evaluate([cert], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertFalse(e.verdict.trusted)
        XCTAssertEqual(
            e.step(.signature, 0)?.finding.as(ChainFinding.self),
            .signatureInvalid(candidate: root.certificate.subject.description))
    }
}
