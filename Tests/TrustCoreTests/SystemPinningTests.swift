import AppleTrustData
import SuiteFixtures
import TrustReport
import TrustSupport
import XCTest

@testable import PathRules
@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Apple's system pinning of its own hosts (docs/steps.md, `system-pinning`): the expectations come
/// from the rules of security_certificates' Pinning/CertificatePinning.plist and trustd's use of
/// them, not from running trustx.
final class SystemPinningTests: XCTestCase {
    /// A TLS-inspection proxy's root, installed and trusted on the device, and a leaf it minted for `host`.
    static func proxied(_ host: String) throws -> (root: Issued, leaf: Issued) {
        let root = try TestPKI.root("Inspection Proxy Root")
        return (root, try TestPKI.leaf(host, issuer: root))
    }

    func testAPinnedAppleHostIsRefusedThroughADeviceInstalledRoot() throws {
        let (root, leaf) = try Self.proxied("gateway.icloud.com")
        let e = try evaluate(
            [leaf.certificate], TestPKI.ssl("gateway.icloud.com", anchors: [root.certificate], anchorClass: .device))
        // MMCS's first rule: an Apple anchor, three certificates, Apple's intermediate and leaf markers.
        XCTAssertEqual(
            e.failures.compactMap(\.appleFailure?.check),
            ["AnchorApple", "ChainLength", "IntermediateMarkerOid", "LeafMarkersProdAndQA"])
        XCTAssertEqual(e.failures.first?.finding.as(SystemPinningFinding.self)?.policy, "MMCS")
        // AnchorApple: errSecInvalidRoot (CSSMERR_APPLETP_CA_PIN_MISMATCH), subtype Pinning.
        assertVerdict(e, trusted: false, osstatus: -67612, urlError: -1202, resultType: .recoverableTrustFailure)
        XCTAssertEqual(e.verdict.decisiveStep?.id, .systemPinning)
        XCTAssertTrue(e.verdict.decisiveStep?.detail.hasPrefix("Apple pins this host to its own CAs") ?? false)
    }

    func testTheTextReportSaysApplePinsTheHost() throws {
        let (root, leaf) = try Self.proxied("gateway.icloud.com")
        let e = try evaluate(
            [leaf.certificate], TestPKI.ssl("gateway.icloud.com", anchors: [root.certificate], anchorClass: .device))
        let text = TextReport.render(e)
        XCTAssertTrue(text.contains("Apple pins this host to its own CAs"), text)
        XCTAssertTrue(text.contains("system-pinning") || text.contains("Anchor is not an Apple root"), text)
    }

    func testAnUnpinnedHostIsTrustedThroughTheSameDeviceInstalledRoot() throws {
        let (root, leaf) = try Self.proxied("www.example.com")
        let e = try evaluate(
            [leaf.certificate], TestPKI.ssl("www.example.com", anchors: [root.certificate], anchorClass: .device))
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
        XCTAssertFalse(e.steps.contains { $0.id == .systemPinning })
    }

    func testAnAppSetAnchorDoesNotLiftThePinEither() throws {
        let (root, leaf) = try Self.proxied("gateway.icloud.com")
        let e = try evaluate([leaf.certificate], TestPKI.ssl("gateway.icloud.com", anchors: [root.certificate]))
        assertVerdict(e, trusted: false, osstatus: -67612, urlError: -999)
    }

    func testAThreeCertificatePathStillNeedsAppleAnchorAndMarkers() throws {
        let root = try TestPKI.root("Inspection Proxy Root")
        let int = try TestPKI.intermediate("Inspection Proxy CA", issuer: root)
        let leaf = try TestPKI.leaf("p42-content.icloud.com", issuer: int)
        let e = try evaluate(
            [leaf.certificate, int.certificate],
            TestPKI.ssl("p42-content.icloud.com", anchors: [root.certificate], anchorClass: .device))
        XCTAssertEqual(
            e.failures.compactMap(\.appleFailure?.check),
            ["AnchorApple", "IntermediateMarkerOid", "LeafMarkersProdAndQA"])
        assertVerdict(e, trusted: false, osstatus: -67612, urlError: -1202)
    }

