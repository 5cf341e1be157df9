import Foundation
import SuiteFixtures
import Synchronization
import TrustSupport
import XCTest

@testable import TrustCore
@testable import TrustX509

final class SystemTrustStoreTests: XCTestCase {
    static let systemDir = "/etc/ssl/certs"

    // MARK: - Helpers

    /// The system directory's roots, read once for the class: most tests look at all of them.
    static let loadedRoots: [(path: String, cert: Certificate)] = {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: systemDir)) ?? [])
            .filter { $0.hasSuffix(".pem") }.sorted()
        return names.compactMap { name -> (String, Certificate)? in
            let path = systemDir + "/" + name
            guard let cert = try? CertificateLoader.load(path: path).first else { return nil }
            return (path, cert)
        }
    }()

    /// Roots whose subject no other root shares, found once for the class.
    static let loadedUniqueSubjectRoots: [(path: String, cert: Certificate)] = loadedRoots.filter { r in
        loadedRoots.filter { $0.cert.subject.matches(r.cert.subject) }.count == 1
    }

    /// Every `*.pem` in the system directory with its parsed certificate (skipping any that fail).
    func systemRoots() throws -> [(path: String, cert: Certificate)] {
        if Self.loadedRoots.isEmpty { throw XCTSkip("no PEM roots in \(Self.systemDir)") }
        return Self.loadedRoots
    }

    /// Roots whose subject no other root shares.
    func uniqueSubjectRoots() throws -> [(path: String, cert: Certificate)] {
        _ = try systemRoots()
        return Self.loadedUniqueSubjectRoots
    }

    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "trustx-store-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let r = try ProcessRunner.run("/usr/bin/env", arguments)
        guard r.status == 0 else {
            throw XCTSkip("\(arguments.joined(separator: " ")) exited \(r.status)")
        }
        return r.out
    }

    func write(_ certs: [Certificate], to path: String) throws {
        try certs.map { PEM.encode($0.der) }.joined().write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        if content.count < 0x80 {
            out.append(UInt8(content.count))
        } else if content.count < 0x100 {
            out += [0x81, UInt8(content.count)]
        } else {
            out += [0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)]
        }
        return out + content
    }

    /// A Name from RDNs of (OID content octets, value tag, value content).
    static func name(_ rdns: [[(oid: [UInt8], tag: UInt8, value: [UInt8])]]) throws -> DistinguishedName {
        let der = tlv(
            0x30,
            rdns.flatMap { rdn in
                tlv(0x31, rdn.flatMap { tlv(0x30, tlv(0x06, $0.oid) + tlv($0.tag, $0.value)) })
            })
        var reader = DERReader(der)
        let node = try reader.readNode()
        return try DistinguishedName.decode(reader, node: node)
    }

    static let cn: [UInt8] = [0x55, 0x04, 0x03]
    static let o: [UInt8] = [0x55, 0x04, 0x0A]
    static let c: [UInt8] = [0x55, 0x04, 0x06]
    static let serial: [UInt8] = [0x55, 0x04, 0x05]
    static let email: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x01]

    // MARK: - Subject hash

    func testSubjectHashMatchesOpenSSLCLIForEveryRoot() throws {
        let roots = try systemRoots()
        // One openssl process hashes every root: `openssl rehash -v DIR` links each certificate
        // file of DIR as HASH.N (X509_NAME_hash_ex, as `x509 -subject_hash`) and prints
        // `link FILE -> HASH.N`.
        let dir = try temporaryDirectory()
        var names: [String: String] = [:]
        for (index, root) in roots.enumerated() {
            let name = "r\(index).pem"
            try FileManager.default.createSymbolicLink(atPath: dir + "/" + name, withDestinationPath: root.path)
            names[name] = root.path
        }
        var expected: [String: String] = [:]
        for line in try run(["openssl", "rehash", "-v", dir]).split(separator: "\n") where line.hasPrefix("link ") {
            let parts = line.split(separator: " ")
            guard parts.count == 4, let path = names[String(parts[1])] else { continue }
            expected[path] = String(parts[3].prefix { $0 != "." })
        }
        // rehash links the same certificate once; any other file gets `x509 -subject_hash`.
        for root in roots where expected[root.path] == nil {
            let hash = try run(["openssl", "x509", "-subject_hash", "-noout", "-in", root.path])
            expected[root.path] = hash.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(expected.count, roots.count, "openssl printed a hash for every root")
        for root in roots {
            let hash = SystemTrustStore.subjectHash(root.cert.subject)
            XCTAssertEqual(hash.count, 8)
            XCTAssertEqual(hash, expected[root.path], root.path)
            XCTAssertEqual(SystemTrustStore.subjectHashViaOpenSSL(root.cert.subject), hash, root.path)
        }
    }

    func testEveryHashLinkIsNamedByItsCertificatesHash() throws {
        let links = try FileManager.default.contentsOfDirectory(atPath: Self.systemDir)
            .filter(SystemTrustStore.isHashLinkName)
        if links.isEmpty { throw XCTSkip("\(Self.systemDir) has no hash links") }
        for link in links {
            let cert = try XCTUnwrap(SystemTrustStore.loadFile(Self.systemDir + "/" + link)?.first, link)
            XCTAssertEqual(SystemTrustStore.subjectHash(cert.subject), String(link.prefix(8)), link)
        }
    }

    func testCanonicalFormEdgeCasesAgreeWithOpenSSL() throws {
        let latin1: [UInt8] = [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72]  // "Müller" in T61/Latin-1
        let bmp: [UInt8] = [0x00, 0x41, 0x00, 0x20, 0x00, 0x20, 0x00, 0x62, 0x00, 0xC9, 0x4E, 0x2D]
        let universal: [UInt8] = [0, 0, 0, 0x20, 0, 0, 0, 0x58, 0, 0x01, 0xF6, 0x00, 0, 0, 0, 0x09]
        let cases: [[[(oid: [UInt8], tag: UInt8, value: [UInt8])]]] = [
            [],  // empty name
            [[(Self.cn, 0x0C, Array("Example".utf8))]],
            [[(Self.cn, 0x0C, Array("  Example \t\n  Root\u{0B}CA \r".utf8))]],
            [[(Self.cn, 0x13, Array("EXAMPLE  ROOT".utf8))]],
            [[(Self.c, 0x13, Array("DE".utf8))], [(Self.o, 0x14, latin1)]],
            [[(Self.cn, 0x1E, bmp)]],
            [[(Self.cn, 0x1C, universal)]],
            [[(Self.email, 0x16, Array("Admin@Example.COM".utf8))]],
            // (VisibleString and GeneralString are left out: OpenSSL 3.0 refuses them in a Name,
            // "mstring wrong tag", so no hash link can exist for such a name.)
            [[(Self.o, 0x03, [0x00, 0x41, 0x20, 0x20, 0x42])]],  // BIT STRING: copied as is
            [[(Self.serial, 0x12, Array("12 34".utf8))]],  // NumericString: copied as is
            [[(Self.cn, 0x0C, Array("ÄÖÜ Grüße".utf8))]],  // non-ASCII kept, not lowered
            [[(Self.cn, 0x0C, Array("   ".utf8))]],  // all whitespace
            // Multi-valued RDN, deliberately encoded out of DER order.
            [
                [(Self.o, 0x0C, Array("Zeta".utf8)), (Self.cn, 0x13, Array("alpha".utf8))],
                [(Self.c, 0x13, Array("US".utf8))],
            ],
            [[(Self.cn, 0x0C, Array("b".utf8)), (Self.cn, 0x0C, Array("AA".utf8))]],
            [[(Self.cn, 0x0C, Array(repeating: UInt8(ascii: "X"), count: 300))]],  // long-form lengths
        ]
        for (i, rdns) in cases.enumerated() {
            let name = try Self.name(rdns)
            let openssl = try XCTUnwrap(SystemTrustStore.subjectHashViaOpenSSL(name), "case \(i)")
            XCTAssertEqual(SystemTrustStore.subjectHash(name), openssl, "case \(i): \(name)")
        }
    }

    // MARK: - The system directory

    func testLookupOfAKnownRootReturnsExactlyThatRoot() throws {
        let roots = try uniqueSubjectRoots()
        let store = SystemTrustStore(certFile: nil, certDirectories: [Self.systemDir])
        let root = try XCTUnwrap(roots.first { $0.path.hasSuffix("/ISRG_Root_X1.pem") } ?? roots.first)
        XCTAssertEqual(store.certificates(withSubject: root.cert.subject), [root.cert])
        XCTAssertTrue(store.contains(root.cert))
        // Memoized: the same answer again.
        XCTAssertEqual(store.certificates(withSubject: root.cert.subject), [root.cert])
        XCTAssertEqual(store.location, "\(Self.systemDir) (hashed)")
    }

    func testEveryRootIsFoundByItsSubject() throws {
        let store = SystemTrustStore(certFile: nil, certDirectories: [Self.systemDir])
        for root in try systemRoots() {
            XCTAssertTrue(store.certificates(withSubject: root.cert.subject).contains(root.cert), root.path)
            XCTAssertTrue(store.contains(root.cert), root.path)
        }
    }

    func testRootsSharingASubjectAreAllReturned() throws {
        let roots = try systemRoots()
        let shared = roots.filter { r in roots.filter { $0.cert.subject.matches(r.cert.subject) }.count > 1 }
        guard let first = shared.first else { throw XCTSkip("no two roots share a subject") }
        let store = SystemTrustStore(certFile: nil, certDirectories: [Self.systemDir])
        let expected = Set(shared.filter { $0.cert.subject.matches(first.cert.subject) }.map(\.cert))
        XCTAssertEqual(Set(store.certificates(withSubject: first.cert.subject)), expected)
        XCTAssertGreaterThan(expected.count, 1)
    }

    func testSameSubjectDifferentKeyIsNotContained() throws {
        let root = try XCTUnwrap(try uniqueSubjectRoots().first)
        let dir = try temporaryDirectory()
        // Re-sign the root with a fresh key: same subject DER, different key and signature.
        try run([
            "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", dir + "/key.pem",
        ])
        try run(["openssl", "x509", "-in", root.path, "-signkey", dir + "/key.pem", "-out", dir + "/fake.pem"])
        let fake = try XCTUnwrap(try CertificateLoader.load(path: dir + "/fake.pem").first)
        XCTAssertEqual(fake.subject.der, root.cert.subject.der)
        XCTAssertNotEqual(fake.publicKey.der, root.cert.publicKey.der)

        let store = SystemTrustStore(certFile: nil, certDirectories: [Self.systemDir])
        XCTAssertFalse(store.contains(fake))
        XCTAssertEqual(store.certificates(withSubject: fake.subject), [root.cert])
        XCTAssertTrue(store.contains(root.cert))
    }

    func testAllCertificatesListsEveryRootOnce() throws {
        let roots = try systemRoots()
        let store = SystemTrustStore(certFile: nil, certDirectories: [Self.systemDir])
        let all = store.allCertificates()
        XCTAssertEqual(Set(all), Set(roots.map(\.cert)))
        XCTAssertEqual(all.count, Set(all).count)
    }

    // MARK: - Other layouts

    func testBundleMode() throws {
        let roots = try uniqueSubjectRoots()
        guard roots.count >= 3 else { throw XCTSkip("need three roots") }
        let (a, b, c) = (roots[0].cert, roots[1].cert, roots[2].cert)
        let dir = try temporaryDirectory()
        let bundle = dir + "/bundle.pem"
        // Junk around and between the blocks, plus a block that does not decode, are skipped.
        let text =
            "# roots\n" + PEM.encode(a.der) + "junk\n" + PEM.encode([0x30, 0x03, 0x02, 0x01, 0x00])
            + PEM.encode(b.der, label: "TRUSTED CERTIFICATE")
        try text.write(toFile: bundle, atomically: true, encoding: .utf8)

        let store = SystemTrustStore(certFile: bundle, certDirectories: [])
        XCTAssertEqual(store.certificates(withSubject: a.subject), [a])
        XCTAssertEqual(store.certificates(withSubject: b.subject), [b])
        XCTAssertEqual(store.certificates(withSubject: c.subject), [])
        XCTAssertTrue(store.contains(a))
        XCTAssertTrue(store.contains(b))
        XCTAssertFalse(store.contains(c))
        XCTAssertEqual(store.allCertificates(), [a, b])
        XCTAssertEqual(store.location, "\(bundle) (bundle)")
    }

    func testBundleAndDirectoryTogetherDoNotDuplicate() throws {
        let root = try XCTUnwrap(try uniqueSubjectRoots().first)
        let dir = try temporaryDirectory()
        try write([root.cert], to: dir + "/bundle.pem")
        let store = SystemTrustStore(certFile: dir + "/bundle.pem", certDirectories: [Self.systemDir])
        XCTAssertEqual(store.certificates(withSubject: root.cert.subject), [root.cert])
        XCTAssertEqual(store.location, "\(dir)/bundle.pem (bundle) + \(Self.systemDir) (hashed)")
    }

    func testDirectoryWithoutHashLinks() throws {
        let roots = try uniqueSubjectRoots()
        guard roots.count >= 3 else { throw XCTSkip("need three roots") }
        let (a, b, c) = (roots[0].cert, roots[1].cert, roots[2].cert)
        let dir = try temporaryDirectory()
        try write([a], to: dir + "/first.pem")
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/second.crt", contents: Data(b.der)))  // DER
        try "not a certificate".write(toFile: dir + "/broken.pem", atomically: true, encoding: .utf8)
        try write([c], to: dir + "/ignored.txt")  // neither .pem nor .crt
        try FileManager.default.createDirectory(atPath: dir + "/subdir.pem", withIntermediateDirectories: false)

        let store = SystemTrustStore(certFile: nil, certDirectories: [dir])
        XCTAssertEqual(store.certificates(withSubject: a.subject), [a])
        XCTAssertEqual(store.certificates(withSubject: b.subject), [b])
        XCTAssertEqual(store.certificates(withSubject: c.subject), [])
        XCTAssertFalse(store.contains(c))
        XCTAssertEqual(Set(store.allCertificates()), [a, b])
        XCTAssertEqual(store.location, "\(dir) (no hash links: every *.pem/*.crt)")
    }

    func testHashedDirectorySkipsBrokenLinksAndReadsFurtherSuffixes() throws {
        let roots = try uniqueSubjectRoots()
        guard roots.count >= 2 else { throw XCTSkip("need two roots") }
        let (a, b) = (roots[0].cert, roots[1].cert)
        let dir = try temporaryDirectory()
        let hash = SystemTrustStore.subjectHash(a.subject)
        try "garbage".write(toFile: "\(dir)/\(hash).0", atomically: true, encoding: .utf8)
        try write([a], to: "\(dir)/\(hash).1")
        // b stored under a's hash: a hash collision, filtered out by name matching.
        try write([b], to: "\(dir)/\(hash).2")
        // A gap: .4 is never read because .3 is missing.
        try write([b], to: "\(dir)/\(SystemTrustStore.subjectHash(b.subject)).4")

        let store = SystemTrustStore(certFile: nil, certDirectories: [dir])
        XCTAssertEqual(store.certificates(withSubject: a.subject), [a])
        XCTAssertEqual(store.certificates(withSubject: b.subject), [])
        XCTAssertEqual(store.location, "\(dir) (hashed)")
    }

    func testMissingSourcesGiveNothing() throws {
        let root = try XCTUnwrap(try systemRoots().first)
        let store = SystemTrustStore(certFile: "/nonexistent/bundle.pem", certDirectories: ["/nonexistent/dir", ""])
        XCTAssertEqual(store.certDirectories, ["/nonexistent/dir"])
        XCTAssertEqual(store.certificates(withSubject: root.cert.subject), [])
        XCTAssertFalse(store.contains(root.cert))
        XCTAssertEqual(store.allCertificates(), [])
        XCTAssertEqual(store.location, "/nonexistent/bundle.pem (bundle) + /nonexistent/dir (missing)")
        XCTAssertEqual(SystemTrustStore(certFile: "", certDirectories: []).location, "no system roots configured")
    }

    func testFromEnvironment() throws {
        let saved = ["SSL_CERT_FILE", "SSL_CERT_DIR"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        defer {
            for (key, value) in saved {
                if let value { setenv(key, value, 1) } else { unsetenv(key) }
            }
        }
        unsetenv("SSL_CERT_FILE")
        unsetenv("SSL_CERT_DIR")
        var store = SystemTrustStore.fromEnvironment()
        XCTAssertNil(store.certFile)
        XCTAssertEqual(store.certDirectories, ["/etc/ssl/certs"])

        setenv("SSL_CERT_FILE", "/tmp/roots.pem", 1)
        setenv("SSL_CERT_DIR", "/a::/b:/a:", 1)
        store = SystemTrustStore.fromEnvironment()
        XCTAssertEqual(store.certFile, "/tmp/roots.pem")
        XCTAssertEqual(store.certDirectories, ["/a", "/b"])

        // SSL_CERT_FILE alone keeps the default directory, as OpenSSL does.
        unsetenv("SSL_CERT_DIR")
        store = SystemTrustStore.fromEnvironment()
        XCTAssertEqual(store.certDirectories, ["/etc/ssl/certs"])
    }

    func testConcurrentLookupsAgree() throws {
        let roots = try systemRoots()
        let store = SystemTrustStore(certFile: nil, certDirectories: [Self.systemDir])
        let found = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: roots.count * 4) { i in
            let root = roots[i % roots.count].cert
            if store.contains(root) { found.withLock { $0 += 1 } }
        }
        XCTAssertEqual(found.withLock { $0 }, roots.count * 4)
    }

    func testBundleIndexHashesFromAPrefixOrTheWholeBlock() throws {
        let roots = try systemRoots()
        let bundle = Array(roots.map { PEM.encode($0.cert.der) }.joined().utf8)
        let pending = SystemTrustStore.certificateLocations(in: bundle)
        XCTAssertEqual(pending.count, roots.count)
        for (entry, root) in zip(pending, roots) {
            let hash = SystemTrustStore.subjectHash(root.cert.subject)
            XCTAssertEqual(SystemTrustStore.subjectHash(of: entry), hash, root.path)
            // A prefix too short for the subject falls back to the whole block.
            XCTAssertEqual(SystemTrustStore.subjectHash(of: entry, prefix: 24), hash, root.path)
            XCTAssertEqual(entry.decode(), root.cert)
        }
        // A DER file is one certificate.
        let der = SystemTrustStore.certificateLocations(in: roots[0].cert.der)
        XCTAssertEqual(der.count, 1)
        XCTAssertEqual(der.first?.decode(), roots[0].cert)
        XCTAssertEqual(SystemTrustStore.certificateLocations(in: Array("no PEM here".utf8)).count, 0)
        // Truncated: no hash, no crash.
        XCTAssertNil(SystemTrustStore.subjectHash(certificateDER: roots[0].cert.der.prefix(40)))
    }

    func testBase64DecoderAgreesWithBase64() throws {
        let roots = try systemRoots()
        for root in roots.prefix(20) {
            let text = Array(PEM.encode(root.cert.der).utf8)
            let body = text[text.firstIndex(of: 0x0A)! + 1..<(text.count - "-----END CERTIFICATE-----\n".utf8.count)]
            XCTAssertEqual(Base64.decodePrefix(body), root.cert.der)
            XCTAssertEqual(Base64.decodePrefix(body), Base64.decode(body))
        }
        for sample in ["", "QQ==", "QUI=", "QUJD", "QU JD\n", "QUJDRA"] {
            XCTAssertEqual(
                Base64.decodePrefix(Array(sample.utf8)[...]), Base64.decode(Array(sample.utf8)), sample)
        }
        XCTAssertNil(Base64.decodePrefix(Array("QU*D".utf8)[...]))
        XCTAssertNil(Base64.decodePrefix(Array("QUJDR".utf8)[...]))
    }
}
