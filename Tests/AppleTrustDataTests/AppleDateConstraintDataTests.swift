import AppleTrustData
import TrustSupport
import TrustX509
import XCTest

/// The compiled-in date constraints against their recorded digest and against what Apple
/// announced: support.apple.com/121668 lists, each by SHA-256, the roots whose TLS certificates
/// issued after 2024-11-15 are not trusted.
final class AppleDateConstraintDataTests: XCTestCase {
    func testEntriesMatchTheirRecordedDigest() {
        let lines = AppleDateConstraints.entries.map(\.canonicalLine).joined(separator: "\n")
        XCTAssertEqual(hexString(Digest.sha256(Array(lines.utf8))), AppleDateConstraints.dataSHA256)
        XCTAssertEqual(AppleDateConstraints.tag, AppleTrustDataSource.tag)
    }

    /// support.apple.com/121668: "Entrust Root Certification Authority - G2" and "AffirmTrust
    /// Commercial", effective 2024-11-15, with the fingerprints Apple prints.
    func testEntrustG2AndAffirmTrustCommercialCarryApplesAnnouncedCutoff() throws {
        let announced = [
            "Entrust Root Certification Authority - G2":
                "43DF5774B03E7FEF5FE40D931A7BEDF1BB2E6B42738C4E6D3841103D3AA7F339",
            "AffirmTrust Commercial": "0376AB1D54C5F9803CE4B2E201A0EE7EEF7B57B636E8A93C9B8D4860C96F5FA7",
        ]
        for (name, digest) in announced {
            let entry = try XCTUnwrap(AppleDateConstraints.bySHA256[digest], name)
            XCTAssertEqual(entry.name, name)
            XCTAssertEqual(entry.cutoffDate, "2024-11-15")
            XCTAssertNil(entry.notBefore, "Apple's article bounds issuance from above only")
            XCTAssertTrue(entry.notAfter?.hasPrefix("2024-11-15") ?? false, name)
            XCTAssertTrue(entry.confirmed, name)
            XCTAssertTrue(entry.source.contains("support.apple.com/121668"), name)
            XCTAssertTrue(entry.inStore, name)
        }
    }

    /// Apple's article names eleven roots as of 2024-11-15 (two of them UNCONFIRMED: the copy read
    /// breaks off); all are still roots of the compiled-in store, whose certificates hash to the
    /// recorded digests.
    func testEveryAnnouncedRootIsInTheStoreUnderItsDigest() throws {
        let store = AppleRootStore()
        var digests = Set<String>()
        for i in 0..<store.count {
            let der = try XCTUnwrap(Base64.decode(AppleRootCertificates.base64[i]))
            digests.insert(hexString(Digest.sha256(der)).uppercased())
        }
        let announced = AppleDateConstraints.entries.filter { $0.source.contains("support.apple.com/121668") }
        XCTAssertEqual(announced.count, 11)
        XCTAssertEqual(
            announced.filter { !$0.confirmed }.map(\.name), ["AffirmTrust Premium", "AffirmTrust Premium ECC"])
        for entry in announced {
            XCTAssertTrue(entry.inStore && digests.contains(entry.sha256), entry.name)
            XCTAssertEqual(entry.cutoffDate, "2024-11-15", entry.name)
            XCTAssertNil(entry.overridable, "Apple does not say whether \(entry.name)'s entry is overridable")
        }
        for entry in AppleDateConstraints.entries where !entry.inStore {
            XCTAssertFalse(digests.contains(entry.sha256), "\(entry.name) is a root after all")
        }
    }
}