    func testTheBasicPolicyAndAnSSLPolicyWithoutHostPinNothing() throws {
        let (root, leaf) = try Self.proxied("gateway.icloud.com")
        for settings in [TestPKI.basic(anchors: [root.certificate]), TestPKI.ssl(nil, anchors: [root.certificate])] {
            let e = try evaluate([leaf.certificate], settings)
            assertVerdict(e, trusted: true, osstatus: 0, urlError: nil)
            XCTAssertFalse(e.steps.contains { $0.id == .systemPinning }, settings.policy.identifier)
        }
    }

    func testTheWebPKIProfilePinsNothing() throws {
        let (root, leaf) = try Self.proxied("gateway.icloud.com")
        var settings = TestPKI.ssl("gateway.icloud.com", anchors: [root.certificate])
        settings.profile = .webpki
        let e = try evaluate([leaf.certificate], settings)
        XCTAssertFalse(e.steps.contains { $0.id == .systemPinning })
    }

    // MARK: - Which hosts: suffix and label rules

    func testTheSuffixMustEqualEverythingAfterTheFirstLabel() {
        // MMCS: suffix icloud.com, label pattern with ^gateway.
        XCTAssertEqual(SystemPinning.match(host: "gateway.icloud.com")?.policyName, "MMCS")
        XCTAssertEqual(SystemPinning.match(host: "gateway.icloud.com.cn")?.policyName, "MMCS")
        XCTAssertNil(SystemPinning.match(host: "gateway.eu.icloud.com"), "the suffix is eu.icloud.com")
        XCTAssertNil(SystemPinning.match(host: "gateway.icloud.com.example"))
        XCTAssertNil(SystemPinning.match(host: "icloud.com"), "the suffix is com")
        XCTAssertNil(SystemPinning.match(host: "localhost"), "no dot, no suffix")
        // One trailing dot is dropped from the suffix; its case is compared exactly (SQL equality).
        XCTAssertEqual(SystemPinning.match(host: "gateway.icloud.com.")?.policyName, "MMCS")
        XCTAssertNil(SystemPinning.match(host: "gateway.ICLOUD.com"))
    }

    func testAnIPAddressIsNeverPinnedBecauseNoPinnedSuffixCanEndOne() {
        // The shortcut for IP addresses changes no answer: a host under any pinned suffix is not an
        // IP address (every suffix ends in a name, not a number).
        for policy in ApplePinningData.policies {
            for domain in policy.domains {
                XCTAssertNil(parseIPAddress("1." + domain.suffix), domain.suffix)
                XCTAssertNil(parseIPAddress("::1." + domain.suffix), domain.suffix)
            }
        }
        XCTAssertNil(SystemPinning.match(host: "127.0.0.1"))
        XCTAssertNil(SystemPinning.match(host: "::1"))
    }

    func testTheLabelPatternIsSearchedIgnoringCase() {
        // ^gateway is a prefix, not the whole label; the search ignores case.
        XCTAssertEqual(SystemPinning.match(host: "gateway-eu.icloud.com")?.policyName, "MMCS")
        XCTAssertEqual(SystemPinning.match(host: "GATEWAY.icloud.com")?.policyName, "MMCS")
        XCTAssertNil(SystemPinning.match(host: "www.icloud.com"), "no MMCS label pattern matches www")
        // ^p[0-9]{0,3}-content$: up to three digits, and nothing after.
        XCTAssertEqual(SystemPinning.match(host: "p123-content.icloud.com")?.policyName, "MMCS")
        XCTAssertNil(SystemPinning.match(host: "p1234-content.icloud.com"))
        // IDS: ps2ls|sc5mv is unanchored, so it is found inside a longer label.
        XCTAssertEqual(SystemPinning.match(host: "xps2lsx.apple.com")?.policyName, "IDS")
        // IDS: ^(?!.*(init|support|splunk)).* under ess.apple.com: every label but those.
        XCTAssertEqual(SystemPinning.match(host: "anything.ess.apple.com")?.policyName, "IDS")
        XCTAssertNil(SystemPinning.match(host: "p01-init.ess.apple.com"))
        XCTAssertNil(SystemPinning.match(host: "www.example.com"))
    }

    func testAnOverlongFirstLabelMatchesNothing() {
        XCTAssertNil(SystemPinning.match(host: "gateway" + String(repeating: "x", count: 64) + ".icloud.com"))
        XCTAssertNotNil(SystemPinning.match(host: "gateway" + String(repeating: "x", count: 56) + ".icloud.com"))
    }

