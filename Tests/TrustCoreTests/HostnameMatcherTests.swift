import XCTest

@testable import PathRules
@testable import TrustCore

#if canImport(Glibc)
    import Glibc
#endif

/// Expected values follow Apple's hostname rules (SecPolicyLeafCallbacks.c, SSLPolicyTests) and,
/// for `.webpki`, what x509-limbo expects.
final class HostnameMatcherTests: XCTestCase {
    private let psl = PublicSuffixList.shared

    private func match(
        _ host: String, dns: [String] = [], ip: [[UInt8]] = [], cn: [String] = [],
        rules: HostnameRules = .apple, useList: Bool = true
    ) -> HostnameMatch {
        HostnameMatcher.match(
            host: host, dnsNames: dns, ipAddresses: ip, commonNames: cn, rules: rules,
            publicSuffixes: useList ? psl : nil)
    }

    private func assertMatches(
        _ host: String, _ dns: [String], rules: HostnameRules = .apple, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let result = match(host, dns: dns, rules: rules)
        XCTAssertTrue(result.matched, "\(host) vs \(dns): \(result.explanation)", file: file, line: line)
    }

    private func assertNoMatch(
        _ host: String, _ dns: [String], rules: HostnameRules = .apple, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let result = match(host, dns: dns, rules: rules)
        XCTAssertFalse(result.matched, "\(host) vs \(dns): \(result.explanation)", file: file, line: line)
        XCTAssertNil(result.matchedName, file: file, line: line)
    }

    override func setUpWithError() throws {
        try XCTSkipIf(psl == nil, "\(PublicSuffixList.defaultPath) is missing (Debian package publicsuffix)")
    }

    // MARK: Exact names

    func testExactSANDNSNameMatches() {
        let result = match("test.apple.com", dns: ["other.apple.com", "test.apple.com"])
        XCTAssertTrue(result.matched)
        XCTAssertEqual(result.matchedName, "test.apple.com")
        XCTAssertEqual(result.explanation, "SAN dNSName “test.apple.com” matches “test.apple.com”")
    }

    func testMatchingIgnoresASCIICase() {
        assertMatches("TEST.Apple.COM", ["test.apple.com"])
        assertMatches("test.apple.com", ["Test.APPLE.com"])
        assertMatches("FOO.test.apple.com", ["*.TEST.apple.com"])
    }

    func testDifferentLabelCountsDoNotMatch() {
        assertNoMatch("www.apple.com", ["apple.com"])
        assertNoMatch("apple.com", ["www.apple.com"])
        assertNoMatch("def.example.com", ["abc.example.com"])
        assertNoMatch("example2.com", ["example.com"])
    }

    func testOneTrailingDotOnTheHostIsStripped() {
        assertMatches("test.apple.com.", ["test.apple.com"])
        assertMatches("good.test.apple.com.", ["*.test.apple.com"])
    }

    func testOnlyOneTrailingDotIsStripped() {
        assertNoMatch("test.apple.com..", ["test.apple.com"])
    }

    func testEmptyHostMatchesNothing() {
        assertNoMatch("", ["test.apple.com"])
        assertNoMatch(".", ["test.apple.com"])
    }

    // MARK: Common Name

    func testCommonNameIsNeverUsed() {
        let result = match("localhost", cn: ["localhost"])
        XCTAssertFalse(result.matched)
        XCTAssertEqual(
            result.explanation,
            "the certificate has no SAN dNSName entries; the Common Name “localhost” would match but is never used (Apple HT210176)"
        )
    }

    func testCommonNameIsIgnoredWhenTheSANListsOtherNames() {
        let result = match("test.apple.com", dns: ["other.apple.com"], cn: ["test.apple.com"])
        XCTAssertFalse(result.matched)
        XCTAssertEqual(
            result.explanation,
            "no SAN dNSName matches “test.apple.com” (the certificate names “other.apple.com”); "
                + "the Common Name “test.apple.com” would match but is never used (Apple HT210176)")
    }

    func testMissingSANExplanationSaysTheCommonNameIsNeverUsed() {
        let result = match("example.com", cn: ["something-else"])
        XCTAssertEqual(
            result.explanation,
            "the certificate has no SAN dNSName entries, and the Common Name is never used (Apple HT210176)")
        XCTAssertTrue(match("example.com", cn: ["x"], rules: .webpki).explanation.hasSuffix("(RFC 9525)"))
    }

    // MARK: Wildcards

