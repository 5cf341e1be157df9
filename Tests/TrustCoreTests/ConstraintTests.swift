import SuiteFixtures
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Compliance and usage checks on issuers and extensions (docs/steps.md): key usage, basic
/// constraints, path length, critical and duplicate extensions, name constraints, key-identifier
/// linkage, empty subjects.
final class ConstraintTests: XCTestCase {
    /// Leaf under an intermediate configured by `configure`, anchored at a fresh root.
    private func evaluateUnder(
        intermediate configure: (inout CertificateBuilder) -> Void,
        leaf configureLeaf: (inout CertificateBuilder) -> Void = { _ in },
        policy: TrustPolicy = .ssl(host: TestPKI.host)
    ) throws -> Evaluation {
        let root = try TestPKI.root()
        let int = try TestPKI.intermediate(issuer: root, configure: configure)
        let leaf = try TestPKI.leaf(issuer: int, configure: configureLeaf)
        var settings = TestPKI.ssl(anchors: [root.certificate])
        settings.policy = policy
        return try evaluate([leaf.certificate, int.certificate], settings)
    }

    // MARK: - Key usage

    func testIssuerKeyUsageWithoutKeyCertSignFails() throws {
        let e = try evaluateUnder(intermediate: { $0.keyUsage = .init([.digitalSignature, .cRLSign]) })
        XCTAssertEqual(e.failureSummaries, ["key-usage@1:failed(-67608)"])
        XCTAssertEqual(
            e.step(.keyUsage, 1)?.finding.as(KeyUsageFinding.self),
            .keyUsageLacksCertSign(present: ["digitalSignature", "cRLSign"]))
        assertVerdict(e, trusted: false, osstatus: -67608, urlError: -999)
        XCTAssertEqual(e.verdict.osstatusName, "errSecInvalidKeyUsageForPolicy")
    }

    func testIssuerKeyUsageWithoutKeyCertSignFailsUnderBasicToo() throws {
        let e = try evaluateUnder(intermediate: { $0.keyUsage = .init([.digitalSignature]) }, policy: .basicX509)
        XCTAssertEqual(e.failureSummaries, ["key-usage@1:failed(-67608)"])
    }

