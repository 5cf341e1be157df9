import Foundation
import SuiteFixtures
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Certificate decoding: every field against the openssl CLI, and robustness against truncated,
/// random, mutated and oversized input (a `DecodingError` with a plausible offset, never a trap).
final class DecodingTests: XCTestCase {
    // MARK: - Fields

    /// A CA certificate carrying every extension type TrustCore decodes, and an unknown one.
    private func everyExtensionCertificate() throws -> Certificate {
        let issuerKey = try TestPKI.sharedKey(.rsa(bits: 2048))
        let issuer = try TestPKI.root("Every Extension Issuer", key: issuerKey)
        let key = try TestPKI.sharedKey(.rsa(bits: 2048))
        var b = CertificateBuilder(
            subject: [
                .country("US"), .organization("Acme"), .organizationalUnit("Ops"),
                .commonName("every.example.com"),
            ], publicKey: key, notBefore: TestPKI.date(2025, 1, 2, hour: 3),
            notAfter: TestPKI.date(2026, 1, 2, hour: 3))
        b.serialNumber = [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF]
        b.basicConstraints = .init(isCA: true, pathLength: 3)
        b.keyUsage = .init([.digitalSignature, .keyCertSign])
        b.extendedKeyUsage = .init([.serverAuth, .clientAuth])
        b.subjectAltNames = .init([
            .dnsName("a.example.com"), .dnsName("*.b.example.com"), try .ip("10.0.0.1"),
            try .ip("2001:db8::1"), .rfc822Name("x@example.com"), .uri("https://example.com/p"),
        ])
        b.nameConstraints = .init(permitted: [.dnsName("example.com")], excluded: [try .ipSubnet("10.0.0.0/8")])
        b.caIssuersURLs = ["http://ca.example.com/issuer.cer"]
        b.ocspURLs = ["http://ocsp.example.com"]
        let policies = DERWriter.encode { w in
            w.sequence { w in w.sequence { $0.oid(OID(dotted: "2.23.140.1.2.1")!) } }
        }
        let crlDP = DERWriter.encode { w in
            w.sequence { w in
                w.sequence { w in
                    w.contextSpecific(0) { w in
                        w.contextSpecific(0) { $0.generalName(.uri("http://crl.example.com/ca.crl")) }
                    }
                }
            }
        }
        b.rawExtensions = [
            .init(oid: OID.certificatePolicies, critical: false, value: policies),
            .init(oid: OID.crlDistributionPoints, critical: false, value: crlDP),
            .init(oid: OID(dotted: "1.3.6.1.4.1.55555.2")!, critical: false, value: [0x04, 0x01, 0x2A]),
        ]
        return try b.sign(issuerKey: issuerKey, issuer: issuer.certificate)
    }

    func testCertificateWithEveryExtensionDecodesEachField() throws {
        let cert = try everyExtensionCertificate()
        XCTAssertEqual(cert.version, 3)
        XCTAssertEqual(cert.serialNumber, [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF])
        XCTAssertEqual(cert.subject.description, "C=US, O=Acme, OU=Ops, CN=every.example.com")
        XCTAssertEqual(cert.issuer.description, "O=trustx tests, CN=Every Extension Issuer")
        XCTAssertEqual(cert.notBefore.rfc3339, "2025-01-02T03:00:00Z")
        XCTAssertEqual(cert.notAfter.rfc3339, "2026-01-02T03:00:00Z")
        XCTAssertEqual(cert.publicKey.type, .rsa)
        XCTAssertEqual(cert.publicKey.bits, 2048)
        XCTAssertEqual(cert.signatureAlgorithm.name, "sha256WithRSAEncryption")
        XCTAssertEqual(cert.basicConstraints, BasicConstraints(isCA: true, pathLength: 3))
        XCTAssertEqual(cert.keyUsage?.setNames, ["digitalSignature", "keyCertSign"])
        XCTAssertEqual(cert.extendedKeyUsage, [OID.serverAuth, OID.clientAuth])
        XCTAssertEqual(cert.dnsNames, ["a.example.com", "*.b.example.com"])
        XCTAssertEqual(cert.ipAddresses.map(formatIPAddress), ["10.0.0.1", "2001:db8::1"])
        XCTAssertEqual(cert.subjectAltNames?.count, 6)
        XCTAssertEqual(cert.nameConstraints?.permitted, [GeneralSubtree(base: .dnsName("example.com"))])
        XCTAssertEqual(cert.nameConstraints?.excluded, [GeneralSubtree(base: .ipAddress([10, 0, 0, 0, 255, 0, 0, 0]))])
        XCTAssertEqual(cert.subjectKeyIdentifier, try TestPKI.sharedKey(.rsa(bits: 2048)).keyIdentifier)
        XCTAssertNotNil(cert.authorityKeyIdentifier?.keyIdentifier)
        XCTAssertEqual(
            cert.authorityInfoAccess,
            [
                AccessDescription(method: OID.ocsp, location: .uri("http://ocsp.example.com")),
                AccessDescription(method: OID.caIssuers, location: .uri("http://ca.example.com/issuer.cer")),
            ])
        XCTAssertEqual(
            cert.extension(OID.certificatePolicies)?.decoded, .certificatePolicies([OID(dotted: "2.23.140.1.2.1")!]))
        XCTAssertEqual(
            cert.extension(OID.crlDistributionPoints)?.decoded,
            .crlDistributionPoints([.uri("http://crl.example.com/ca.crl")]))
        let unknown = try XCTUnwrap(cert.extension(OID(dotted: "1.3.6.1.4.1.55555.2")!))
        XCTAssertFalse(unknown.isKnown)
        XCTAssertEqual(unknown.decoded, .raw(error: nil))
        XCTAssertEqual(cert.extensions.count, 11)
        XCTAssertEqual(cert.complianceIssues, [])
        XCTAssertTrue(cert.extensions.allSatisfy { $0.decodeError == nil })
    }