    func testWildcardMatchesExactlyOneLeftmostLabel() {
        let result = match("good.test.apple.com", dns: ["*.test.apple.com"])
        XCTAssertTrue(result.matched)
        XCTAssertEqual(result.matchedName, "*.test.apple.com")
        XCTAssertEqual(
            result.explanation, "“*.test.apple.com” covers exactly one label, so it matches “good.test.apple.com”")
    }

    func testWildcardDoesNotMatchApex() {
        let result = match("test.apple.com", dns: ["*.test.apple.com"])
        XCTAssertFalse(result.matched)
        XCTAssertEqual(
            result.explanation, "“*.test.apple.com” covers exactly one label and never the bare domain “test.apple.com”"
        )
    }

    func testWildcardDoesNotSpanTwoLabels() {
        let result = match("one.bad.test.apple.com", dns: ["*.test.apple.com"])
        XCTAssertFalse(result.matched)
        XCTAssertEqual(
            result.explanation,
            "“*.test.apple.com” covers exactly one label, so it does not match “one.bad.test.apple.com”")
    }

    func testWildcardNeverMatchesAnEmptyLabel() {
        assertNoMatch(".test.apple.com", ["*.test.apple.com"])
    }

    func testWildcardDirectlyOnSingleLabelTLDIsRefusedEvenWithoutTheList() {
        XCTAssertFalse(match("apple.com", dns: ["*.com"]).matched)
        XCTAssertFalse(match("apple.com", dns: ["*.com"], useList: false).matched)
        XCTAssertFalse(match("host.local", dns: ["*.local"], useList: false).matched)
        XCTAssertEqual(
            match("apple.com", dns: ["*.com"]).explanation,
            "“*.com” puts a wildcard directly on a single label, which never matches")
    }

    func testBareWildcardNeverMatches() {
        assertNoMatch("localhost", ["*"])
    }

    func testWildcardBeforeMultiLabelPublicSuffixIsRefused() {
        let result = match("apple.co.uk", dns: ["*.co.uk"])
        XCTAssertFalse(result.matched)
        XCTAssertEqual(
            result.explanation, "“*.co.uk” puts a wildcard directly on the public suffix “co.uk”, which never matches")
        assertNoMatch("apple.CO.UK", ["*.Co.Uk"])
        // "*.bd" in the list makes com.bd a public suffix.
        assertNoMatch("shop.com.bd", ["*.com.bd"])
    }

    func testWithoutTheListOnlyTheSingleLabelRuleApplies() {
        XCTAssertTrue(match("apple.co.uk", dns: ["*.co.uk"], useList: false).matched)
    }

    func testWildcardBelowAnExceptionRuleIsAllowed() {
        // "*.ck" with "!www.ck": www.ck is registrable, not a public suffix.
        assertMatches("a.www.ck", ["*.www.ck"])
    }

    func testWildcardBeforePrivateSectionSuffixIsAllowed() {
        // github.io is in the PRIVATE section only; *.github.io certificates are real and accepted.
        assertMatches("octocat.github.io", ["*.github.io"])
    }

    func testWildcardBeforeInternationalisedPublicSuffixIsRefused() {
        // 公司.cn is listed in Unicode; certificates carry the A-label xn--55qx5d.cn.
        assertNoMatch("example.xn--55qx5d.cn", ["*.xn--55qx5d.cn"])
    }

    func testPartialWildcardsNeverMatch() {
        assertNoMatch("test.apple.com", ["t*t.apple.com"])
        assertNoMatch("test.apple.com", ["*est.apple.com"])
        assertNoMatch("test.apple.com", ["te*.apple.com"])
        assertNoMatch("applestore.com", ["apple*.com"])
        assertNoMatch("baz.example.com", ["ba*.example.com"])
        assertNoMatch("xn--bliss-1b3c148a.example.com", ["xn--*-1b3c148a.example.com"])
        XCTAssertEqual(
            match("test.apple.com", dns: ["t*t.apple.com"]).explanation,
            "“t*t.apple.com” is a partial-label wildcard, which never matches: only a whole leftmost “*” label does")
    }

    func testNonLeftmostOrMultipleWildcardsNeverMatch() {
        assertNoMatch("foo.bar.example.com", ["foo.*.example.com"])
        assertNoMatch("a.b.example.com", ["*.*.example.com"])
        assertNoMatch("test.apple.com", ["test.*.com"])
        XCTAssertEqual(
            match("foo.bar.example.com", dns: ["foo.*.example.com"]).explanation,
            "“foo.*.example.com” has a wildcard outside the leftmost label or more than one, which never matches")
    }