    func testEveryLabelPatternOfTheCompiledDataCompiles() {
        // A pattern the regular-expression engine refused would silently pin nothing.
        for policy in ApplePinningData.policies {
            for domain in policy.domains {
                XCTAssertNoThrow(try Regex(domain.labelPattern), "\(policy.name): \(domain.labelPattern)")
            }
        }
    }

    func testTheCLibrarysMatcherAgreesWithRegexOnEveryPatternItReads() {
        // The POSIX fast path must mean what ICU means (D216): every shipped pattern it accepts,
        // against labels that hit and miss anchors, alternatives, classes, bounded repeats,
        // optional groups and case.
        let labels = [
            "", "gateway", "GATEWAY", "p01-content", "P123-CKDATABASE-x", "p1234-content", "api", "amp-api",
            "amp-api-carry", "xp", "www", "wwwx", "fmipalservice", "myfmipalservice", "quota", "iquota", "init",
            "support", "courier2", "cl3", "cl6-cn", "pos-device-cert-qa12", "idmsa-x-s", "idmsa--s", "tula-aws-usw2",
            "nc-pod7-device-asset-ccs", "cn-smp-device", "smp-device", "ontologyx", "konut-cdn-cert", "gsra-stg",
            "csig-pv-cert", "cabana-", "vs-tps-device-stage", "a-wpc-device", "sh-pod12-smp-device-dr", "ingest",
            "Ingest", "ingestx", "report", "passport", "sc5mv", "homekit", "int-courier", "x-pallas-y",
        ]
        // Each distinct pattern once, compiled once: several domains share one, and compiling a
        // Regex is what this comparison spends its time on.
        var patterns: [String] = []
        for policy in ApplePinningData.policies {
            for domain in policy.domains where !patterns.contains(domain.labelPattern) {
                patterns.append(domain.labelPattern)
            }
        }
        var fastPatterns = 0
        for pattern in patterns {
            let regex = SystemPinning.compiledRegex(pattern)
            var fast = false
            for label in labels {
                guard let posix = SystemPinning.posixMatches(label, pattern: pattern) else { continue }
                fast = true
                // A pattern POSIX compiles and Regex does not would match nothing through Regex.
                let viaRegex = regex.map { SystemPinning.regexMatches(label, regex: $0) } ?? false
                XCTAssertEqual(posix, viaRegex, "\(pattern) on \(label)")
            }
            if fast { fastPatterns += 1 }
        }
        // Only the lookahead patterns go to Regex: the fast path covers the rest.
        XCTAssertGreaterThan(fastPatterns, 80, "of \(patterns.count) distinct patterns")
        XCTAssertLessThanOrEqual(patterns.count - fastPatterns, 2)
    }

    // MARK: - The rule checks, against a rule naming this test's own PKI

    /// A root, an intermediate and a leaf shaped like Apple's: country and organization on the
    /// intermediate, `intermediateMarker` and `leafMarker` extensions when given.
    static func appleShaped(
        intermediateMarker: CertificateBuilder.RawExtension?, leafMarker: CertificateBuilder.RawExtension?
    ) throws -> [Certificate] {
        let root = try TestPKI.root("Pinned Root")
        let int = try TestPKI.intermediate(issuer: root) { b in
            b.subject = [.country("US"), .organization("Apple Inc."), .commonName("Pinned CA")]
            b.rawExtensions = intermediateMarker.map { [$0] } ?? []
        }
        let leaf = try TestPKI.leaf("gateway.icloud.com", issuer: int) { b in
            b.rawExtensions = leafMarker.map { [$0] } ?? []
        }
        return [leaf.certificate, int.certificate, root.certificate]
    }

    static func rule(anchor: Certificate, leafMarkers: [ApplePinningMarker]) -> ApplePinningRule {
        ApplePinningRule(
            anchorApple: false, anchorSHA256: [hexString(anchor.sha256)], chainLength: 3,
            intermediateMarkerOID: "1.2.840.113635.100.6.2.12", intermediateCountry: "US",
            intermediateOrganization: "Apple Inc.", leafMarkerOID: nil, leafMarkersProduction: leafMarkers,
            subjectOrganization: nil, certificatePolicy: nil, revocation: "AnyRevocationMethod")
    }

