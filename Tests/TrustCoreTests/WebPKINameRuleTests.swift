import SuiteFixtures
import TrustBuilder
import XCTest

@testable import TrustCore
@testable import TrustX509

/// The `webpki` profile's rules on name syntax, on the commonName beside the subjectAltName, and
/// on anchors that carry no authorityKeyIdentifier; each expected verdict is the standard's.
final class WebPKINameRuleTests: XCTestCase {
    func testMalformedNameConstraintFormsFailUnderWebPKI() throws {
        // RFC 5280 4.2.1.10: a dNSName constraint is a host name ("host.example.com"; the leading
        // period is the URI and rfc822Name forms' way to say "below"); an rfc822Name one is a
        // mailbox, a host or a .domain; an iPAddress one is 8 or 32 octets in CIDR style.
        let root = try TestPKI.root()
        let malformed: [CertificateBuilder.NameConstraintsExtension] = [
            .init(permitted: [.dnsName(".example.com")]),
            .init(excluded: [.rfc822Name("a@b@example.org")]),
            .init(excluded: [.ipAddress([10, 0, 0, 1])]),
            .init(excluded: [.ipAddress([10, 0, 0, 0, 255, 0, 255, 0])]),
        ]
        for nc in malformed {
            let ca = try TestPKI.intermediate(issuer: root) { $0.nameConstraints = nc }
            let leaf = try TestPKI.leaf(issuer: ca)
            let e = try webpki([leaf.certificate, ca.certificate], anchor: root.certificate, br: false)
            XCTAssertEqual(e.failureSummaries, ["compliance@1:failed(-67603)"], "\(nc)")
        }
        let subnet = try GeneralName.ipSubnet("10.0.0.0/8")
        let wellFormed = try TestPKI.intermediate(issuer: root) {
            $0.nameConstraints = .init(
                permitted: [.dnsName("example.com")],
                excluded: [.rfc822Name(".example.org"), .rfc822Name("a@example.org"), subnet])
        }
        let leaf = try TestPKI.leaf(issuer: wellFormed)
        let e = try webpki([leaf.certificate, wellFormed.certificate], anchor: root.certificate, br: false)
        XCTAssertTrue(e.verdict.trusted, "\(e.failures.map(\.detail))")
    }

    func testSANDNSNamesOutsideThePreferredNameSyntaxFailUnderRFC5280() throws {
        // RFC 5280 4.2.1.6: "preferred name syntax" of RFC 1034 3.5 (letters, digits, hyphens) as
        // RFC 1123 2.1 modifies it (a label may start with a digit; a host name is never dotted
        // decimals).
        let root = try TestPKI.root()
        for bad in ["foo_bar.example.com", "192.0.2.1"] {
            let leaf = try TestPKI.leaf(issuer: root) { $0.subjectAltNames = .dns(TestPKI.host, bad) }
            let e = try webpki([leaf.certificate], anchor: root.certificate, br: false)
            XCTAssertEqual(e.failureSummaries, ["compliance@0:failed(-67603)"], bad)
        }
        let digits = try TestPKI.leaf(issuer: root) {
            $0.subjectAltNames = .dns(TestPKI.host, "1st.example.com", "a-1.example.com", "*.example.com")
        }
        XCTAssertTrue(try webpki([digits.certificate], anchor: root.certificate, br: false).verdict.trusted)
        // Apple's profile does not judge SAN syntax.
        let underscore = try TestPKI.leaf(issuer: root) {
            $0.subjectAltNames = .dns(TestPKI.host, "foo_bar.example.com")
        }
        XCTAssertTrue(
            try evaluate([underscore.certificate], TestPKI.ssl(anchors: [root.certificate])).verdict.trusted)
    }

    func testCommonNameMustCopyTheSANEntryCharacterForCharacter() throws {
        // BR 7.1.4.3: a domain name CN "MUST be encoded as a character-for-character copy of the
        // dNSName entry value from the subjectAltName extension": letter case included.
        let root = try TestPKI.root()
        let upper = try TestPKI.leaf(issuer: root) { $0.subject = [.commonName("WWW.Example.COM")] }
        let e = try webpki([upper.certificate], anchor: root.certificate)
        XCTAssertEqual(
            e.steps.filter { $0.id == .compliance && $0.status == .failed }.map {
                $0.finding.as(ComplianceFinding.self)
            },
            [
                .nonCompliant(
                    detail:
                        "subject commonName WWW.Example.COM is not one of the subjectAltName values (CA/Browser Forum BR 7.1.4.3)"
                )
            ])
        XCTAssertTrue(try webpki([upper.certificate], anchor: root.certificate, br: false).verdict.trusted)
        let copy = try TestPKI.leaf(issuer: root) { $0.subject = [.commonName(TestPKI.host)] }
        XCTAssertTrue(try webpki([copy.certificate], anchor: root.certificate).verdict.trusted)
    }