    func testWildcardCoversAnALabel() {
        // No IDN special case in either rule set (RFC 6125 6.4.3 only forbids '*' inside an A-label).
        assertMatches("xn--bcher-kva.example.com", ["*.example.com"])
        assertMatches("xn--bcher-kva.example.com", ["*.example.com"], rules: .webpki)
    }

    // MARK: IP addresses

    func testIPv4HostMatchesIPAddressEntry() {
        let result = match("127.0.0.1", dns: ["localhost"], ip: [[0x7F, 0x00, 0x00, 0x01]])
        XCTAssertTrue(result.matched)
        XCTAssertEqual(result.matchedName, "127.0.0.1")
        XCTAssertEqual(result.explanation, "SAN iPAddress 127.0.0.1 matches “127.0.0.1”")
    }

    func testIPAddressInDNSNameDoesNotMatch() {
        let result = match("127.0.0.1", dns: ["127.0.0.1"])
        XCTAssertFalse(result.matched)
        XCTAssertEqual(
            result.explanation,
            "“127.0.0.1” is an IP address, which only SAN iPAddress entries can match; "
                + "the certificate lists it as the dNSName “127.0.0.1”, which is never compared with IP addresses")
    }

    func testIPAddressInCommonNameDoesNotMatch() {
        let result = match("10.0.0.1", cn: ["10.0.0.1"])
        XCTAssertFalse(result.matched)
        XCTAssertTrue(
            result.explanation.contains("Common Name “10.0.0.1” holds it but is never used"), result.explanation)
    }

    func testIPv6HostMatchesWithOrWithoutBrackets() {
        let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
        for host in ["::1", "[::1]", "0:0:0:0:0:0:0:1", "[0000:0000::0001]"] {
            let result = match(host, ip: [loopback])
            XCTAssertTrue(result.matched, host)
            XCTAssertEqual(result.matchedName, "::1")
        }
        let doc: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [1]
        XCTAssertTrue(match("[2001:DB8::1]", ip: [doc]).matched)
    }

    func testIPv4MappedIPv6DoesNotMatchAnIPv4Entry() {
        assertNoMatch("::ffff:127.0.0.1", [])
        XCTAssertFalse(match("::ffff:127.0.0.1", ip: [[127, 0, 0, 1]]).matched)
    }

    func testDifferentIPAddressDoesNotMatch() {
        let result = match("10.0.0.1", ip: [[10, 0, 0, 2]])
        XCTAssertFalse(result.matched)
        XCTAssertEqual(result.explanation, "no SAN iPAddress entry equals 10.0.0.1 (the certificate has 10.0.0.2)")
    }

    func testIPAddressEntryDoesNotMatchDNSHost() {
        XCTAssertFalse(match("localhost", ip: [[127, 0, 0, 1]]).matched)
    }

    func testNonCanonicalIPv4TextIsNotAnIPAddress() {
        XCTAssertFalse(match("127.1", ip: [[127, 0, 0, 1]]).matched)
        XCTAssertFalse(match("127.000.000.001", ip: [[127, 0, 0, 1]]).matched)
        XCTAssertFalse(match("127.0.0.1.", ip: [[127, 0, 0, 1]]).matched)
    }

    // MARK: Invalid SAN names

    func testInvalidSANNamesAreSkipped() {
        for bad in [
            "test.apple.com.", ".test.apple.com", "test..apple.com", "-test.apple.com", "test-.apple.com",
            "te st.apple.com", "test.apple.com/x", "tést.apple.com", String(repeating: "a", count: 64) + ".apple.com",
        ] {
            let host = bad.replacingDotsForHost()
            let result = match(host, dns: [bad])
            XCTAssertFalse(result.matched, "\(bad): \(result.explanation)")
        }
        XCTAssertEqual(
            match("test.apple.com", dns: ["test.apple.com."]).explanation,
            "SAN dNSName “test.apple.com.” is not a valid DNS name, so it was skipped, and no other SAN dNSName matches “test.apple.com”"
        )
    }

    func testLongestValidLabelAndNameAreAccepted() {
        let label63 = String(repeating: "a", count: 63)
        assertMatches("\(label63).apple.com", ["\(label63).apple.com"])
        let name255 =
            Array(repeating: label63, count: 3).joined(separator: ".") + "." + String(repeating: "b", count: 63)
        XCTAssertEqual(name255.utf8.count, 255)
        assertMatches(name255, [name255])
        assertNoMatch(name255 + "c", [name255 + "c"])
    }

