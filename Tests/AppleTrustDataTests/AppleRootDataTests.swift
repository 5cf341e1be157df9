import AppleTrustData
import TrustSupport
import TrustX509
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The compiled-in root store against the tag and digests its generator recorded, and against a
/// security_certificates checkout when `TRUSTX_SECURITY_CERTIFICATES` names one.
final class AppleRootDataTests: XCTestCase {
    /// Apple's security_certificates-55349.0.11 ships 156 files in certificates/roots.
    static let rootsInTag = 156

    private func sha256Hex(_ text: String) -> String { hexString(Digest.sha256(Array(text.utf8))) }

    func testEveryRootFileRecordsTheSourceTag() {
        for (file, tag) in [
            ("AppleRootCertificates", AppleRootCertificates.tag), ("AppleRootIndex", AppleRootIndex.tag),
            ("AppleRemovedRoots", AppleRemovedRoots.tag), ("AppleRootConstraints", AppleRootConstraints.tag),
            ("AppleEVRoots", AppleEVRoots.tag),
        ] {
            XCTAssertEqual(tag, AppleTrustDataSource.tag, "\(file) was generated from another tag")
        }
        XCTAssertEqual(AppleTrustDataSource.tag, "security_certificates-55349.0.11")
    }

    func testRootCertificatesMatchTheirRecordedDigest() throws {
        var all: [UInt8] = []
        for text in AppleRootCertificates.base64 { all += try XCTUnwrap(Base64.decode(text)) }
        XCTAssertEqual(hexString(Digest.sha256(all)), AppleRootCertificates.digest)
    }

    func testRootIndexMatchesItsRecordedDigest() {
        let lines = AppleRootIndex.sha256.indices.map {
            "\(AppleRootIndex.sha256[$0]) \(AppleRootIndex.subjectHash[$0]) \(AppleRootIndex.fileName[$0])\n"
        }
        XCTAssertEqual(sha256Hex(lines.joined()), AppleRootIndex.digest)
        var table: [String: [Int]] = [:]
        for (i, hash) in AppleRootIndex.subjectHash.enumerated() { table[hash, default: []].append(i) }
        XCTAssertEqual(table, AppleRootIndex.bySubjectHash)
    }

    func testRemovedRootsMatchTheirRecordedDigest() {
        let text = AppleRemovedRoots.entries.map { "\($0.sha256) \($0.folder)\n" }.joined()
        XCTAssertEqual(sha256Hex(text), AppleRemovedRoots.digest)
    }

    func testConstraintsAndEVRootsMatchTheirRecordedDigests() {
        func canonical(_ table: [String: [String]]) -> String {
            table.keys.sorted().map { "\($0) \(table[$0]!.joined(separator: ","))\n" }.joined()
        }
        let constraints = AppleRootConstraints.byType.keys.sorted().map {
            "[\($0)]\n" + canonical(AppleRootConstraints.byType[$0]!)
        }
        XCTAssertEqual(sha256Hex(constraints.joined()), AppleRootConstraints.digest)
        XCTAssertEqual(sha256Hex(canonical(AppleEVRoots.policies)), AppleEVRoots.digest)
    }

    func testStoreHoldsExactlyTheTagsRootsBySHA256() throws {
        XCTAssertEqual(AppleRootCertificates.base64.count, Self.rootsInTag)
        XCTAssertEqual(AppleRootIndex.sha256.count, Self.rootsInTag)
        let store = AppleRootStore()
        var seen = Set<String>()
        for i in 0..<store.count {
            let der = try XCTUnwrap(Base64.decode(AppleRootCertificates.base64[i]))
            let digest = hexString(Digest.sha256(der)).uppercased()
            XCTAssertEqual(digest, AppleRootIndex.sha256[i], "root \(i) differs from the generator's list")
            seen.insert(digest)
            XCTAssertNotNil(store.certificate(at: i), "root \(i) (\(AppleRootIndex.fileName[i])) does not decode")
        }
        XCTAssertEqual(seen.count, Self.rootsInTag, "two roots share a SHA-256")
    }

    /// The generator took subject hashes from the openssl command; the store looks names up
    /// with trustx's own hash, so the two must agree on every root.
    func testIndexSubjectHashesAreTheRootsOwn() throws {
        let store = AppleRootStore()
        for i in 0..<store.count {
            let cert = try XCTUnwrap(store.certificate(at: i))
            XCTAssertEqual(SystemTrustStore.subjectHash(cert.subject), AppleRootIndex.subjectHash[i])
            XCTAssertTrue(store.certificates(withSubject: cert.subject).contains(cert))
            XCTAssertTrue(store.contains(cert))
        }
    }

    func testALookupDecodesOnlyTheRootsFiledUnderTheNamesHash() throws {
        let probe = try XCTUnwrap(AppleRootStore().certificate(at: 0))
        let store = AppleRootStore()
        XCTAssertTrue(store.contains(probe))
        XCTAssertEqual(store.decodedCount, 0, "membership compares recorded digests")
        let found = store.certificates(withSubject: probe.subject)
        XCTAssertTrue(found.contains(probe))
        let candidates = AppleRootIndex.bySubjectHash[AppleRootIndex.subjectHash[0]] ?? []
        XCTAssertEqual(store.decodedCount, candidates.count)
        XCTAssertLessThan(store.decodedCount, store.count)
    }

    func testNoRemovedRootIsAlsoShipped() {
        let shipped = Set(AppleRootIndex.sha256)
        let removed = AppleRemovedRoots.entries.filter { shipped.contains($0.sha256) }
        XCTAssertEqual(removed.map(\.sha256), [])
    }

    /// With a checkout at hand (TRUSTX_SECURITY_CERTIFICATES), the compiled roots are exactly the
    /// DER files of its certificates/roots.
    func testCompiledRootsAreThoseOfTheCheckout() throws {
        guard let raw = getenv("TRUSTX_SECURITY_CERTIFICATES") else {
            throw XCTSkip("TRUSTX_SECURITY_CERTIFICATES does not name a security_certificates checkout")
        }
        let dir = String(cString: raw) + "/certificates/roots"
        guard let handle = opendir(dir) else { return XCTFail("\(dir) cannot be opened") }
        defer { closedir(handle) }
        var digests = Set<String>()
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let der = try CertificateLoader.readFile(dir + "/" + name)
            digests.insert(hexString(Digest.sha256(der)).uppercased())
        }
        XCTAssertEqual(digests, Set(AppleRootIndex.sha256))
    }
}
