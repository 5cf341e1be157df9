import SuiteFixtures
import TrustSupport
import XCTest

@testable import ATSModel
@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// The ATS and NSPinnedDomains steps in evaluations, and the verdict order of docs/ats.md:
/// -1022 before connecting, handshake failures (-1200), SecTrust with NSPinnedDomains (-1202, or
/// -1200 when NSPinnedDomains decides), then ATS's certificate minimums (-1200).
final class ATSEvaluationTests: XCTestCase {
    static let tls13 = NegotiatedTLS(
        version: .tls1_3, cipherSuite: 0x1301, cipherName: "TLS_AES_128_GCM_SHA256", group: "X25519")
    static let tls12ECDHE = NegotiatedTLS(
        version: .tls1_2, cipherSuite: 0xC02F, cipherName: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", group: "secp256r1")
    static let tls12RSA = NegotiatedTLS(
        version: .tls1_2, cipherSuite: 0x009C, cipherName: "TLS_RSA_WITH_AES_128_GCM_SHA256", group: nil)
    static let tls12DHE = NegotiatedTLS(
        version: .tls1_2, cipherSuite: 0x009E, cipherName: "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", group: "ffdhe2048")
    static let tls11 = NegotiatedTLS(
        version: .tls1_1, cipherSuite: 0xC013, cipherName: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", group: "secp256r1")

    func run(
        _ chain: TestPKI.Chain, host: String? = TestPKI.host, ats: ATSConfiguration = ATSConfiguration(),
        scheme: URLScheme = .https, negotiated: NegotiatedTLS? = tls13, pins: [[UInt8]] = []
    ) throws -> Evaluation {
        // A device-trusted root: URLSession's default handling decides, so no delegate turns a
        // rejection into -999 (pins given here model the delegate, which does).
        var s = TestPKI.ssl(host, anchors: [chain.root.certificate], anchorClass: .device, pins: pins)
        s.ats = ATSSettings(configuration: ats, scheme: scheme)
        s.negotiated = negotiated
        return try evaluate(chain.presented, s)
    }

    func step(_ e: Evaluation, _ id: StepID, _ certificate: Int? = nil) -> Step? {
        e.steps.first { $0.id == id && (certificate == nil || $0.certificate == certificate) }
    }

    func testTLS13WithDefaultsPassesEveryATSStep() throws {
        let e = try run(try TestPKI.chain())
        XCTAssertTrue(e.verdict.trusted, e.verdict.summary)
        let ats = e.steps.filter { $0.id.rawValue.hasPrefix("ats-") }
        XCTAssertEqual(
            ats.map(\.summary),
            [
                "ats-tls-version@-:passed", "ats-cipher@-:passed", "ats-forward-secrecy@-:passed",
                "ats-key-size@0:passed", "ats-key-size@1:passed", "ats-key-size@2:passed",
                "ats-signature-hash@0:passed", "ats-signature-hash@1:passed", "ats-signature-hash@2:not-applicable",
            ])
        XCTAssertEqual(e.atsPolicy?.enforced, true)
    }

    func testWithoutATSThereAreNoATSSteps() throws {
        let chain = try TestPKI.chain()
        let e = try evaluate(chain.presented, TestPKI.ssl(anchors: [chain.root.certificate]))
        XCTAssertFalse(e.steps.contains { $0.id.rawValue.hasPrefix("ats-") || $0.id == .pinnedDomains })
        XCTAssertNil(e.atsPolicy)
    }

    func testTLS11IsRefusedInTheHandshakeWith1200() throws {
        let e = try run(try TestPKI.chain(), negotiated: Self.tls11, pins: [[UInt8](repeating: 1, count: 32)])
        XCTAssertEqual(step(e, .atsTLSVersion)?.status, .failed)
        XCTAssertFalse(e.verdict.trusted)
        XCTAssertEqual(e.verdict.urlError, -1200)
        XCTAssertEqual(e.verdict.osstatus, -9881)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .atsTLSVersion)
        XCTAssertTrue(e.verdict.summary.contains("stream error -9802"), e.verdict.summary)
        // The delegate's pins are never asked.
        XCTAssertEqual(step(e, .pin)?.status.identifier, "skipped")
        let excepted = ATSConfiguration(exceptionDomains: [
            .init(domain: TestPKI.host, minimumTLSVersionText: "TLSv1.1")
        ])
        XCTAssertTrue(try run(try TestPKI.chain(), ats: excepted, negotiated: Self.tls11).verdict.trusted)
        let misspelt = ATSConfiguration(exceptionDomains: [
            .init(domain: TestPKI.host, minimumTLSVersionText: "TLSv1.1 ")
        ])
        XCTAssertEqual(try run(try TestPKI.chain(), ats: misspelt, negotiated: Self.tls11).verdict.urlError, -1200)
    }

    func testRSAKeyExchangeNeedsForwardSecrecyOff() throws {
        let chain = try TestPKI.chain()
        let e = try run(chain, negotiated: Self.tls12RSA)
        XCTAssertEqual(step(e, .atsCipher)?.status, .failed)
        XCTAssertEqual(step(e, .atsForwardSecrecy)?.status, .failed)
        XCTAssertEqual(e.verdict.osstatus, -9882)
        XCTAssertEqual(e.verdict.urlError, -1200)
        let off = ATSConfiguration(exceptionDomains: [.init(domain: TestPKI.host, requiresForwardSecrecy: false)])
        let ok = try run(chain, ats: off, negotiated: Self.tls12RSA)
        XCTAssertTrue(ok.verdict.trusted, ok.verdict.summary)
        XCTAssertEqual(step(ok, .atsCipher)?.status, .passed)
        XCTAssertEqual(step(ok, .atsForwardSecrecy)?.status, .notApplicable)
        XCTAssertTrue(try run(chain, negotiated: Self.tls12ECDHE).verdict.trusted)
    }

    func testDHESuitesAreNotATSSuites() throws {
        let e = try run(try TestPKI.chain(), negotiated: Self.tls12DHE)
        XCTAssertEqual(step(e, .atsCipher)?.status, .failed)
        XCTAssertEqual(step(e, .atsForwardSecrecy)?.status, .passed, "DHE is forward secret, but not offered")
    }

    func testChainsFromFilesSkipTheConnectionSteps() throws {
        let e = try run(try TestPKI.chain(), negotiated: nil)
        for id in [StepID.atsTLSVersion, .atsCipher, .atsForwardSecrecy] {
            XCTAssertEqual(step(e, id)?.status, .skipped("no connection: the chain came from files"))
        }
        XCTAssertEqual(step(e, .atsKeySize, 0)?.status, .passed)
        XCTAssertTrue(e.verdict.trusted)
    }

    func testLocalHostsAreExemptWithTheReason() throws {
        let chain = try TestPKI.chain(host: "printer.local")
        let e = try run(chain, host: "printer.local", negotiated: Self.tls11)
        XCTAssertTrue(e.verdict.trusted, e.verdict.summary)
        for id in [StepID.atsTLSVersion, .atsCipher, .atsForwardSecrecy, .atsKeySize, .atsSignatureHash] {
            XCTAssertEqual(step(e, id)?.status, .skipped("printer.local is a .local name, which ATS exempts"))
        }
        let strict = try run(
            chain, host: "printer.local", ats: ATSConfiguration(allowsLocalNetworking: false), negotiated: Self.tls11)
        XCTAssertEqual(strict.verdict.urlError, -1200)
    }

    func testHTTPIsRefusedBeforeConnectingUnlessAllowed() throws {
        let chain = try TestPKI.chain()
        let e = try run(chain, scheme: .http)
        XCTAssertEqual(e.verdict.urlError, -1022)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .atsTLSVersion)
        XCTAssertEqual(step(e, .atsCipher)?.status, .skipped("URLSession refuses the http:// URL before connecting"))
        let allowed = ATSConfiguration(exceptionDomains: [.init(domain: TestPKI.host, allowsInsecureHTTPLoads: true)])
        let a = try run(chain, ats: allowed, scheme: .http)
        XCTAssertEqual(step(a, .atsTLSVersion)?.status, .passed)
        XCTAssertNotEqual(a.verdict.urlError, -1022)
        XCTAssertNotEqual(
            try run(chain, ats: ATSConfiguration(allowsArbitraryLoads: true), scheme: .http).verdict.urlError, -1022)
        // A trust failure does not hide the refusal: nothing is connected.
        let wrongHost = try run(chain, host: "other.example.com", scheme: .http)
        XCTAssertEqual(wrongHost.verdict.urlError, -1022)
    }