    func testSANNameWithNumericLastLabelIsDropped() {
        assertNoMatch("1.2.3.4", ["1.2.3.4"])
        assertNoMatch("host.123", ["host.123"])
    }

    func testUnderscoreIsAllowedInSANNames() {
        assertMatches("_service.example.com", ["_service.example.com"])
    }

    func testValidEntryAfterInvalidOnesStillMatches() {
        let result = match("test.apple.com", dns: ["bad..name", "t*t.apple.com", "*.com", "test.apple.com"])
        XCTAssertTrue(result.matched)
        XCTAssertEqual(result.matchedName, "test.apple.com")
    }

    // MARK: Apple versus webpki

    func testAppleLetsAWildcardCoverAnyNonEmptyLabelButWebPKIRefusesInvalidHosts() {
        XCTAssertTrue(match("a b.example.com", dns: ["*.example.com"], rules: .apple).matched)
        let strict = match("a b.example.com", dns: ["*.example.com"], rules: .webpki)
        XCTAssertFalse(strict.matched)
        XCTAssertEqual(
            strict.explanation,
            "“a b.example.com” is not a valid DNS name or IP address, so no certificate name can match it")
    }

    func testWebPKIFollowsX509LimboExpectations() {
        assertMatches("example.com", ["example.com"], rules: .webpki)
        assertNoMatch("example2.com", ["example.com"], rules: .webpki)
        assertNoMatch("def.example.com", ["abc.example.com"], rules: .webpki)
        assertNoMatch("abc.example.com", ["example.com"], rules: .webpki)
        assertNoMatch("example.com", ["abc.example.com"], rules: .webpki)
        assertNoMatch("example.com", ["*.com"], rules: .webpki)  // pedantic-public-suffix-wildcard
        assertMatches("foo.example.com", ["*.example.com"], rules: .webpki)
        assertNoMatch("baz.example.com", ["ba*.example.com"], rules: .webpki)
        assertNoMatch("foo.bar.example.com", ["foo.*.example.com"], rules: .webpki)
        assertNoMatch("foo.bar.example.com", ["*.example.com"], rules: .webpki)
        assertNoMatch("xn--bliss-1b3c148a.example.com", ["xn--*-1b3c148a.example.com"], rules: .webpki)
        assertNoMatch("xn--628h.example.com", ["😜.example.com"], rules: .webpki)
        XCTAssertFalse(match("example.com", cn: ["example.com"], rules: .webpki).matched)  // no_san
        XCTAssertTrue(match("127.0.0.1", ip: [[127, 0, 0, 1]], rules: .webpki).matched)
        assertMatches("example.com.", ["example.com"], rules: .webpki)
    }

    // MARK: Reference host syntax

    func testValidReferenceHosts() {
        for host in [
            "example.com", "example.com.", "localhost", "EXAMPLE.com", "_srv.example.com", "xn--bcher-kva.de",
            "a-b.example.com", "127.0.0.1", "::1", "[::1]", "2001:db8::1",
        ] {
            XCTAssertTrue(HostnameMatcher.isValidReferenceHost(host), host)
        }
    }

    func testInvalidReferenceHosts() {
        for host in [
            "", ".", "a..b.com", ".example.com", "-a.com", "a-.com", "*.example.com", "1.2.3.4.", "256.1.1.1",
            "a b.com", "ex@mple.com", "bücher.de", "example.com..", String(repeating: "a", count: 64) + ".com",
            "[127.0.0.1", "1::2::3",
        ] {
            XCTAssertFalse(HostnameMatcher.isValidReferenceHost(host), host)
        }
        let long = Array(repeating: String(repeating: "a", count: 63), count: 4).joined(separator: ".")
        XCTAssertFalse(HostnameMatcher.isValidReferenceHost(long))  // 255 octets > 253
    }

    // MARK: Explanations

    func testExplanationEscapesControlAndBidiCharacters() {
        let result = match("example.com", dns: ["evil\u{1B}[31m\u{202E}moc.example"])
        XCTAssertTrue(result.explanation.contains("evil\\u{1b}[31m\\u{202e}moc.example"), result.explanation)
        XCTAssertFalse(result.explanation.contains("\u{1B}"))
        XCTAssertFalse(result.explanation.contains("\u{202E}"))
    }

