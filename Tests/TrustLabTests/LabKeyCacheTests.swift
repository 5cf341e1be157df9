import Foundation
import TrustSupport
import TrustX509
import XCTest

@testable import TrustBuilder
@testable import TrustLab

/// The lab's key cache: a key made once is what this process and the next one get back; a file
/// that is not exactly this user's private key of the kind asked for is replaced, never used.
/// P-256 keys stand in where the kind does not matter (they cost microseconds, RSA milliseconds).
final class LabKeyCacheTests: XCTestCase {
    var root = ""
    var directory: String { root + "/cache/trustx/lab-keys" }

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "trustx-lab-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    func mode(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }

    /// Writes `text` to `path` with `permissions`, as something other than the cache would.
    func plant(_ text: String, at path: String, permissions: Int = 0o600) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(path, mode_t(permissions)), 0)
    }

    func testAKeyIsMadeOnceAndReadBackByTheNextProcess() throws {
        let first = LabKeyCache(directory: directory)
        let key = try first.key(.ecP256, role: "good")
        XCTAssertTrue(try first.key(.ecP256, role: "good") === key, "the same process gets the same key")
        let file = directory + "/ec-p256.good.pem"
        XCTAssertEqual(mode(directory), 0o700)
        XCTAssertEqual(mode(root + "/cache/trustx"), 0o700)
        XCTAssertEqual(mode(file), 0o600)
        // What openssl reads from the file is the key the cache handed out.
        let spki = try Shell.run("openssl pkey -in '\(file)' -pubout -outform DER | openssl sha256 -r")
        XCTAssertEqual(String(spki.output.prefix(64)), hexString(Digest.sha256(key.spkiDER)), spki.output)
        // A new cache over the same directory is the next process.
        let next = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        XCTAssertEqual(next.spkiDER, key.spkiDER)
    }

    func testEachRoleAndEachKindHasAKeyOfItsOwn() throws {
        let cache = LabKeyCache(directory: directory)
        let a = try cache.key(.ecP256, role: "a")
        let b = try cache.key(.ecP256, role: "b")
        let larger = try cache.key(.ecP384, role: "a")
        XCTAssertNotEqual(a.spkiDER, b.spkiDER)
        XCTAssertEqual(larger.kind, .ecP384)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        XCTAssertEqual(names, ["ec-p256.a.pem", "ec-p256.b.pem", "ec-p384.a.pem"])
    }

    func testAFileWithAKeyOfAnotherKindOrSizeIsReplaced() throws {
        let p384 = try KeyPair.generate(.ecP384)
        try plant(p384.privateKeyPEM(), at: directory + "/ec-p256.good.pem")
        let ec = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        XCTAssertEqual(ec.kind, .ecP256)
        XCTAssertEqual(
            try KeyPair(privateKeyPEM: String(contentsOfFile: directory + "/ec-p256.good.pem", encoding: .utf8)).kind,
            .ecP256)

        // RSA of another size: 512 bits where 1,024 are asked for.
        let small = try KeyPair.generate(.rsa(bits: 512))
        try plant(small.privateKeyPEM(), at: directory + "/rsa-1024.rsa-1024.pem")
        let rsa = try LabKeyCache(directory: directory).key(.rsa(bits: 1024), role: "rsa-1024")
        XCTAssertEqual(rsa.kind, .rsa(bits: 1024))
        XCTAssertNotEqual(rsa.spkiDER, small.spkiDER)
    }

    func testAFileThatIsNotAKeyIsReplaced() throws {
        let file = directory + "/ec-p256.good.pem"
        try plant("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", at: file)
        let key = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), key.privateKeyPEM())
    }

    func testAKeyFileOthersCanReadIsNotUsed() throws {
        let exposed = try KeyPair.generate(.ecP256)
        let file = directory + "/ec-p256.good.pem"
        try plant(exposed.privateKeyPEM(), at: file, permissions: 0o644)
        let key = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        XCTAssertNotEqual(key.spkiDER, exposed.spkiDER)
        XCTAssertEqual(mode(file), 0o600)
    }

    func testASymbolicLinkInTheCacheIsNotFollowed() throws {
        let elsewhere = root + "/elsewhere.pem"
        let planted = try KeyPair.generate(.ecP256)
        try plant(planted.privateKeyPEM(), at: elsewhere)
        let file = directory + "/ec-p256.good.pem"
        XCTAssertEqual(symlink(elsewhere, file), 0)
        let key = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        XCTAssertNotEqual(key.spkiDER, planted.spkiDER, "the linked key is not used")
        // The link itself is replaced; the file it pointed to is left as it was.
        XCTAssertEqual(mode(file), 0o600)
        XCTAssertEqual(try String(contentsOfFile: elsewhere, encoding: .utf8), planted.privateKeyPEM())
    }

    func testADirectoryOpenToOthersIsMadePrivate() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(directory, 0o755), 0)
        _ = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        XCTAssertEqual(mode(directory), 0o700)
    }

    func testWhenTheCachePathIsAFileKeysAreKeptInMemoryOnly() throws {
        try plant("not a directory", at: root + "/file")
        let cache = LabKeyCache(directory: root + "/file")
        let key = try cache.key(.ecP256, role: "good")
        XCTAssertTrue(try cache.key(.ecP256, role: "good") === key)
        XCTAssertEqual(try String(contentsOfFile: root + "/file", encoding: .utf8), "not a directory")
    }

    func testTheOptOutMakesEveryKeyAfreshAndWritesNothing() throws {
        let cache = LabKeyCache(enabled: false, directory: directory)
        let first = try cache.key(.ecP256, role: "good")
        let second = try cache.key(.ecP256, role: "good")
        XCTAssertNotEqual(first.spkiDER, second.spkiDER)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory))
    }

    func testTheEnvironmentNamesTheDirectoryAndTheOptOut() {
        func configuration(_ environment: [String: String]) -> (enabled: Bool, directory: String?) {
            LabKeyCache.configuration { environment[$0] }
        }
        XCTAssertEqual(configuration(["XDG_CACHE_HOME": "/c/", "HOME": "/h"]).directory, "/c/trustx/lab-keys")
        // A relative XDG_CACHE_HOME is ignored, as the XDG base directory specification says.
        XCTAssertEqual(configuration(["XDG_CACHE_HOME": "c", "HOME": "/h"]).directory, "/h/.cache/trustx/lab-keys")
        XCTAssertEqual(configuration(["HOME": "/"]).directory, "/.cache/trustx/lab-keys")
        XCTAssertNil(configuration([:]).directory)
        XCTAssertTrue(configuration([:]).enabled)
        XCTAssertFalse(configuration(["TRUSTX_LAB_FRESH_KEYS": "1", "HOME": "/h"]).enabled)
        XCTAssertNil(configuration(["TRUSTX_LAB_FRESH_KEYS": "1", "HOME": "/h"]).directory)
        XCTAssertTrue(configuration(["TRUSTX_LAB_FRESH_KEYS": "0", "HOME": "/h"]).enabled)
        XCTAssertTrue(configuration(["TRUSTX_LAB_FRESH_KEYS": "", "HOME": "/h"]).enabled)
    }

    func testTwoLabStartsShareTheRSAKeysButNothingElse() throws {
        // The process's own cache, whose keys the other lab tests have made already; a private
        // one when the run turned it off.
        let cache = LabKeyCache.shared.enabled ? LabKeyCache.shared : LabKeyCache(directory: directory)
        let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))
        let later = now.adding(seconds: 3600)
        let first = try LabPKI.build(
            now: now, serverIPs: ["127.0.0.1"], aiaURL: "http://127.0.0.1:1/i.der", keys: cache)
        let second = try LabPKI.build(
            now: later, serverIPs: ["127.0.0.1"], aiaURL: "http://127.0.0.1:1/i.der", keys: cache)
        for name in ["rsa-1024", "rsa-2048", "no-forward-secrecy"] {
            let a = try XCTUnwrap(first.served[name])
            let b = try XCTUnwrap(second.served[name])
            XCTAssertEqual(a.key.spkiDER, b.key.spkiDER, name)
            // The certificate is made afresh, its validity from the start time.
            XCTAssertNotEqual(a.chain[0].der, b.chain[0].der, name)
            XCTAssertEqual(b.chain[0].notBefore.secondsSinceEpoch - a.chain[0].notBefore.secondsSinceEpoch, 3600, name)
        }
        XCTAssertNotEqual(
            first.served["rsa-2048"]?.key.spkiDER, first.served["no-forward-secrecy"]?.key.spkiDER,
            "two lessons never share a key")
        XCTAssertNotEqual(first.served["good"]?.key.spkiDER, second.served["good"]?.key.spkiDER)
        XCTAssertNotEqual(first.libraryCA.key.spkiDER, second.libraryCA.key.spkiDER)
        XCTAssertNotEqual(first.pins[.rotatedAwayLeaf], second.pins[.rotatedAwayLeaf])
        XCTAssertEqual(first.pins[.rsa2048Leaf], second.pins[.rsa2048Leaf])
    }
}