    func testCertificateMinimumsDecideOnlyWhenEvaluationPassed() throws {
        // A 1024-bit RSA leaf that the device trusts itself: Apple's SSL policy skips its key-size
        // minimum for such a leaf, ATS does not.
        let key = try TestPKI.sharedKey(.rsa(bits: 1024))
        let leaf = try TestPKI.selfSignedLeaf(key: key)
        var s = TestPKI.ssl(anchors: [leaf.certificate], anchorClass: .device)
        s.ats = ATSSettings()
        s.negotiated = Self.tls13
        let e = try evaluate([leaf.certificate], s)
        XCTAssertEqual(step(e, .keySize, 0)?.status.identifier, "skipped")
        XCTAssertEqual(step(e, .atsKeySize, 0)?.status, .failed)
        XCTAssertEqual(e.verdict.urlError, -1200)
        XCTAssertEqual(e.verdict.osstatus, -9883)
        // Under an app anchor SecTrust fails the same key first: -999 (the delegate decides).
        var app = TestPKI.ssl(anchors: [leaf.certificate])
        app.ats = ATSSettings()
        app.negotiated = Self.tls13
        let t = try evaluate([leaf.certificate], app)
        XCTAssertEqual(t.verdict.osstatus, -67735)
        XCTAssertEqual(t.verdict.urlError, -999)
    }

