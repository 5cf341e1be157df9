import SuiteFixtures
import XCTest

@testable import PathRules
@testable import TrustCore
@testable import TrustX509

/// SSLHostname through the whole evaluation (docs/steps.md): SAN only, wildcard rules, IPs.
final class HostnameEvaluationTests: XCTestCase {
    /// Evaluates a leaf with `names` as SAN (nil: no SAN extension) and CN `cn` against `host`.
    private func evaluateHost(_ host: String, san names: [GeneralName]?, cn: String = "leaf") throws -> Evaluation {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(cn, issuer: root) { $0.subjectAltNames = names.map { .init($0) } }
        return try evaluate([leaf.certificate], TestPKI.ssl(host, anchors: [root.certificate]))
    }

    private func assertMatches(
        _ host: String, _ names: [GeneralName], file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let e = try evaluateHost(host, san: names)
        XCTAssertEqual(e.step(.hostname, 0)?.status, .passed, "\(host) vs \(names)", file: file, line: line)
        assertVerdict(e, trusted: true, osstatus: 0, urlError: nil, file: file, line: line)
    }

    private func assertMismatch(
        _ host: String, _ names: [GeneralName]?, cn: String = "leaf",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let e = try evaluateHost(host, san: names, cn: cn)
        XCTAssertEqual(
            e.failureSummaries, ["hostname@0:failed(-67602)"], "\(host) vs \(String(describing: names))",
            file: file, line: line)
        assertVerdict(e, trusted: false, osstatus: -67602, urlError: -999, file: file, line: line)
        XCTAssertEqual(e.verdict.osstatusName, "errSecHostNameMismatch", file: file, line: line)
    }

    func testCommonNameIsNeverUsedWhenThereIsNoSAN() throws {
        try assertMismatch("www.example.com", nil, cn: "www.example.com")
    }

    func testCommonNameIsNeverUsedWhenTheSANListsOtherNames() throws {
        try assertMismatch("www.example.com", [.dnsName("other.example.com")], cn: "www.example.com")
    }

    func testExactNameMatchesIgnoringCase() throws {
        try assertMatches("www.example.com", [.dnsName("WWW.Example.COM")])
        try assertMatches("WWW.EXAMPLE.com", [.dnsName("www.example.com")])
    }

    func testOneTrailingDotOnTheHostIsStripped() throws {
        try assertMatches("test.apple.com.", [.dnsName("test.apple.com")])
    }

    func testAnyOfSeveralSANEntriesMayMatch() throws {
        try assertMatches("b.example.com", [.dnsName("a.example.com"), .dnsName("b.example.com")])
    }

    func testWildcardCoversExactlyOneLeftmostLabel() throws {
        try assertMatches("good.test.apple.com", [.dnsName("*.test.apple.com")])
    }

    func testWildcardDoesNotCoverTheApex() throws {
        try assertMismatch("test.apple.com", [.dnsName("*.test.apple.com")])
    }

    func testWildcardDoesNotCoverTwoLabels() throws {
        try assertMismatch("one.bad.test.apple.com", [.dnsName("*.test.apple.com")])
    }

    func testWildcardDirectlyOnAPublicSuffixNeverMatches() throws {
        try assertMismatch("example.com", [.dnsName("*.com")])
        try assertMismatch("example.co.uk", [.dnsName("*.co.uk")])
    }

    /// The list is an input of the evaluation: a suffix only the given list names refuses the
    /// wildcard directly before it, and without a list the same wildcard matches.
    func testTheGivenPublicSuffixListDecidesWildcards() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf("leaf", issuer: root) { $0.subjectAltNames = .init([.dnsName("*.corp.example")]) }
        var settings = TestPKI.ssl("www.corp.example", anchors: [root.certificate])
        settings.publicSuffixes = .list(PublicSuffixList(contents: Array("// private registry\ncorp.example\n".utf8)))
        let refused = try evaluate([leaf.certificate], settings)
        XCTAssertEqual(refused.failureSummaries, ["hostname@0:failed(-67602)"])
        settings.publicSuffixes = .list(nil)
        XCTAssertEqual(try evaluate([leaf.certificate], settings).step(.hostname, 0)?.status, .passed)
        settings.publicSuffixes = .debian
        XCTAssertEqual(try evaluate([leaf.certificate], settings).step(.hostname, 0)?.status, .passed)
    }

    func testWildcardOnARegisteredDomainUnderAMultiLabelSuffixMatches() throws {
        try assertMatches("www.example.co.uk", [.dnsName("*.example.co.uk")])
    }

    func testPartialLabelWildcardsNeverMatch() throws {
        try assertMismatch("test.apple.com", [.dnsName("t*t.apple.com")])
        try assertMismatch("test.apple.com", [.dnsName("*est.apple.com")])
        try assertMismatch("applefoo.com", [.dnsName("apple*.com")])
    }

    func testWildcardsOutsideTheLeftmostLabelOrRepeatedNeverMatch() throws {
        try assertMismatch("test.apple.com", [.dnsName("test.*.com")])
        try assertMismatch("a.b.apple.com", [.dnsName("*.*.apple.com")])
    }

    func testIPAddressHostMatchesAnIPAddressSANEntry() throws {
        try assertMatches("127.0.0.1", [.ipAddress([127, 0, 0, 1])])
        try assertMatches("::1", [try .ip("::1")])
        try assertMatches("[::1]", [try .ip("::1")])
        try assertMatches("2001:db8::1", [try .ip("2001:0db8:0:0:0:0:0:1")])
    }

    func testIPAddressHostDoesNotMatchAnIPWrittenAsADNSName() throws {
        try assertMismatch("127.0.0.1", [.dnsName("127.0.0.1")])
    }

    func testIPAddressHostDoesNotMatchAnIPInTheCommonName() throws {
        try assertMismatch("10.1.2.3", [.dnsName("www.example.com")], cn: "10.1.2.3")
    }

    func testDNSHostDoesNotMatchAnIPAddressEntry() throws {
        try assertMismatch("localhost", [.ipAddress([127, 0, 0, 1])])
    }

    func testDifferentIPAddressDoesNotMatch() throws {
        try assertMismatch("127.0.0.2", [.ipAddress([127, 0, 0, 1])])
        try assertMismatch("::2", [try .ip("::1")])
    }

    func testMismatchExplanationSaysTheCommonNameIsIgnored() throws {
        let e = try evaluateHost("www.example.com", san: nil, cn: "www.example.com")
        guard case .hostMismatch(_, let explanation)? = e.step(.hostname, 0)?.finding.as(HostnameFinding.self) else {
            return XCTFail("no mismatch finding")
        }
        XCTAssertTrue(explanation.contains("Common Name"), explanation)
    }

    func testSANNameWithATrailingDotIsNotAValidDNSNameAndIsSkipped() throws {
        try assertMismatch("www.example.com", [.dnsName("www.example.com.")])
    }

    func testSANNameWithAnUnderscoreIsValid() throws {
        try assertMatches("_acme.example.com", [.dnsName("_acme.example.com")])
    }

    func testSANNameWithALabelLongerThan63OctetsIsSkipped() throws {
        let label = String(repeating: "a", count: 64)
        try assertMismatch("\(label).example.com", [.dnsName("\(label).example.com")])
    }

    func testWildcardNeedsMoreThanTwoLabels() throws {
        try assertMismatch("foo.internal", [.dnsName("*.internal")])
        try assertMismatch("localhost", [.dnsName("*")])
    }
}
