import SuiteFixtures
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// RFC 5280 6.3's CRL rules, each with the verdict the RFC gives, evaluated with a positive
/// answer required (kSecRevocationRequirePositiveResponse): a certificate the CRLs do not decide
/// fails with RevocationResponseRequired (-67635), one they revoke with errSecCertificateRevoked
/// (-67820), and one they clear passes.
final class CRLScopeTests: XCTestCase {
    static let required = "revocation@0:failed(-67635)"
    static let revoked = "revocation@0:failed(-67820)"

    var root: Issued!
    var intermediate: Issued!

    override func setUpWithError() throws {
        root = try TestPKI.root()
        intermediate = try TestPKI.intermediate(issuer: root)
    }

    func leaf(points: [DistributionPoint]? = nil) throws -> Issued {
        try TestPKI.leaf(issuer: intermediate) { b in
            if let points { b.rawExtensions.append(CRLExtensionBuilder.distributionPoints(points)) }
        }
    }

    /// A CRL signed by `signer`, listing `revoking`, with `extensions` after its cRLNumber.
    func crl(
        _ signer: Issued, number: Int = 1, revoking: [Certificate] = [],
        entries: [(serialNumber: [UInt8], date: Timestamp, extensions: [CertificateBuilder.RawExtension])] = [],
        extensions: [CertificateBuilder.RawExtension] = [], nextUpdate: Timestamp = TestPKI.now + .days(6),
        crlNumberCritical: Bool = false
    ) throws -> RevocationList {
        var b = RevocationListBuilder(thisUpdate: TestPKI.now - .days(1), nextUpdate: nextUpdate)
        b.revoked = revoking.map { ($0.serialNumber, TestPKI.now - .days(2)) }
        b.entries = entries
        b.crlNumber = number
        b.crlNumberCritical = crlNumberCritical
        b.extensions = extensions
        return try b.sign(key: signer.key, issuer: signer.certificate)
    }

    /// The root's empty CRL, which clears the intermediate (and any other certificate the root issued).
    func rootCRL() throws -> RevocationList { try crl(root) }

    /// Evaluates `leaf` under Basic X.509 with `crls`, `others` presented beside the chain.
    func evaluate(
        _ leaf: Issued, _ crls: [RevocationList], others: [Certificate] = [], require: Bool = true
    ) throws -> Evaluation {
        var s = TestPKI.basic(anchors: [root.certificate])
        s.revocationLists = crls
        s.requireRevocation = require
        return try TrustCoreTests.evaluate([leaf.certificate, intermediate.certificate] + others, s)
    }

    static func idp(_ configure: (inout IssuingDistributionPoint) -> Void) -> CertificateBuilder.RawExtension {
        var idp = IssuingDistributionPoint(name: nil)
        configure(&idp)
        return CRLExtensionBuilder.issuingDistributionPoint(idp)
    }

    // MARK: Requirement

    func testWithoutAnyRevocationInformationARequiredAnswerFailsAndOtherwiseFailsOpen() throws {
        let leaf = try leaf()
        let e = try evaluate(leaf, [])
        XCTAssertEqual(e.failureSummaries, [Self.required, "revocation@1:failed(-67635)"])
        XCTAssertEqual(e.verdict.osstatus, -67635)
        XCTAssertEqual(e.verdict.resultType, .recoverableTrustFailure)
        XCTAssertTrue(try evaluate(leaf, [], require: false).verdict.trusted)
    }

    func testCRLsFromBothIssuersGiveThePositiveAnswer() throws {
        let leaf = try leaf()
        let e = try evaluate(leaf, [try rootCRL(), try crl(intermediate)])
        XCTAssertTrue(e.verdict.trusted, "\(e.failureSummaries)")
        XCTAssertEqual(e.step(.revocation, 0)?.status, .passed)
        XCTAssertTrue(e.step(.revocation, 0)?.detail.contains("CRLs considered: (1)") == true)
    }

    // MARK: issuingDistributionPoint scope

    func testACRLOfUserCertificatesOnlyDoesNotCoverACA() throws {
        let leaf = try leaf()
        let users = try crl(root, extensions: [Self.idp { $0.onlyContainsUserCerts = true }])
        let e = try evaluate(leaf, [users, try crl(intermediate)])
        XCTAssertEqual(e.failureSummaries, ["revocation@1:failed(-67635)"])
        let cas = try crl(root, extensions: [Self.idp { $0.onlyContainsCACerts = true }])
        XCTAssertTrue(try evaluate(leaf, [cas, try crl(intermediate)]).verdict.trusted)
    }

