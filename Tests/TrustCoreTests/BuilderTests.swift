import Dispatch
import SuiteFixtures
import Synchronization
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// The builder's output is checked against X.690 by hand and against the openssl CLI, which
/// parses and verifies what it writes independently of TrustCore.
final class BuilderTests: XCTestCase {
    // MARK: - DERWriter

    func testIntegersAreEncodedMinimallyWithSignOctetsWhereNeeded() {
        func enc(_ v: Int) -> [UInt8] { DERWriter.encode { $0.integer(v) } }
        XCTAssertEqual(enc(0), [0x02, 0x01, 0x00])
        XCTAssertEqual(enc(127), [0x02, 0x01, 0x7F])
        XCTAssertEqual(enc(128), [0x02, 0x02, 0x00, 0x80])
        XCTAssertEqual(enc(256), [0x02, 0x02, 0x01, 0x00])
        XCTAssertEqual(enc(-1), [0x02, 0x01, 0xFF])
        XCTAssertEqual(enc(-128), [0x02, 0x01, 0x80])
        XCTAssertEqual(enc(-129), [0x02, 0x02, 0xFF, 0x7F])
        XCTAssertEqual(DERWriter.encode { $0.integer(magnitude: [0x00, 0x00, 0x80]) }, [0x02, 0x02, 0x00, 0x80])
        XCTAssertEqual(DERWriter.encode { $0.integer(magnitude: [0x00, 0x01]) }, [0x02, 0x01, 0x01])
        XCTAssertEqual(DERWriter.encode { $0.integer(magnitude: []) }, [0x02, 0x01, 0x00])
    }

    func testLengthsUseTheShortFormBelow128AndMinimalLongFormAbove() {
        func header(_ n: Int) -> [UInt8] {
            Array(DERWriter.encode { $0.octetString([UInt8](repeating: 0, count: n)) }.prefix(4))
        }
        XCTAssertEqual(Array(header(127).prefix(2)), [0x04, 0x7F])
        XCTAssertEqual(Array(header(128).prefix(3)), [0x04, 0x81, 0x80])
        XCTAssertEqual(Array(header(255).prefix(3)), [0x04, 0x81, 0xFF])
        XCTAssertEqual(header(256), [0x04, 0x82, 0x01, 0x00])
    }

    func testNamedBitStringsDropTrailingZeroBits() {
        // X.690 11.2.2; the keyUsage encodings openssl writes for the same bits.
        XCTAssertEqual(DERWriter.encode { $0.namedBits([0]) }, [0x03, 0x02, 0x07, 0x80])
        XCTAssertEqual(DERWriter.encode { $0.namedBits([5, 6]) }, [0x03, 0x02, 0x01, 0x06])
        XCTAssertEqual(DERWriter.encode { $0.namedBits([0, 2]) }, [0x03, 0x02, 0x05, 0xA0])
        XCTAssertEqual(DERWriter.encode { $0.namedBits([8]) }, [0x03, 0x03, 0x07, 0x00, 0x80])
        XCTAssertEqual(DERWriter.encode { $0.namedBits([]) }, [0x03, 0x01, 0x00])
    }

    func testTimesUseUTCTimeThrough2049AndGeneralizedTimeFrom2050() {
        let last = TestPKI.date(2049, 12, 31) + .hours(23) + .seconds(3599)
        XCTAssertEqual(DERWriter.encode { $0.time(last) }, [0x17, 13] + Array("491231235959Z".utf8))
        XCTAssertEqual(
            DERWriter.encode { $0.time(TestPKI.date(2050, 1, 1)) }, [0x18, 15] + Array("20500101000000Z".utf8))
        XCTAssertEqual(
            DERWriter.encode { $0.time(TestPKI.date(1999, 2, 3)) }, [0x17, 13] + Array("990203000000Z".utf8))
    }

    func testSetOfSortsItsElements() {
        XCTAssertEqual(
            DERWriter.encode { $0.setOf([[0x02, 0x01, 0x05], [0x02, 0x01, 0x01]]) },
            [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x05])
    }

    // MARK: - Certificates

