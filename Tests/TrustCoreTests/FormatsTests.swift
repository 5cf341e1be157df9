import Foundation
import SuiteFixtures
import XCTest

@testable import TrustCore
@testable import TrustX509

/// PEM, DER, PKCS#7 and PKCS#12 files (the containers made by the openssl CLI) load the same
/// certificates.
final class FormatsTests: XCTestCase {
    private var chain: TestPKI.Chain!
    private var dir: TemporaryDirectory!
    private var bundle: String!

    private var all: [Certificate] { [chain.leaf.certificate, chain.intermediate.certificate, chain.root.certificate] }

    override func setUpWithError() throws {
        chain = try TestPKI.chain()
        dir = try TemporaryDirectory()
        bundle = try dir.writePEM("bundle.pem", all)
    }

    func testPEMBundleLoadsEveryCertificateInOrder() throws {
        XCTAssertEqual(try CertificateLoader.load(path: bundle), all)
    }

    func testDERFileLoadsOneCertificate() throws {
        let file = try dir.write("leaf.der", chain.leaf.certificate.der)
        XCTAssertEqual(try CertificateLoader.load(path: file), [chain.leaf.certificate])
    }

    func testPKCS7FromOpenSSLLoadsTheSameCertificates() throws {
        let p7b = dir.path + "/bundle.p7b"
        _ = try Shell.output("openssl crl2pkcs7 -nocrl -certfile \(bundle!) -outform DER -out \(p7b)")
        XCTAssertEqual(try CertificateLoader.load(path: p7b), all)
        let p7pem = dir.path + "/bundle.p7c"
        _ = try Shell.output("openssl crl2pkcs7 -nocrl -certfile \(bundle!) -outform PEM -out \(p7pem)")
        XCTAssertEqual(try CertificateLoader.load(path: p7pem), all)
    }

    func testPKCS12WithPasswordLoadsTheSameCertificates() throws {
        // OpenSSL 3 encrypts with AES-256-CBC and PBKDF2 by default.
        let p12 = try makePKCS12(extraOptions: "")
        let info = try Shell.output("openssl pkcs12 -in \(p12) -info -noout -passin pass:x 2>&1")
        XCTAssertTrue(info.contains("AES-256-CBC"), info)
        let loaded = try CertificateLoader.load(path: p12, password: "x")
        XCTAssertEqual(loaded.first, chain.leaf.certificate)
        XCTAssertEqual(Set(loaded), Set(all))
        XCTAssertEqual(loaded.count, 3)
    }

    func testPKCS12WithTheWrongPasswordIsAPasswordError() throws {
        let p12 = try makePKCS12(extraOptions: "")
        XCTAssertThrowsError(try CertificateLoader.load(path: p12, password: "wrong")) { error in
            guard case LoadError.password(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, p12)
        }
    }

    func testPKCS12WithoutAPasswordIsAPasswordError() throws {
        let p12 = try makePKCS12(extraOptions: "")
        XCTAssertThrowsError(try CertificateLoader.load(path: p12)) { error in
            guard case LoadError.password = error else { return XCTFail("\(error)") }
        }
    }

    func testLegacyPKCS12LoadsTheSameCertificates() throws {
        // RC2-40 and 3DES, what older tools and macOS Keychain exports use.
        let p12 = try makePKCS12(extraOptions: "-legacy")
        let loaded = try CertificateLoader.load(path: p12, password: "x")
        XCTAssertEqual(Set(loaded), Set(all))
    }

    func testTrustedCertificatePEMLoadsTheCertificateWithoutItsTrustSettings() throws {
        let leaf = try dir.writePEM("leaf.pem", [chain.leaf.certificate])
        let trusted = dir.path + "/trusted.pem"
        _ = try Shell.output("openssl x509 -in \(leaf) -addtrust serverAuth -trustout -out \(trusted)")
        XCTAssertTrue(try String(contentsOfFile: trusted, encoding: .utf8).contains("BEGIN TRUSTED CERTIFICATE"))
        XCTAssertEqual(try CertificateLoader.load(path: trusted), [chain.leaf.certificate])
    }

    func testPEMWithTextAroundTheBlocksLoads() throws {
        let leaf = try dir.writePEM("leaf.pem", [chain.leaf.certificate])
        let text = dir.path + "/text.pem"
        _ = try Shell.output("openssl x509 -in \(leaf) -text -out \(text)")
        XCTAssertEqual(try CertificateLoader.load(path: text), [chain.leaf.certificate])
    }

    func testMissingFileAndDirectoryAreUnreadable() {
        for path in [dir.path + "/missing.pem", dir.path] {
            XCTAssertThrowsError(try CertificateLoader.load(path: path)) { error in
                guard case LoadError.unreadable(let p, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(p, path)
            }
        }
    }

    func testMalformedFileIsReportedWithItsPathAndOffset() throws {
        let file = try dir.write("broken.der", Array(chain.leaf.certificate.der.dropLast(3)))
        XCTAssertThrowsError(try CertificateLoader.load(path: file)) { error in
            guard case LoadError.malformed(let e) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.file, file)
            XCTAssertEqual(e.offset, 0)
            XCTAssertTrue(e.description.hasPrefix(file + ": byte 0: "), e.description)
        }
    }

    private func makePKCS12(extraOptions: String) throws -> String {
        let key = try dir.write("leaf.key", chain.leaf.key.privateKeyPEM())
        let leaf = try dir.writePEM("leaf.pem", [chain.leaf.certificate])
        let cas = try dir.writePEM("cas.pem", [chain.intermediate.certificate, chain.root.certificate])
        let p12 = dir.path + "/bundle\(extraOptions).p12"
        _ = try Shell.output(
            "openssl pkcs12 -export \(extraOptions) -in \(leaf) -inkey \(key) -certfile \(cas) "
                + "-passout pass:x -out \(p12)")
        return p12
    }
}