    func testExplanationListsAtMostThreeNames() {
        let result = match("x.example.com", dns: ["a.example.org", "b.example.org", "c.example.org", "d.example.org"])
        XCTAssertEqual(
            result.explanation,
            "no SAN dNSName matches “x.example.com” (the certificate names “a.example.org”, “b.example.org”, “c.example.org” and 1 more)"
        )
    }

    // MARK: Public Suffix List

    func testPublicSuffixListRecognisesICANNSuffixes() throws {
        let list = try XCTUnwrap(psl)
        for suffix in ["com", "uk", "co.uk", "com.bd", "公司.cn", "xn--55qx5d.cn", "foo.kawasaki.jp"] {
            XCTAssertTrue(list.isPublicSuffix(suffix), suffix)
        }
        for domain in ["example.com", "apple.co.uk", "www.ck", "city.kawasaki.jp", "kawasaki.jp", "a.b.com.bd", ""] {
            XCTAssertFalse(list.isPublicSuffix(domain), domain)
        }
    }

    func testPublicSuffixListIgnoresThePrivateSection() throws {
        let list = try XCTUnwrap(psl)
        XCTAssertFalse(list.isPublicSuffix("github.io"))
        XCTAssertFalse(list.isPublicSuffix("herokuapp.com"))
    }

    func testUnlistedSingleLabelIsAPublicSuffix() throws {
        XCTAssertTrue(try XCTUnwrap(psl).isPublicSuffix("localhost"))
    }

    func testPublicSuffixListParsesRulesFromContents() {
        let text = """
            // comment
            example
            *.wild.example
            !keep.wild.example
            Upper.Example   trailing words are ignored
            """
        let list = PublicSuffixList(contents: Array(text.utf8))
        XCTAssertTrue(list.isPublicSuffix("example"))
        XCTAssertTrue(list.isPublicSuffix("any.wild.example"))
        XCTAssertFalse(list.isPublicSuffix("keep.wild.example"))
        XCTAssertTrue(list.isPublicSuffix("upper.example"))
        XCTAssertFalse(list.isPublicSuffix("other.example"))
        XCTAssertEqual(list.ruleCount, 4)
    }

    func testPublicSuffixListSkipsPrivateSectionInContents() {
        let text = """
            // ===BEGIN ICANN DOMAINS===
            co.test
            // ===END ICANN DOMAINS===
            // ===BEGIN PRIVATE DOMAINS===
            pages.test
            // ===END PRIVATE DOMAINS===
            """
        let list = PublicSuffixList(contents: Array(text.utf8))
        XCTAssertTrue(list.isPublicSuffix("co.test"))
        XCTAssertFalse(list.isPublicSuffix("pages.test"))
    }

    func testMissingListFileGivesNil() {
        XCTAssertNil(PublicSuffixList(path: "/nonexistent/public_suffix_list.dat"))
    }

    func testPunycodeEncodesKnownVectors() {
        XCTAssertEqual(PublicSuffixList.toASCII("bücher.de"), "xn--bcher-kva.de")
        XCTAssertEqual(PublicSuffixList.toASCII("中国"), "xn--fiqs8s")
        XCTAssertEqual(PublicSuffixList.toASCII("公司.cn"), "xn--55qx5d.cn")
        XCTAssertEqual(PublicSuffixList.toASCII("😜"), "xn--628h")
        // RFC 3492 7.1 (B) Chinese (simplified).
        XCTAssertEqual(
            PublicSuffixList.punycodeEncode("他们为什么不说中文".unicodeScalars.map(\.value)), "ihqwcrb4cv8a8dqg056pqjye")
    }

    func testTheSystemListLoadsItsICANNRules() throws {
        let list = try XCTUnwrap(PublicSuffixList(path: PublicSuffixList.defaultPath))
        // Debian's list holds several thousand ICANN rules; a parse that drops sections would not.
        XCTAssertGreaterThan(list.ruleCount, 5000)
        XCTAssertTrue(list.isPublicSuffix("co.uk"))
        XCTAssertFalse(list.isPublicSuffix("example.co.uk"))
    }
}

extension String {
    /// The host a malformed SAN name was aiming at: dots kept, so label counts agree.
    fileprivate func replacingDotsForHost() -> String {
        var s = self
        while s.hasSuffix(".") { s.removeLast() }
        while s.hasPrefix(".") { s.removeFirst() }
        return s.split(separator: ".").joined(separator: ".")
    }
}