    func testIssuerWithoutKeyUsageIsAccepted() throws {
        // Apple checks an issuer's keyUsage only when present (Library Test CA, the lab's CA, has none).
        let e = try evaluateUnder(intermediate: { $0.keyUsage = nil })
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.keyUsage, 1)?.finding.as(KeyUsageFinding.self), .keyUsageAbsent)
    }

    func testTheLabCAWithoutKeyUsageIsTrustedByAppleButRejectedByWebPKIAndOpenSSLStrict() throws {
        // docs/steps.md: `openssl req -x509` without an extension file makes a CA with
        // basicConstraints and key identifiers but no keyUsage.
        let root = try TestPKI.root { $0.keyUsage = nil }
        let leaf = try TestPKI.leaf(issuer: root)
        let apple = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        assertVerdict(apple, trusted: true, osstatus: 0, urlError: nil)
        var settings = TestPKI.ssl(anchors: [root.certificate])
        settings.profile = .webpki
        let webpki = try evaluate([leaf.certificate], settings)
        XCTAssertEqual(webpki.failureSummaries, ["key-usage@1:failed(-67608)"])

        let dir = try TemporaryDirectory()
        let r = try dir.writePEM("root.pem", [root.certificate])
        let l = try dir.writePEM("leaf.pem", [leaf.certificate])
        let strict = try Shell.run(
            "openssl verify -x509_strict -attime \(TestPKI.now.secondsSinceEpoch) -CAfile \(r) \(l)")
        XCTAssertNotEqual(strict.status, 0)
        XCTAssertTrue((strict.text + strict.stderr).contains("error 92"), strict.text + strict.stderr)
        let lax = try Shell.run("openssl verify -attime \(TestPKI.now.secondsSinceEpoch) -CAfile \(r) \(l)")
        XCTAssertEqual(lax.status, 0, lax.stderr)
    }

    // MARK: - Basic constraints

    func testVersion3IssuerWithoutBasicConstraintsFails() throws {
        let e = try evaluateUnder(intermediate: { $0.basicConstraints = nil })
        XCTAssertEqual(e.failureSummaries, ["basic-constraints@1:failed(-67604)"])
        assertVerdict(e, trusted: false, osstatus: -67604, urlError: -999)
        XCTAssertEqual(e.verdict.osstatusName, "errSecNoBasicConstraints")
    }

    func testIssuerWithCAFalseFails() throws {
        let e = try evaluateUnder(intermediate: { $0.basicConstraints = .init(isCA: false) })
        XCTAssertEqual(e.failureSummaries, ["basic-constraints@1:failed(-67605)"])
        assertVerdict(e, trusted: false, osstatus: -67605, urlError: -999)
    }

    func testVersion1RootAnchorIsTolerated() throws {
        let root = try TestPKI.root { $0.version = 1 }
        let leaf = try TestPKI.leaf(issuer: root)
        let e = try evaluate([leaf.certificate], TestPKI.ssl(anchors: [root.certificate]))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testPathLengthConstraintExceededFails() throws {
        // Int 1 allows no intermediate below it; Int 2 is one.
        let root = try TestPKI.root()
        let i1 = try TestPKI.intermediate("Int 1", issuer: root) {
            $0.basicConstraints = .init(isCA: true, pathLength: 0)
        }
        let i2 = try TestPKI.intermediate("Int 2", issuer: i1)
        let leaf = try TestPKI.leaf(issuer: i2)
        let e = try evaluate(
            [leaf.certificate, i2.certificate, i1.certificate], TestPKI.ssl(anchors: [root.certificate]))
        XCTAssertEqual(e.failureSummaries, ["basic-constraints@2:failed(-67611)"])
        XCTAssertEqual(
            e.step(.basicConstraints, 2)?.finding.as(BasicConstraintsFinding.self),
            .pathLengthExceeded(limit: 0, actual: 1))
        assertVerdict(e, trusted: false, osstatus: -67611, urlError: -999)
    }

    func testPathLengthZeroAllowsIssuingLeaves() throws {
        let e = try evaluateUnder(intermediate: { $0.basicConstraints = .init(isCA: true, pathLength: 0) })
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.basicConstraints, 1)?.finding.as(BasicConstraintsFinding.self), .isCA(pathLength: 0))
    }

    // MARK: - Extensions

    func testUnknownCriticalExtensionOnTheLeafFails() throws {
        let e = try evaluateUnder(intermediate: { _ in }, leaf: { $0.rawExtensions = [unknownCriticalExtension] })
        XCTAssertEqual(e.failureSummaries, ["critical-extensions@0:failed(-67603)"])
        XCTAssertEqual(
            e.step(.criticalExtensions, 0)?.finding.as(ExtensionsFinding.self),
            .unknownCriticalExtension(oid: "1.3.6.1.4.1.55555.1"))
        assertVerdict(e, trusted: false, osstatus: -67603, urlError: -999)
    }

    func testUnknownCriticalExtensionOnAnIntermediateFailsUnderBasicToo() throws {
        let e = try evaluateUnder(intermediate: { $0.rawExtensions = [unknownCriticalExtension] }, policy: .basicX509)
        XCTAssertEqual(e.failureSummaries, ["critical-extensions@1:failed(-67603)"])
    }

    func testUnknownNonCriticalExtensionIsIgnored() throws {
        var ext = unknownCriticalExtension
        ext.critical = false
        let e = try evaluateUnder(intermediate: { _ in }, leaf: { $0.rawExtensions = [ext] })
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testDuplicateExtensionFails() throws {
        let bc = DERWriter.encode { w in w.sequence { $0.boolean(true) } }
        let e = try evaluateUnder(intermediate: {
            $0.rawExtensions = [.init(oid: OID.basicConstraints, critical: true, value: bc)]
        })
        XCTAssertEqual(e.failureSummaries, ["compliance@1:failed(-67903)"])
        assertVerdict(e, trusted: false, osstatus: -67903, urlError: -999)
    }

    func testMismatchedAuthorityKeyIdentifierFailsIdLinkage() throws {
        let e = try evaluateUnder(
            intermediate: { _ in },
            leaf: {
                $0.authorityKeyIdentifier = .explicit([UInt8](repeating: 0xAB, count: 20))
            })
        XCTAssertEqual(e.failures.map(\.osstatus), [-67610])
        XCTAssertEqual(e.failures.first?.appleFailure?.check, "IdLinkage")
        assertVerdict(e, trusted: false, osstatus: -67610, urlError: -999)
    }

    func testMissingKeyIdentifiersAreNotALinkageFailure() throws {
        let e = try evaluateUnder(
            intermediate: { $0.subjectKeyIdentifier = .omitted },
            leaf: { $0.authorityKeyIdentifier = .omitted })
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testLeafWithEmptySubjectAndNonCriticalSANFails() throws {
        let e = try evaluateUnder(intermediate: { _ in }, leaf: { $0.subject = .empty })
        XCTAssertEqual(e.failureSummaries, ["compliance@0:failed(-67655)"])
        assertVerdict(e, trusted: false, osstatus: -67655, urlError: -999)
    }

    func testLeafWithEmptySubjectAndCriticalSANIsAccepted() throws {
        let e = try evaluateUnder(
            intermediate: { _ in },
            leaf: {
                $0.subject = .empty
                $0.subjectAltNames?.critical = true
            })
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
    }

    func testIntermediateWithAnEmptySubjectFails() throws {
        let e = try evaluateUnder(intermediate: { $0.subject = .empty })
        XCTAssertEqual(e.failureSummaries, ["compliance@1:failed(-67655)"])
        XCTAssertEqual(e.verdict.osstatus, -67655)
    }

    // MARK: - Name constraints

    func testLeafOutsidePermittedDNSSubtreeFails() throws {
        let e = try evaluateUnder(intermediate: { $0.nameConstraints = .init(permitted: [.dnsName("example.org")]) })
        XCTAssertEqual(e.failureSummaries, ["name-constraints@0:failed(-67689)"])
        assertVerdict(e, trusted: false, osstatus: -67689, urlError: -999)
        XCTAssertEqual(e.verdict.osstatusName, "errSecInvalidName")
    }

    func testLeafInsidePermittedDNSSubtreePasses() throws {
        let e = try evaluateUnder(intermediate: { $0.nameConstraints = .init(permitted: [.dnsName("example.com")]) })
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertEqual(e.step(.nameConstraints, 0)?.status, .passed)
        XCTAssertEqual(e.step(.nameConstraints, 1)?.status, nil, "the constrained CA itself is not checked")
    }

    func testLeafInsideExcludedDNSSubtreeFails() throws {
        let e = try evaluateUnder(intermediate: {
            $0.nameConstraints = .init(excluded: [.dnsName("www.example.com")])
        })
        XCTAssertEqual(e.failureSummaries, ["name-constraints@0:failed(-67689)"])
    }

    func testLeafIPOutsidePermittedSubnetFails() throws {
        let root = try TestPKI.root()
        let subnet = try GeneralName.ipSubnet("10.0.0.0/8")
        let int = try TestPKI.intermediate(issuer: root) { $0.nameConstraints = .init(permitted: [subnet]) }
        for (host, passes) in [("10.1.2.3", true), ("192.168.1.1", false)] {
            let leaf = try TestPKI.leaf(host, issuer: int)
            let e = try evaluate([leaf.certificate, int.certificate], TestPKI.ssl(host, anchors: [root.certificate]))
            XCTAssertEqual(e.failureSummaries, passes ? [] : ["name-constraints@0:failed(-67689)"], host)
        }
    }
}