    func testACRLOfCACertificatesOnlyNeitherCoversNorRevokesALeaf() throws {
        let leaf = try leaf()
        let cas = try crl(
            intermediate, revoking: [leaf.certificate], extensions: [Self.idp { $0.onlyContainsCACerts = true }])
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), cas]).failureSummaries, [Self.required])
    }

    func testACRLOfAttributeCertificatesOnlyCoversNoCertificate() throws {
        let leaf = try leaf()
        let attributes = try crl(intermediate, extensions: [Self.idp { $0.onlyContainsAttributeCerts = true }])
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), attributes]).failureSummaries, [Self.required])
    }

    func testCRLsForSomeReasonsCoverACertificateOnlyTogether() throws {
        let leaf = try leaf()
        let key = RevocationReasons(rawValue: 1 << 1)
        let keyOnly = try crl(intermediate, number: 1, extensions: [Self.idp { $0.onlySomeReasons = key }])
        let rest = try crl(
            intermediate, number: 2,
            extensions: [Self.idp { $0.onlySomeReasons = RevocationReasons.all.subtracting(key) }])
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), keyOnly]).failureSummaries, [Self.required])
        XCTAssertTrue(try evaluate(leaf, [try rootCRL(), keyOnly, rest]).verdict.trusted)
    }

    func testTheDistributionPointNamesOfCertificateAndCRLMustMeet() throws {
        let here = DistributionPointName.fullName([.uri("http://crl.example/a.crl")])
        let elsewhere = DistributionPointName.fullName([.uri("http://crl.example/b.crl")])
        let leaf = try leaf(points: [DistributionPoint(name: here)])
        let other = try crl(intermediate, extensions: [Self.idp { $0.name = elsewhere }])
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), other]).failureSummaries, [Self.required])
        let same = try crl(intermediate, extensions: [Self.idp { $0.name = here }])
        XCTAssertTrue(try evaluate(leaf, [try rootCRL(), same]).verdict.trusted)
        // A certificate that names no distribution point is not in a CRL that names one.
        XCTAssertEqual(try evaluate(try self.leaf(), [try rootCRL(), same]).failureSummaries, [Self.required])
    }

    func testADistributionPointNameRelativeToTheIssuerMeetsTheFullNameItStandsFor() throws {
        // nameRelativeToCRLIssuer CN=crl1 under "O=trustx tests, CN=Test Intermediate" is the
        // directoryName "O=trustx tests, CN=Test Intermediate, CN=crl1" (RFC 5280 4.2.1.13).
        let relative = Array(NameBuilder([.commonName("crl1")]).der.dropFirst(2))
        let leaf = try leaf(points: [DistributionPoint(name: .relativeName(relative))])
        func named(_ last: String) throws -> DistinguishedName {
            let der = NameBuilder([.organization("trustx tests"), .commonName("Test Intermediate"), .commonName(last)])
                .der
            var r = DERReader(der)
            let node = try r.readNode()
            return try DistinguishedName.decode(r, node: node)
        }
        let crl1 = try named("crl1")
        let crl2 = try named("crl2")
        let same = try crl(intermediate, extensions: [Self.idp { $0.name = .fullName([.directoryName(crl1)]) }])
        XCTAssertTrue(try evaluate(leaf, [try rootCRL(), same]).verdict.trusted)
        let other = try crl(intermediate, extensions: [Self.idp { $0.name = .fullName([.directoryName(crl2)]) }])
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), other]).failureSummaries, [Self.required])
    }

    // MARK: Indirect CRLs

    /// A CRL issuer certified by the root, and a leaf whose distribution point names it.
    func indirectSetUp() throws -> (leaf: Issued, crlIssuer: Issued) {
        let crlIssuer = try TestPKI.intermediate("Test CRL Issuer", issuer: root) { b in
            b.basicConstraints = nil
            b.keyUsage = .init([.cRLSign])
        }
        let leaf = try leaf(points: [DistributionPoint(crlIssuer: [.directoryName(crlIssuer.certificate.subject)])])
        return (leaf, crlIssuer)
    }

    func testAnIndirectCRLRevokesTheCertificateItsEntryNamesWithCertificateIssuer() throws {
        let (leaf, crlIssuer) = try indirectSetUp()
        let entry = (
            leaf.certificate.serialNumber, TestPKI.now - .days(2),
            [CRLExtensionBuilder.certificateIssuer([.directoryName(intermediate.certificate.subject)])]
        )
        let indirect = try crl(crlIssuer, entries: [entry], extensions: [Self.idp { $0.indirectCRL = true }])
        let e = try evaluate(leaf, [try rootCRL(), indirect], others: [crlIssuer.certificate])
        XCTAssertEqual(e.failureSummaries, [Self.revoked])
        // The same CRL without indirectCRL is not the cRLIssuer's CRL for this certificate.
        let direct = try crl(crlIssuer, entries: [entry])
        let d = try evaluate(leaf, [try rootCRL(), direct], others: [crlIssuer.certificate])
        XCTAssertEqual(d.failureSummaries, [Self.required])
    }

    func testAnIndirectCRLEntryForAnotherIssuerDoesNotRevoke() throws {
        let (leaf, crlIssuer) = try indirectSetUp()
        let stranger = try TestPKI.root("Another CA")
        let entry = (
            leaf.certificate.serialNumber, TestPKI.now - .days(2),
            [CRLExtensionBuilder.certificateIssuer([.directoryName(stranger.certificate.subject)])]
        )
        let indirect = try crl(crlIssuer, entries: [entry], extensions: [Self.idp { $0.indirectCRL = true }])
        let e = try evaluate(leaf, [try rootCRL(), indirect], others: [crlIssuer.certificate])
        XCTAssertTrue(e.verdict.trusted, "\(e.failureSummaries)")
    }

    // MARK: The CRL's signer

    /// A certificate with the intermediate's name and another key, certified by the root, that
    /// signs the intermediate's CRLs (PKITS 4.4.19).
    func separateSigner(keyUsage: Set<KeyUsageBit>? = [.cRLSign]) throws -> Issued {
        try TestPKI.intermediate("Test Intermediate", issuer: root) { b in
            b.basicConstraints = nil
            b.keyUsage = keyUsage.map { .init($0) }
        }
    }

    func testASeparateCRLSigningKeyCertifiedOnThePathSignsTheCRL() throws {
        let leaf = try leaf()
        let signer = try separateSigner()
        let list = try crl(signer)
        XCTAssertTrue(try evaluate(leaf, [try rootCRL(), list], others: [signer.certificate]).verdict.trusted)
        // Without its certificate nothing on the path verifies the CRL.
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), list]).failureSummaries, [Self.required])
        // A revoked signer's CRLs cannot be used.
        let revokesSigner = try crl(root, revoking: [signer.certificate])
        let e = try evaluate(leaf, [revokesSigner, list], others: [signer.certificate])
        XCTAssertEqual(e.failureSummaries, [Self.required])
    }

    func testACRLSignerWithoutKeyUsageMaySignAndOneWithoutCRLSignMayNot() throws {
        let leaf = try leaf()
        let noKeyUsage = try separateSigner(keyUsage: nil)
        XCTAssertTrue(
            try evaluate(leaf, [try rootCRL(), try crl(noKeyUsage)], others: [noKeyUsage.certificate]).verdict.trusted)
        let noCRLSign = try separateSigner(keyUsage: [.digitalSignature])
        XCTAssertEqual(
            try evaluate(leaf, [try rootCRL(), try crl(noCRLSign)], others: [noCRLSign.certificate]).failureSummaries,
            [Self.required])
    }

    // MARK: Delta CRLs

    func testADeltaCRLRevokesBesideItsBaseAndRemoveFromCRLUnrevokes() throws {
        let leaf = try leaf()
        let base = try crl(intermediate, number: 1)
        let delta = try crl(
            intermediate, number: 2, revoking: [leaf.certificate],
            extensions: [CRLExtensionBuilder.deltaCRLIndicator(base: 1)])
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), base, delta]).failureSummaries, [Self.revoked])
        // A delta CRL alone is no answer (RFC 5280 5.2.4).
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), delta]).failureSummaries, [Self.required])
        // On hold in the base, removed in the delta: not revoked.
        let held = try crl(
            intermediate, number: 1,
            entries: [(leaf.certificate.serialNumber, TestPKI.now - .days(2), [CRLExtensionBuilder.reasonCode(6)])])
        let removed = try crl(
            intermediate, number: 2,
            entries: [(leaf.certificate.serialNumber, TestPKI.now - .days(1), [CRLExtensionBuilder.reasonCode(8)])],
            extensions: [CRLExtensionBuilder.deltaCRLIndicator(base: 1)])
        XCTAssertEqual(try evaluate(leaf, [try rootCRL(), held]).failureSummaries, [Self.revoked])
        XCTAssertTrue(try evaluate(leaf, [try rootCRL(), held, removed]).verdict.trusted)
    }

    // MARK: webpki (RFC 5280 path validation, as x509-limbo runs it)

    func testUnderWebPKIACRLWithForbiddenCriticalityFailsAndACRLSignerWithoutKeyUsageServes() throws {
        let leaf = try leaf()
        let signer = try separateSigner(keyUsage: nil)
        func evaluate(_ list: RevocationList) throws -> Evaluation {
            var s = TestPKI.ssl(anchors: [root.certificate])
            s.profile = .webpki
            s.caBrowserForumRules = false
            s.revocationLists = [list]
            return try TrustCoreTests.evaluate(
                [leaf.certificate, intermediate.certificate, signer.certificate], s)
        }
        // RFC 5280 4.2.1.3 asks for cRLSign only when keyUsage is present.
        XCTAssertEqual(try evaluate(try crl(signer, revoking: [leaf.certificate])).failureSummaries, [Self.revoked])
        let clear = try evaluate(try crl(signer))
        XCTAssertTrue(clear.verdict.trusted, "\(clear.failureSummaries)")
        // RFC 5280 5.2.3: cRLNumber is non-critical; a CRL marking it critical is not used, and
        // without usable information webpki cannot determine the status.
        let critical = try evaluate(try crl(signer, crlNumberCritical: true))
        XCTAssertEqual(critical.failureSummaries, ["revocation@0:failed(-67603)"])
    }

    // MARK: Decoding

    func testScopeExtensionsReadAsOpenSSLReadsThem() throws {
        let point = DistributionPointName.fullName([.uri("http://crl.example/a.crl")])
        let list = try crl(
            intermediate, number: 2,
            entries: [(leaf().certificate.serialNumber, TestPKI.now - .days(2), [CRLExtensionBuilder.reasonCode(1)])],
            extensions: [
                Self.idp {
                    $0.name = point
                    $0.onlySomeReasons = RevocationReasons(rawValue: 1 << 1)
                    $0.indirectCRL = true
                },
                CRLExtensionBuilder.deltaCRLIndicator(base: 1),
            ])
        let idp = try XCTUnwrap(list.issuingDistributionPoint)
        XCTAssertEqual(idp.name, point)
        XCTAssertEqual(idp.onlySomeReasons?.description, "keyCompromise")
        XCTAssertTrue(idp.indirectCRL)
        XCTAssertEqual(list.deltaBaseCRLNumber, [1])
        XCTAssertEqual(list.revoked.first?.reason, 1)
        // openssl reads the same encoding the same way.
        let dir = try TemporaryDirectory()
        let file = try dir.write("crl.pem", Array(PEM.encode(list.der, label: "X509 CRL").utf8))
        let text = try Shell.run("openssl crl -noout -text -in \(file)").text
        for expected in [
            "X509v3 Issuing Distribution Point: critical", "URI:http://crl.example/a.crl", "Key Compromise",
            "Indirect CRL", "X509v3 Delta CRL Indicator: critical",
        ] {
            XCTAssertTrue(text.contains(expected), "\(expected) in \(text)")
        }
    }

    // MARK: Criticality and currency

    func testCRLsWithCriticalExtensionsTheyMayNotHaveAreNotUsed() throws {
        let leaf = try leaf()
        let unknown = CertificateBuilder.RawExtension(
            oid: OID(dotted: "1.2.3.4.5")!, critical: true, value: DERWriter.encode { $0.null() })
        let cases: [(RevocationList, String)] = [
            (try crl(intermediate, revoking: [leaf.certificate], extensions: [unknown]), "critical extension"),
            (
                try crl(
                    intermediate,
                    entries: [(leaf.certificate.serialNumber, TestPKI.now - .days(2), [unknown])]),
                "an entry has a critical extension"
            ),
            (
                try crl(intermediate, revoking: [leaf.certificate], crlNumberCritical: true),
                "cRLNumber extension is critical"
            ),
            (try crl(intermediate, nextUpdate: TestPKI.now - .days(1)), "has passed"),
        ]
        for (list, why) in cases {
            let e = try evaluate(leaf, [try rootCRL(), list])
            XCTAssertEqual(e.failureSummaries, [Self.required], why)
            XCTAssertTrue(e.step(.revocation, 0)?.detail.contains(why) == true, e.step(.revocation, 0)?.detail ?? "")
            // Without the requirement, Apple's checking ignores what it cannot use.
            XCTAssertTrue(try evaluate(leaf, [try rootCRL(), list], require: false).verdict.trusted, why)
        }
    }
}