    func testSHA1OnAnIntermediateFailsTheHashStepWithTheChainCode() throws {
        let root = try TestPKI.root()
        let intermediate = try TestPKI.intermediate(issuer: root) { $0.signatureAlgorithm = .ecdsaWithSHA1 }
        let leaf = try TestPKI.leaf(issuer: intermediate)
        let chain = TestPKI.Chain(root: root, intermediate: intermediate, leaf: leaf)
        let e = try run(chain)
        XCTAssertEqual(step(e, .atsSignatureHash, 1)?.finding.atsFailure?.osstatus, -9885)
        XCTAssertEqual(step(e, .atsSignatureHash, 0)?.status, .passed)
        // SecTrust fails SHA-1 too, and its verdict stands.
        XCTAssertEqual(e.verdict.osstatus, -67815)
    }

    // MARK: NSPinnedDomains

    func pinned(_ entries: [PinnedDomain], arbitrary: Bool? = nil) -> ATSConfiguration {
        ATSConfiguration(allowsArbitraryLoads: arbitrary, pinnedDomains: entries)
    }

    func id(_ c: Certificate) -> PinnedIdentity { PinnedIdentity(text: c.spkiPin) }
    let stranger = PinnedIdentity(text: Base64.encode([UInt8](repeating: 7, count: 32)))