    func testBuiltChainVerifiesWithOpenSSLStrictChecks() throws {
        let chain = try TestPKI.chain()
        let dir = try TemporaryDirectory()
        let root = try dir.writePEM("root.pem", [chain.root.certificate])
        let int = try dir.writePEM("int.pem", [chain.intermediate.certificate])
        let leaf = try dir.writePEM("leaf.pem", [chain.leaf.certificate])
        let out = try Shell.output(
            "openssl verify -x509_strict -purpose sslserver -verify_hostname www.example.com "
                + "-attime \(TestPKI.now.secondsSinceEpoch) -CAfile \(root) -untrusted \(int) \(leaf)")
        XCTAssertEqual(out, "\(leaf): OK\n")
    }

    func testEveryKeyKindSignsCertificatesThatOpenSSLAndTrustCoreVerify() throws {
        let kinds: [KeyKind] = [.ecP256, .ecP384, .ecP521, .rsa(bits: 2048), .ed25519, .ed448]
        let dir = try TemporaryDirectory()
        for kind in kinds {
            let key = try TestPKI.sharedKey(kind)
            let root = try TestPKI.root("Root \(kind)", key: key)
            let leaf = try TestPKI.leaf(issuer: root)
            XCTAssertEqual(
                root.certificate.signatureAlgorithm.oid, SignatureAlgorithm.standard(for: kind).oid, "\(kind)")
            XCTAssertEqual(
                leaf.certificate.signatureAlgorithm.oid, SignatureAlgorithm.standard(for: kind).oid, "\(kind)")
            XCTAssertEqual(
                SignatureVerifier.verify(leaf.certificate, signedBy: root.certificate.publicKey), .valid, "\(kind)")
            XCTAssertEqual(root.certificate.publicKey.der, key.spkiDER, "\(kind)")
            let r = try dir.writePEM("root.pem", [root.certificate])
            let l = try dir.writePEM("leaf.pem", [leaf.certificate])
            let out = try Shell.output("openssl verify -attime \(TestPKI.now.secondsSinceEpoch) -CAfile \(r) \(l)")
            XCTAssertEqual(out, "\(l): OK\n", "\(kind)")
        }
    }

    func testWeakSignatureAlgorithmsAreWrittenAsRequestedAndVerify() throws {
        let rsa = try TestPKI.sharedKey(.rsa(bits: 2048))
        let ec = try KeyPair.generate(.ecP256)
        for (algorithm, key) in [
            (SignatureAlgorithm.sha1WithRSA, rsa), (.md5WithRSA, rsa), (.ecdsaWithSHA1, ec),
            (.sha384WithRSA, rsa), (.sha512WithRSA, rsa), (.ecdsaWithSHA384, ec), (.ecdsaWithSHA512, ec),
        ] {
            let root = try TestPKI.root(key: key) { $0.signatureAlgorithm = algorithm }
            XCTAssertEqual(root.certificate.signatureAlgorithm.oid, algorithm.oid)
            XCTAssertEqual(root.certificate.signatureAlgorithm.der, algorithm.der)
            XCTAssertEqual(
                SignatureVerifier.verify(root.certificate, signedBy: root.certificate.publicKey), .valid,
                "\(algorithm)")
        }
    }