    func testNameConstraintPermitsWildcardSANWithItsDomainAsCommonName() throws {
        // RFC 5280 4.2.1.10: example.com permits every name made by adding labels on the left, so
        // *.example.com lies within it. The CN example.com is the domain the wildcard is issued for
        // (BR 3.2.2.6 validates a Wildcard Domain Name through the FQDN after "*."), so it names
        // nothing the SAN does not (D187).
        let root = try TestPKI.root()
        for (permitted, trusted) in [("example.com", true), ("example.org", false)] {
            let ca = try TestPKI.intermediate(issuer: root) {
                $0.nameConstraints = .init(permitted: [.dnsName(permitted)])
            }
            let leaf = try TestPKI.leaf(issuer: ca) {
                $0.subject = [.commonName("example.com")]
                $0.subjectAltNames = .dns("*.example.com")
            }
            let e = try webpki([leaf.certificate, ca.certificate], anchor: root.certificate, host: "foo.example.com")
            XCTAssertEqual(e.verdict.trusted, trusted, "\(permitted): \(e.failures.map(\.detail))")
            if !trusted { XCTAssertEqual(e.failureSummaries, ["name-constraints@0:failed(-67689)"]) }
        }
    }

    func testIPAddressSANWithADomainNameCommonNameIsTrusted() throws {
        // BR 7.1.4.3 compares a CN with the SAN values of its own kind: a domain name CN beside a
        // SAN that holds addresses only has no dNSName to copy and is not judged (D187); an
        // address CN must still be one of the iPAddress entries.
        let root = try TestPKI.root()
        let loopback = try GeneralName.ip("127.0.0.1")
        let domainCN = try TestPKI.leaf(issuer: root) {
            $0.subject = [.commonName("example.com")]
            $0.subjectAltNames = .init([loopback])
        }
        let e = try webpki([domainCN.certificate], anchor: root.certificate, host: "127.0.0.1")
        XCTAssertTrue(e.verdict.trusted, "\(e.failures.map(\.detail))")
        let otherAddress = try TestPKI.leaf(issuer: root) {
            $0.subject = [.commonName("127.0.0.2")]
            $0.subjectAltNames = .init([loopback])
        }
        XCTAssertEqual(
            try webpki([otherAddress.certificate], anchor: root.certificate, host: "127.0.0.1").failureSummaries,
            ["compliance@0:failed(-67603)"])
    }

    func testPathThroughMutuallyCrossSignedCAsEndsAtTheAnchorThatSignsItself() throws {
        // Root A and Root B certify each other; the anchor is A's own certificate, signed by A's
        // key under another issuer name and without authorityKeyIdentifier. RFC 5280 4.2.1.1 lets
        // "a CA [that] distributes its public key in the form of a 'self-signed' certificate" omit
        // the identifier: there is no other key for it to name. A root certified by another key
        // without one stays non-compliant.
        let keyA = try KeyPair.generate(.ecP256)
        let keyB = try KeyPair.generate(.ecP256)
        func ca(_ cn: String, _ key: KeyPair) -> CertificateBuilder {
            var b = CertificateBuilder(
                subject: TestPKI.name(cn), publicKey: key, notBefore: TestPKI.now - .days(365),
                notAfter: TestPKI.now + .days(3650))
            b.basicConstraints = .init(isCA: true)
            b.keyUsage = .init([.keyCertSign, .cRLSign])
            return b
        }
        let anchorA = try ca("Root A", keyA).sign(
            issuerKey: keyA, issuerName: TestPKI.name("Distribution"), issuerKeyIdentifier: nil)
        let aByB = try ca("Root A", keyA).sign(
            issuerKey: keyB, issuerName: TestPKI.name("Root B"), issuerKeyIdentifier: keyB.keyIdentifier)
        let bByA = try ca("Root B", keyB).sign(
            issuerKey: keyA, issuerName: TestPKI.name("Root A"), issuerKeyIdentifier: keyA.keyIdentifier)
        let a1 = try TestPKI.intermediate("Intermediate A1", issuer: Issued(certificate: anchorA, key: keyA))
        let leaf = try TestPKI.leaf(issuer: a1)
        for br in [true, false] {
            let e = try webpki(
                [leaf.certificate, a1.certificate, aByB, bByA], anchor: anchorA, br: br)
            XCTAssertTrue(e.verdict.trusted, "\(e.failures.map(\.detail))")
            XCTAssertEqual(e.path.certificates.last?.identity, anchorA.identity)
        }
        // The same anchor signed by B's key instead.
        let crossAnchor = try ca("Root A", keyA).sign(
            issuerKey: keyB, issuerName: TestPKI.name("Distribution"), issuerKeyIdentifier: nil)
        let e = try webpki([leaf.certificate, a1.certificate], anchor: crossAnchor, br: false)
        XCTAssertEqual(e.failureSummaries, ["compliance@2:failed(-67603)"])
    }
}