    func testLeafAndCAPinsMustBothMatch() throws {
        let chain = try TestPKI.chain()
        let both = try run(
            chain,
            ats: pinned([
                .init(
                    domain: TestPKI.host, leafIdentities: [id(chain.leaf.certificate)],
                    caIdentities: [id(chain.root.certificate)])
            ]))
        XCTAssertTrue(both.verdict.trusted, both.verdict.summary)
        XCTAssertEqual(step(both, .pinnedDomains, 0)?.status, .passed)
        XCTAssertEqual(step(both, .pinnedDomains, 2)?.status, .passed, "the root from the anchors counts")
        let caWrong = try run(
            chain,
            ats: pinned([
                .init(domain: TestPKI.host, leafIdentities: [id(chain.leaf.certificate)], caIdentities: [stranger])
            ]))
        XCTAssertFalse(caWrong.verdict.trusted)
        XCTAssertEqual(caWrong.verdict.osstatus, -9886)
        XCTAssertEqual(caWrong.verdict.urlError, -1200)
        XCTAssertEqual(caWrong.verdict.decisiveStep?.finding.appleFailure?.check, "CAspkiSHA256")
        let leafWrong = try run(
            chain,
            ats: pinned([
                .init(
                    domain: TestPKI.host, leafIdentities: [stranger], caIdentities: [id(chain.intermediate.certificate)]
                )
            ]))
        XCTAssertEqual(leafWrong.verdict.decisiveStep?.finding.appleFailure?.check, "LeafSPKISHA256")
        XCTAssertEqual(step(leafWrong, .pinnedDomains, 1)?.status, .passed)
    }

    func testAnyPinWithinACategoryIsEnough() throws {
        let chain = try TestPKI.chain()
        let e = try run(
            chain,
            ats: pinned([.init(domain: TestPKI.host, caIdentities: [stranger, id(chain.intermediate.certificate)])]))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertEqual(step(e, .pinnedDomains, 1)?.status, .passed)
    }

    func testEmptyOrInvalidListsAlwaysFail() throws {
        let chain = try TestPKI.chain()
        for ids: [PinnedIdentity] in [
            [], [PinnedIdentity(text: "not base64!"), PinnedIdentity(text: Base64.encode([1, 2, 3]))],
        ] {
            let e = try run(chain, ats: pinned([.init(domain: TestPKI.host, leafIdentities: ids)]))
            XCTAssertEqual(step(e, .pinnedDomains, 0)?.status, .failed, "\(ids)")
            XCTAssertEqual(e.verdict.urlError, -1200)
        }
    }