    func testSigningWithAnAlgorithmThatDoesNotFitTheKeyThrows() throws {
        let key = try KeyPair.generate(.ecP256)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: "x"), publicKey: key, notBefore: TestPKI.now,
            notAfter: TestPKI.now + .days(1))
        b.signatureAlgorithm = .sha256WithRSA
        XCTAssertThrowsError(try b.selfSign(key: key)) { error in
            guard case BuilderError.unsupported = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try key.sign([1, 2, 3], hash: nil))
        XCTAssertThrowsError(try KeyPair.generate(.ed25519).sign([1, 2, 3], hash: .sha256))
    }

    func testAFailedSignatureCarriesOpenSSLsOwnReasons() throws {
        // PKCS#1 v1.5 over SHA-512 needs 94 octets; a 512-bit modulus has 64.
        let key = try KeyPair.generate(.rsa(bits: 512))
        let dir = try TemporaryDirectory()
        let keyFile = try dir.write("key.pem", key.privateKeyPEM())
        let dataFile = try dir.write("data", [1, 2, 3])
        let cli = try Shell.run("openssl dgst -sha512 -sign \(keyFile) -out /dev/null \(dataFile)")
        XCTAssertNotEqual(cli.status, 0)
        // openssl prints each queue entry as PID:error:CODE:LIBRARY:FUNCTION:REASON:FILE:LINE:
        let expected = cli.stderr.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            return fields.count > 5 && fields[1] == "error" ? String(fields[5]) : nil
        }
        XCTAssertFalse(expected.isEmpty, cli.stderr)

        XCTAssertThrowsError(try key.sign([1, 2, 3], hash: .sha512)) { error in
            guard let error = error as? BuilderError, case .openssl(let operation, let errors) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(operation, "EVP_DigestSign")
            XCTAssertEqual(error.openSSLReasons, expected)
            XCTAssertEqual(errors.first?.line.hasPrefix("error:"), true, "\(errors)")
            XCTAssertTrue(error.description.contains(expected[0]), error.description)
        }
        XCTAssertEqual(OpenSSLErrorQueue.drain(), [], "the failure took the queue with it")
    }

    func testPrivateKeyPEMIsPKCS8AndMatchesThePublicKey() throws {
        let dir = try TemporaryDirectory()
        for kind in [KeyKind.ecP256, .rsa(bits: 2048), .ed25519] {
            let key = try TestPKI.sharedKey(kind)
            let pem = key.privateKeyPEM()
            XCTAssertTrue(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), "\(kind)")
            let file = try dir.write("key.pem", pem)
            let r = try Shell.run("openssl pkey -in \(file) -pubout -outform DER")
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, key.spkiDER, "\(kind)")
            let reread = try KeyPair(privateKeyPEM: pem)
            XCTAssertEqual(reread.spkiDER, key.spkiDER, "\(kind)")
            XCTAssertEqual(reread.kind, kind)
        }
    }

    func testAutomaticKeyIdentifiersMatchWhatOpenSSLComputesForTheSameKey() throws {
        // openssl req -x509 writes subjectKeyIdentifier = hash by default (RFC 5280 method 1).
        let key = try KeyPair.generate(.ecP256)
        let dir = try TemporaryDirectory()
        let keyFile = try dir.write("key.pem", key.privateKeyPEM())
        let out = try Shell.output(
            "openssl req -x509 -new -key \(keyFile) -subj /CN=x -days 1 -outform DER | base64 -w0")
        let theirs = try Certificate(
            der: try XCTUnwrap(Base64.decode(out.trimmingCharacters(in: .whitespacesAndNewlines))))
        XCTAssertEqual(theirs.subjectKeyIdentifier, key.keyIdentifier)
        let ours = try TestPKI.root(key: key)
        XCTAssertEqual(ours.certificate.subjectKeyIdentifier, key.keyIdentifier)
        XCTAssertNil(ours.certificate.authorityKeyIdentifier, "self-signed: no AKI by default")
        let leaf = try TestPKI.leaf(issuer: ours)
        XCTAssertEqual(leaf.certificate.authorityKeyIdentifier?.keyIdentifier, key.keyIdentifier)
    }

    func testKeyIdentifiersCanBeOmittedOrForced() throws {
        let root = try TestPKI.root()
        let leaf = try TestPKI.leaf(issuer: root) {
            $0.subjectKeyIdentifier = .omitted
            $0.authorityKeyIdentifier = .explicit([1, 2, 3])
        }
        XCTAssertNil(leaf.certificate.subjectKeyIdentifier)
        XCTAssertEqual(leaf.certificate.authorityKeyIdentifier?.keyIdentifier, [1, 2, 3])
    }

    func testVersion1CertificatesCarryNoExtensions() throws {
        let root = try TestPKI.root { $0.version = 1 }
        XCTAssertEqual(root.certificate.version, 1)
        XCTAssertTrue(root.certificate.extensions.isEmpty)
        XCTAssertTrue(root.certificate.complianceIssues.isEmpty)
    }

    func testRandomSerialsArePositiveSixteenOctetsAndDiffer() throws {
        let a = try TestPKI.root().certificate.serialNumber
        let b = try TestPKI.root().certificate.serialNumber
        XCTAssertEqual(a.count, 16)
        XCTAssertEqual(a[0] & 0x80, 0)
        XCTAssertNotEqual(a, b)
    }

    func testSignedDERWithAForeignKeyDoesNotVerify() throws {
        let root = try TestPKI.root()
        let stranger = try KeyPair.generate(.ecP256)
        let forged = try TestPKI.leaf(issuer: Issued(certificate: root.certificate, key: stranger))
        XCTAssertTrue(forged.certificate.issuer.matches(root.certificate.subject))
        XCTAssertEqual(SignatureVerifier.verify(forged.certificate, signedBy: root.certificate.publicKey), .invalid)
    }

    func testNameBuilderAcceptsShortNamesAndDottedOIDs() throws {
        let name = try XCTUnwrap(NameBuilder(pairs: [("C", "US"), ("O", "Acme"), ("2.5.4.11", "Ops"), ("CN", "host")]))
        let cert = try CertificateBuilder(
            subject: name, publicKey: KeyPair.generate(.ecP256),
            notBefore: TestPKI.now, notAfter: TestPKI.now + .days(1)
        ).selfSign(key: KeyPair.generate(.ecP256))
        XCTAssertEqual(cert.subject.description, "C=US, O=Acme, OU=Ops, CN=host")
        XCTAssertEqual(cert.subject.attributes.first?.valueTag, 0x13, "countryName is a PrintableString")
        XCTAssertNil(NameBuilder(pairs: [("Nonsense", "x")]))
    }

    func testIPSubnetsBecomeAddressAndMask() throws {
        XCTAssertEqual(try GeneralName.ipSubnet("10.0.0.0/8"), .ipAddress([10, 0, 0, 0, 255, 0, 0, 0]))
        XCTAssertEqual(try GeneralName.ipSubnet("192.168.1.0/25"), .ipAddress([192, 168, 1, 0, 255, 255, 255, 128]))
        guard case .ipAddress(let v6) = try GeneralName.ipSubnet("fd00::/8") else { return XCTFail() }
        XCTAssertEqual(v6.count, 32)
        XCTAssertEqual(v6[16], 0xFF)
        XCTAssertEqual(v6[17], 0)
        XCTAssertThrowsError(try GeneralName.ipSubnet("10.0.0.0/33"))
        XCTAssertThrowsError(try GeneralName.ip("not-an-ip"))
    }

    func testOneKeyPairSignsFromManyThreadsAtOnce() throws {
        // KeyPair is Sendable: concurrent signing must be safe and every signature valid.
        let key = try KeyPair.generate(.ecP256)
        let root = try TestPKI.root(key: key)
        let builder = TestPKI.leafBuilder(TestPKI.host, key: key, notBefore: TestPKI.now, lifetime: .days(10)) { _ in }
        let results = Mutex<[SignatureCheckResult]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            let outcome: SignatureCheckResult
            if let cert = try? builder.sign(issuerKey: key, issuer: root.certificate) {
                outcome = SignatureVerifier.verify(cert, signedBy: root.certificate.publicKey)
            } else {
                outcome = .unsupported("signing failed")
            }
            results.withLock { $0.append(outcome) }
        }
        XCTAssertEqual(results.withLock { $0 }, [SignatureCheckResult](repeating: .valid, count: 32))
    }

    func testMultiValuedRDNsAreWrittenAsOneSet() throws {
        let key = try KeyPair.generate(.ecP256)
        let name = NameBuilder(rdns: [
            [.country("US")], [.organization("Acme"), .organizationalUnit("Ops")], [.commonName("x")],
        ])
        let cert = try CertificateBuilder(
            subject: name, publicKey: key, notBefore: TestPKI.now,
            notAfter: TestPKI.now + .days(1)
        ).selfSign(key: key)
        XCTAssertEqual(cert.subject.rdns.count, 3)
        XCTAssertEqual(cert.subject.rdns[1].count, 2)
        XCTAssertTrue(cert.isSelfIssued)
    }

    func testEveryGeneralNameTypeRoundTripsThroughTheDecoder() throws {
        let dirName = try TestPKI.root("Directory").certificate.subject
        let names: [GeneralName] = [
            .otherName(
                type: OID(dotted: "1.3.6.1.4.1.311.20.2.3")!, value: DERWriter.encode { $0.utf8String("u@example.com") }
            ),
            .rfc822Name("x@example.com"), .dnsName("a.example.com"), .directoryName(dirName),
            .uri("https://example.com/"), .ipAddress([192, 0, 2, 1]), .registeredID(OID(dotted: "1.2.3.4")!),
        ]
        let leaf = try TestPKI.selfSignedLeaf { $0.subjectAltNames = .init(names) }
        XCTAssertEqual(leaf.certificate.subjectAltNames, names)
        XCTAssertEqual(leaf.certificate.complianceIssues, [])
    }
}