    static func failures(_ rule: ApplePinningRule, _ path: [Certificate]) -> [String] {
        let built = BuiltPath(
            certificates: path, sources: [.presented, .presented, .anchor], anchorClass: .device,
            endsSelfSigned: true, depthExceeded: false, rejected: [])
        let context = CheckContext(
            path: built, settings: TestPKI.ssl("gateway.icloud.com"), cache: SignatureCache(), understoodExtensions: nil
        )
        return SystemPinningCheck.failures(of: rule, policy: "Test", context).compactMap(\.appleFailure?.check)
    }

    static let null = [UInt8]([0x05, 0x00])
    static func utf8(_ s: String) -> [UInt8] { [0x0C, UInt8(s.utf8.count)] + Array(s.utf8) }

    func testARuleHoldsWithItsAnchorMarkersAndNames() throws {
        let path = try Self.appleShaped(
            intermediateMarker: .init(
                oid: OID(dotted: "1.2.840.113635.100.6.2.12")!, critical: false, value: Self.null),
            leafMarker: .init(
                oid: OID(dotted: "1.2.840.113635.100.6.48.1")!, critical: false,
                value: Self.utf8("1.2.840.113635.100.6.27.11.2")))
        let markers = [
            ApplePinningMarker(oid: "1.2.840.113635.100.6.27.11.2", value: nil),
            ApplePinningMarker(oid: "1.2.840.113635.100.6.48.1", value: "1.2.840.113635.100.6.27.11.2"),
        ]
        XCTAssertEqual(Self.failures(Self.rule(anchor: path[2], leafMarkers: markers), path), [])
        // A marker with another value, or a string where a NULL is wanted, is no marker.
        let other = [ApplePinningMarker(oid: "1.2.840.113635.100.6.48.1", value: "1.2.840.113635.100.6.27.11.1")]
        XCTAssertEqual(Self.failures(Self.rule(anchor: path[2], leafMarkers: other), path), ["LeafMarkersProdAndQA"])
        let asNull = [ApplePinningMarker(oid: "1.2.840.113635.100.6.48.1", value: nil)]
        XCTAssertEqual(Self.failures(Self.rule(anchor: path[2], leafMarkers: asNull), path), ["LeafMarkersProdAndQA"])
    }

    func testARuleFailsOnAnotherAnchorAndMissingMarkers() throws {
        let path = try Self.appleShaped(intermediateMarker: nil, leafMarker: nil)
        let other = try TestPKI.root("Someone Else")
        let markers = [ApplePinningMarker(oid: "1.2.840.113635.100.6.27.11.2", value: nil)]
        XCTAssertEqual(
            Self.failures(Self.rule(anchor: other.certificate, leafMarkers: markers), path),
            ["AnchorSHA256", "IntermediateMarkerOid", "LeafMarkersProdAndQA"])
    }

    // MARK: - The compiled data

    /// The canonical text gen_pinning.py hashes, written from the compiled values.
    static func canonicalText() -> String {
        var lines = ["version\t\(ApplePinningData.version)"]
        func add(_ key: String, _ value: String?) { if let value { lines.append("\(key)\t\(value)") } }
        for p in ApplePinningData.policies {
            lines.append("policy\t\(p.name)\t\(p.transparentConnection ? 1 : 0)")
            for d in p.domains { lines.append("domain\t\(d.suffix)\t\(d.labelPattern)") }
            for r in p.rules {
                lines.append("rule")
                if r.anchorApple { lines.append("anchorApple") }
                for digest in r.anchorSHA256 { lines.append("anchorSHA256\t\(digest)") }
                add("chainLength", r.chainLength.map(String.init))
                add("intermediateMarkerOID", r.intermediateMarkerOID)
                add("intermediateCountry", r.intermediateCountry)
                add("intermediateOrganization", r.intermediateOrganization)
                add("subjectOrganization", r.subjectOrganization)
                add("certificatePolicy", r.certificatePolicy)
                add("revocation", r.revocation)
                for (key, markers) in [
                    ("leafMarkerOID", r.leafMarkerOID), ("leafMarkersProduction", r.leafMarkersProduction),
                ] {
                    guard let markers else { continue }
                    lines.append(key)
                    for m in markers { lines.append("marker\t\(m.oid)" + (m.value.map { "\t\($0)" } ?? "")) }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func testTheCompiledPinsMatchTheirRecordedDigestAndTag() {
        XCTAssertEqual(hexString(Digest.sha256(Array(Self.canonicalText().utf8))), ApplePinningData.sha256)
        XCTAssertEqual(ApplePinningData.tag, AppleTrustDataSource.tag)
    }
}