    func testAOneCertificatePathFailsTheCACategory() throws {
        let leaf = try TestPKI.selfSignedLeaf()
        var s = TestPKI.ssl(anchors: [leaf.certificate], anchorClass: .device)
        s.ats = ATSSettings(configuration: pinned([.init(domain: TestPKI.host, caIdentities: [id(leaf.certificate)])]))
        s.negotiated = Self.tls13
        let e = try evaluate([leaf.certificate], s)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .pinnedDomains)
        XCTAssertEqual(e.verdict.decisiveStep?.title, "NSPinnedCAIdentities: the path has no CA certificate")
    }

    func testHostMatchingIsOneLevelWithOneTrailingDot() throws {
        let chain = try TestPKI.chain(host: "api.example.com")
        let entry = PinnedDomain(domain: "Example.COM", includesSubdomains: true, leafIdentities: [stranger])
        XCTAssertEqual(try run(chain, host: "api.example.com", ats: pinned([entry])).verdict.urlError, -1200)
        XCTAssertEqual(try run(chain, host: "api.example.com.", ats: pinned([entry])).verdict.urlError, -1200)
        let deeper = try TestPKI.chain(host: "a.api.example.com")
        let d = try run(deeper, host: "a.api.example.com", ats: pinned([entry]))
        XCTAssertTrue(d.verdict.trusted, "NSPinnedDomains covers one level only")
        XCTAssertEqual(step(d, .pinnedDomains)?.status, .notApplicable)
        var noSub = entry
        noSub.includesSubdomains = false
        XCTAssertTrue(try run(chain, host: "api.example.com", ats: pinned([noSub])).verdict.trusted)
    }

    func testPinsOfEveryMatchingEntryAreUnioned() throws {
        let chain = try TestPKI.chain(host: "api.example.com")
        let e = try run(
            chain, host: "api.example.com",
            ats: pinned([
                .init(domain: "api.example.com", leafIdentities: [stranger]),
                .init(domain: "example.com", includesSubdomains: true, leafIdentities: [id(chain.leaf.certificate)]),
            ]))
        XCTAssertTrue(e.verdict.trusted, e.verdict.summary)
    }

    func testPinnedDomainsApplyEvenWithArbitraryLoads() throws {
        let chain = try TestPKI.chain()
        let e = try run(chain, ats: pinned([.init(domain: TestPKI.host, leafIdentities: [stranger])], arbitrary: true))
        XCTAssertEqual(e.atsPolicy?.enforced, false)
        XCTAssertEqual(e.verdict.urlError, -1200)
    }

    func testPinsNeverRelaxEvaluationAndOutrankAHostMismatch() throws {
        let chain = try TestPKI.chain()
        let good = [PinnedDomain(domain: "other.example.com", leafIdentities: [id(chain.leaf.certificate)])]
        // The pins match, the host does not: still not trusted.
        let mismatch = try run(chain, host: "other.example.com", ats: pinned(good))
        XCTAssertEqual(mismatch.verdict.osstatus, -67602)
        XCTAssertEqual(mismatch.verdict.urlError, -1202)
        // Pinning (subtype 5) outranks Name (subtype 2) in Apple's priority rule.
        let bad = [PinnedDomain(domain: "other.example.com", leafIdentities: [stranger])]
        let both = try run(chain, host: "other.example.com", ats: pinned(bad))
        XCTAssertEqual(both.verdict.osstatus, -9886)
        XCTAssertEqual(both.verdict.urlError, -1200)
    }

    func testSSLWithoutHostAndBasicDoNotConsultPinnedDomains() throws {
        let chain = try TestPKI.chain()
        let e = try run(chain, host: nil, ats: pinned([.init(domain: TestPKI.host, leafIdentities: [stranger])]))
        XCTAssertEqual(step(e, .pinnedDomains)?.status.identifier, "skipped")
        var s = TestPKI.basic(anchors: [chain.root.certificate])
        s.ats = ATSSettings(configuration: pinned([.init(domain: TestPKI.host, leafIdentities: [stranger])]))
        let b = try evaluate(chain.presented, s)
        XCTAssertEqual(step(b, .pinnedDomains)?.status, .notApplicable)
    }

    // MARK: pin advice

    func testPinAdviceForASingleLeafPin() throws {
        let chain = try TestPKI.chain()
        let e = try run(chain, pins: [chain.leaf.certificate.spkiSHA256])
        XCTAssertEqual(e.pinAdvice.map(\.identifier), ["single-pin", "leaf-only"])
        XCTAssertEqual(e.pinAdvice.first?.source, .option)
    }

    func testPinAdviceForPinsOutsideThePath() throws {
        let chain = try TestPKI.chain()
        let extra = try TestPKI.root("Unrelated Root")
        var s = TestPKI.ssl(
            anchors: [chain.root.certificate],
            pins: [
                chain.intermediate.certificate.spkiSHA256, extra.certificate.spkiSHA256,
                [UInt8](repeating: 9, count: 32),
            ])
        s.ats = ATSSettings()
        let e = try evaluate(chain.presented + [extra.certificate], s)
        XCTAssertEqual(e.pinAdvice.map(\.identifier), ["unused-presented", "matches-nothing"])
        XCTAssertEqual(e.pinAdvice.first?.kind, .unusedPresented(pin: extra.certificate.spkiPin, presentedIndex: 2))
    }

    func testPinAdviceForNSPinnedDomains() throws {
        let chain = try TestPKI.chain()
        let e = try run(chain, ats: pinned([.init(domain: TestPKI.host, leafIdentities: [id(chain.leaf.certificate)])]))
        XCTAssertEqual(e.pinAdvice.map(\.identifier), ["single-pin", "leaf-only"])
        XCTAssertEqual(e.pinAdvice.first?.source, .pinnedDomains(domains: [TestPKI.host], category: .leaf))
        let sound = try run(
            chain,
            ats: pinned([
                .init(
                    domain: TestPKI.host,
                    caIdentities: [id(chain.intermediate.certificate), id(chain.root.certificate)])
            ]))
        XCTAssertEqual(sound.pinAdvice, [])
    }
}