    func testDecodedFieldsAgreeWithOpenSSL() throws {
        let cert = try everyExtensionCertificate()
        let dir = try TemporaryDirectory()
        let file = try dir.writePEM("every.pem", [cert])
        let fields = try Shell.output(
            "openssl x509 -in \(file) -noout -serial -subject -issuer -dates -dateopt iso_8601 "
                + "-fingerprint -sha256 -nameopt sep_comma_plus_space,sname")
        let lines = fields.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines,
            [
                "serial=" + hexString(cert.serialNumber).uppercased(),
                "subject=" + cert.subject.description,
                "issuer=" + cert.issuer.description,
                "notBefore=" + cert.notBefore.rfc3339.replacingOccurrences(of: "T", with: " "),
                "notAfter=" + cert.notAfter.rfc3339.replacingOccurrences(of: "T", with: " "),
                "sha256 Fingerprint=" + hexString(cert.sha256, separator: ":").uppercased(),
            ])

        let san = try Shell.output("openssl x509 -in \(file) -noout -ext subjectAltName")
        let ours = (cert.subjectAltNames ?? []).map { name -> String in
            switch name {
            case .dnsName(let d): return "DNS:" + d
            case .rfc822Name(let m): return "email:" + m
            case .uri(let u): return "URI:" + u
            case .ipAddress(let a) where a.count == 16:
                // openssl writes IPv6 uncompressed, uppercase, without leading zeros.
                let groups = stride(from: 0, to: 16, by: 2).map {
                    String(Int(a[$0]) << 8 | Int(a[$0 + 1]), radix: 16).uppercased()
                }
                return "IP Address:" + groups.joined(separator: ":")
            case .ipAddress(let a): return "IP Address:" + formatIPAddress(a)
            default: return name.valueText
            }
        }
        XCTAssertEqual(
            san.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) },
            ["X509v3 Subject Alternative Name: ", ours.joined(separator: ", ")].map {
                $0.trimmingCharacters(in: .whitespaces)
            })

        let text = try Shell.output("openssl x509 -in \(file) -noout -text")
        XCTAssertTrue(text.contains("Public-Key: (\(cert.publicKey.bits) bit)"), text)
        XCTAssertTrue(text.contains("CA:TRUE, pathlen:3"), text)
        XCTAssertTrue(text.contains("Digital Signature, Certificate Sign"), text)
        XCTAssertTrue(text.contains("TLS Web Server Authentication, TLS Web Client Authentication"), text)
        XCTAssertTrue(text.contains("DNS:example.com"), text)
        XCTAssertTrue(text.contains("IP:10.0.0.0/255.0.0.0"), text)
        XCTAssertTrue(text.contains("OCSP - URI:http://ocsp.example.com"), text)
        XCTAssertTrue(text.contains("CA Issuers - URI:http://ca.example.com/issuer.cer"), text)
        XCTAssertTrue(text.contains("Policy: 2.23.140.1.2.1"), text)
        XCTAssertTrue(text.contains("URI:http://crl.example.com/ca.crl"), text)
        XCTAssertTrue(
            text.contains(hexString(try XCTUnwrap(cert.subjectKeyIdentifier), separator: ":").uppercased()), text)
    }

    func testKeyBitsAgreeWithOpenSSLForEveryKeyKind() throws {
        let dir = try TemporaryDirectory()
        let kinds = [KeyKind.rsa(bits: 1024), .rsa(bits: 2048), .ecP256, .ecP384, .ecP521]
        let certs = try kinds.map { try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey($0)).certificate }
        // One openssl process prints every certificate, in order, each from its "Certificate:".
        let file = try dir.writePEM("c.pem", certs)
        let text = try Shell.output(
            "openssl crl2pkcs7 -nocrl -certfile \(file) | openssl pkcs7 -print_certs -text -noout")
        let printed = text.components(separatedBy: "Certificate:\n").dropFirst()
        XCTAssertEqual(printed.count, kinds.count, text)
        for (kind, (cert, block)) in zip(kinds, zip(certs, printed)) {
            XCTAssertTrue(block.contains("Public-Key: (\(cert.publicKey.bits) bit)"), "\(kind): \(cert.publicKey.bits)")
        }
        XCTAssertEqual(
            try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey(.ed25519)).certificate.publicKey.type, .ed25519)
        XCTAssertEqual(try TestPKI.selfSignedLeaf(key: TestPKI.sharedKey(.ed448)).certificate.publicKey.type, .ed448)
    }

    /// The extensions the checks enforce are the ones a critical instance of passes: every type
    /// the decoder reads, except the SCT list and the CT poison, which Apple's parser does not
    /// read either (RFC 6962 3.1: a precertificate is not a certificate to trust).
    func testUnderstoodExtensionsAreTheEnforcedOnes() {
        XCTAssertEqual(enforcedExtensions, Extension.decodable.subtracting([OID.sctList, OID.ctPoison]))
        for oid in Extension.decodable.union([OID(dotted: "1.3.6.1.4.1.55555.2")!]) {
            let ext = Extension(oid: oid, critical: true, value: [], decoded: .raw(error: nil))
            XCTAssertEqual(ext.isKnown, enforcedExtensions.contains(oid), oid.dotted)
        }
    }

    func testDuplicateExtensionIsDecodedAndFlagged() throws {
        let bc = DERWriter.encode { w in w.sequence { $0.boolean(true) } }
        let root = try TestPKI.root { $0.rawExtensions = [.init(oid: OID.basicConstraints, critical: true, value: bc)] }
        XCTAssertEqual(
            root.certificate.complianceIssues.map(\.description),
            ["duplicate extension basicConstraints (RFC 5280 4.2)"])
    }

    // MARK: - Robustness

    /// The DecodingError `body` throws; fails the test if it throws nothing or something else.
    private func decodingError(
        _ what: String, file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> Void
    ) -> DecodingError? {
        do {
            try body()
            XCTFail("\(what): no error", file: file, line: line)
        } catch let error as DecodingError {
            return error
        } catch {
            XCTFail("\(what): \(error)", file: file, line: line)
        }
        return nil
    }

    func testEveryTruncationOfACertificateThrowsWithAnOffsetInsideTheInput() throws {
        let der = try TestPKI.chain().leaf.certificate.der
        for n in 0..<der.count {
            let prefix = Array(der.prefix(n))
            guard let error = decodingError("prefix \(n)", { _ = try Certificate(der: prefix) }) else { continue }
            XCTAssertTrue((0...n).contains(error.offset), "prefix \(n): offset \(error.offset)")
            XCTAssertFalse(error.description.contains("\n"))
        }
    }

    func testTruncatedOuterSequenceIsReportedAtItsHeader() throws {
        let der = try TestPKI.chain().leaf.certificate.der
        let error = decodingError("truncated") { _ = try Certificate(der: Array(der.dropLast())) }
        XCTAssertEqual(error?.offset, 0)
    }

    func testTrailingDataAfterTheCertificateIsRejectedWhereItStarts() throws {
        let der = try TestPKI.chain().leaf.certificate.der
        let error = decodingError("trailing") { _ = try Certificate(der: der + [0x00]) }
        XCTAssertEqual(error?.offset, der.count)
    }

    func testOversizedAndMalformedLengthsAreRejectedAtTheirHeader() {
        let cases: [([UInt8], Int)] = [
            ([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x00], 0),  // 2 GiB claimed, 1 byte present
            ([0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00], 1),  // five length octets
            ([0x30, 0x80, 0x00, 0x00], 1),  // indefinite length
            ([0x30, 0x81, 0x05, 0x02, 0x01, 0x00, 0x02, 0x00], 1),  // long form for a short length
            ([0x30], 1),  // no length at all
            ([], 0),
        ]
        for (bytes, offset) in cases {
            let error = decodingError("\(bytes)") { _ = try Certificate(der: bytes) }
            XCTAssertEqual(error?.offset, offset, "\(bytes): \(String(describing: error))")
        }
    }

    func testRandomBytesNeverDecodeAndNeverTrap() {
        var rng = SplitMix64(seed: 0x7275_7374_78)
        for i in 0..<2000 {
            let count = Int(rng.next() % 600)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if i % 2 == 0, !bytes.isEmpty { bytes[0] = 0x30 }
            if let error = decodingError("random \(i)", { _ = try Certificate(der: bytes) }) {
                XCTAssertTrue((0...bytes.count).contains(error.offset), "random \(i): \(error)")
            }
            if let error = decodingError("random \(i) via loader", { _ = try CertificateLoader.decode(bytes) }) {
                XCTAssertTrue((0...bytes.count).contains(error.offset), "random \(i): \(error)")
            }
        }
    }

    func testSingleByteMutationsEitherDecodeOrThrowAndEvaluateWithoutTrapping() throws {
        let c = try TestPKI.chain()
        let der = c.leaf.certificate.der
        let settings = TestPKI.ssl(anchors: [c.root.certificate])
        var decoded = 0
        for i in 0..<der.count {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var bytes = der
                bytes[i] ^= flip
                let mutated: Certificate
                do {
                    mutated = try Certificate(der: bytes)
                } catch {
                    XCTAssertTrue((0...bytes.count).contains(error.offset), "byte \(i): \(error)")
                    continue
                }
                decoded += 1
                // Whatever decodes must evaluate to some verdict, and never to trusted with a
                // signature that no longer covers these bytes.
                let e = try evaluate([mutated, c.intermediate.certificate], settings)
                if e.verdict.trusted {
                    XCTAssertEqual(
                        SignatureVerifier.verify(mutated, signedBy: c.intermediate.certificate.publicKey),
                        .valid, "byte \(i) ^ \(flip)")
                }
            }
        }
        XCTAssertGreaterThan(decoded, 0, "some mutations (inside the signature, names) still decode")
    }

    func testFileLargerThanTheLimitIsRefusedBeforeDecoding() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("huge.der", [UInt8](repeating: 0x30, count: CertificateLoader.maximumFileSize + 1))
        XCTAssertThrowsError(try CertificateLoader.load(path: file)) { error in
            guard case LoadError.unreadable(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("larger than"), reason)
        }
    }

    func testLargeButValidLookingLengthInsideTheLimitFailsCleanly() {
        // A SEQUENCE claiming 1 MiB of content with only a few bytes behind it.
        let bytes: [UInt8] = [0x30, 0x83, 0x10, 0x00, 0x00, 0x30, 0x03, 0x02, 0x01, 0x00]
        XCTAssertEqual(decodingError("1 MiB claim") { _ = try Certificate(der: bytes) }?.offset, 0)
    }

    // MARK: - PEM

    func testPEMWithoutAnEndLineThrowsAtItsBeginLine() throws {
        let pem = "junk\n" + PEM.encode(try TestPKI.chain().leaf.certificate.der)
        let cut = Array(pem.utf8.prefix(pem.utf8.count - 10))
        let error = decodingError("no END") { _ = try PEM.blocks(in: cut) }
        XCTAssertEqual(error?.offset, 5)
    }

    func testPEMWithInvalidBase64ThrowsAtTheBody() {
        let pem = Array("-----BEGIN CERTIFICATE-----\nMII*\n-----END CERTIFICATE-----\n".utf8)
        let error = decodingError("bad base64") { _ = try PEM.blocks(in: pem) }
        XCTAssertEqual(error?.offset, 27)
    }

    func testEveryTruncationOfAPEMBundleFailsCleanly() throws {
        let c = try TestPKI.chain()
        let pem = Array(c.presented.map { PEM.encode($0.der) }.joined().utf8)
        for n in stride(from: 0, to: pem.count, by: 7) {
            let prefix = Array(pem.prefix(n))
            do {
                let certs = try CertificateLoader.decode(prefix)
                // A cut just after the first END line leaves one complete certificate.
                XCTAssertEqual(certs.first, c.leaf.certificate, "prefix \(n)")
            } catch let error as DecodingError {
                XCTAssertTrue((0...n).contains(error.offset), "prefix \(n): \(error)")
            } catch {
                XCTFail("prefix \(n): \(error)")
            }
        }
    }

    func testNonCertificateInputSaysWhatItIs() {
        XCTAssertEqual(decodingError("empty") { _ = try CertificateLoader.decode([]) }?.reason, "empty input")
        XCTAssertEqual(decodingError("text") { _ = try CertificateLoader.decode(Array("hello".utf8)) }?.offset, 0)
        let onlyKey = Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8)
        XCTAssertEqual(
            decodingError("no cert") { _ = try CertificateLoader.decode(onlyKey) }?.reason,
            "no CERTIFICATE block in PEM input")
    }
}

/// A small deterministic generator, so random-input tests fail reproducibly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
