import Foundation
import SuiteFixtures
import Synchronization
import Testing
import TrustSupport
import TrustX509

@testable import TrustBuilder
@testable import TrustLab

/// The lab's key cache: a key made once is what this process and the next one get back; a file
/// that is not exactly this user's private key of the kind asked for is replaced, never used.
/// P-256 keys stand in where the kind does not matter (they cost microseconds, RSA milliseconds).
@Suite(.serialized, .onTestThreads) final class LabKeyCacheTests {
    var root = ""
    var directory: String { root + "/cache/trustx/lab-keys" }

    init() throws {
        root = NSTemporaryDirectory() + "trustx-lab-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit {
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
        #expect((chmod(path, mode_t(permissions))) == 0)
    }

    @Test func testAKeyIsMadeOnceAndReadBackByTheNextProcess() throws {
        let first = LabKeyCache(directory: directory)
        let key = try first.key(.ecP256, role: "good")
        #expect(try first.key(.ecP256, role: "good") === key, "the same process gets the same key")
        let file = directory + "/ec-p256.good.pem"
        #expect(mode(directory) == 0o700)
        #expect((mode(root + "/cache/trustx")) == 0o700)
        #expect(mode(file) == 0o600)
        // What openssl reads from the file is the key the cache handed out.
        let spki = try Shell.run("openssl pkey -in '\(file)' -pubout -outform DER | openssl sha256 -r")
        #expect(String(spki.output.prefix(64)) == hexString(Digest.sha256(key.spkiDER)), "\(spki.output)")
        // A new cache over the same directory is the next process.
        let next = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        #expect(next.spkiDER == key.spkiDER)
    }

    @Test func testEachRoleAndEachKindHasAKeyOfItsOwn() throws {
        let cache = LabKeyCache(directory: directory)
        let a = try cache.key(.ecP256, role: "a")
        let b = try cache.key(.ecP256, role: "b")
        let larger = try cache.key(.ecP384, role: "a")
        #expect(a.spkiDER != b.spkiDER)
        #expect(larger.kind == .ecP384)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["ec-p256.a.pem", "ec-p256.b.pem", "ec-p384.a.pem"])
    }

    @Test func testAFileWithAKeyOfAnotherKindOrSizeIsReplaced() throws {
        let p384 = try KeyPair.generate(.ecP384)
        try plant(p384.privateKeyPEM(), at: directory + "/ec-p256.good.pem")
        let ec = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        #expect(ec.kind == .ecP256)
        #expect(
            (try KeyPair(privateKeyPEM: String(contentsOfFile: directory + "/ec-p256.good.pem", encoding: .utf8)).kind)
                == .ecP256)

        // RSA of another size: 512 bits where 1,024 are asked for.
        let small = try KeyPair.generate(.rsa(bits: 512))
        try plant(small.privateKeyPEM(), at: directory + "/rsa-1024.rsa-1024.pem")
        let rsa = try LabKeyCache(directory: directory).key(.rsa(bits: 1024), role: "rsa-1024")
        #expect(rsa.kind == (.rsa(bits: 1024)))
        #expect(rsa.spkiDER != small.spkiDER)
    }

    @Test func testAFileThatIsNotAKeyIsReplaced() throws {
        let file = directory + "/ec-p256.good.pem"
        try plant("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", at: file)
        let key = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        #expect((try String(contentsOfFile: file, encoding: .utf8)) == key.privateKeyPEM())
    }

    @Test func testAKeyFileOthersCanReadIsNotUsed() throws {
        let exposed = try KeyPair.generate(.ecP256)
        let file = directory + "/ec-p256.good.pem"
        try plant(exposed.privateKeyPEM(), at: file, permissions: 0o644)
        let key = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        #expect(key.spkiDER != exposed.spkiDER)
        #expect(mode(file) == 0o600)
    }

    @Test func testASymbolicLinkInTheCacheIsNotFollowed() throws {
        let elsewhere = root + "/elsewhere.pem"
        let planted = try KeyPair.generate(.ecP256)
        try plant(planted.privateKeyPEM(), at: elsewhere)
        let file = directory + "/ec-p256.good.pem"
        #expect((symlink(elsewhere, file)) == 0)
        let key = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        #expect(key.spkiDER != planted.spkiDER, "the linked key is not used")
        // The link itself is replaced; the file it pointed to is left as it was.
        #expect(mode(file) == 0o600)
        #expect((try String(contentsOfFile: elsewhere, encoding: .utf8)) == planted.privateKeyPEM())
    }

    /// A FIFO at a key's file: open(2) without O_NONBLOCK waited for a writer before the file's
    /// type was checked, so the lab hung for good. The key is made on a thread of its own and
    /// waited for (20 s, far beyond a P-256 key's microseconds); a FIFO left waiting is then
    /// opened for writing, which releases it.
    @Test func testAFIFOAtAKeyFileIsReplacedNotWaitedFor() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/ec-p256.good.pem"
        #expect(mkfifo(file, 0o600) == 0)
        final class Made: Sendable { let key = Mutex<KeyPair?>(nil) }
        let made = Made()
        let directory = self.directory
        Thread.detachNewThread {
            let key = try? LabKeyCache(directory: directory).key(.ecP256, role: "good")
            made.key.withLock { $0 = key }
        }
        var key: KeyPair?
        for _ in 0..<400 {
            key = made.key.withLock { $0 }
            if key != nil { break }
            usleep(50_000)
        }
        if key == nil {
            let writer = open(file, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        let fresh = try #require(key, "the cache waited on the FIFO")
        #expect((try String(contentsOfFile: file, encoding: .utf8)) == fresh.privateKeyPEM())
        #expect(mode(file) == 0o600)
    }

    @Test func testADirectoryOpenToOthersIsMadePrivate() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect((chmod(directory, 0o755)) == 0)
        _ = try LabKeyCache(directory: directory).key(.ecP256, role: "good")
        #expect(mode(directory) == 0o700)
    }

    @Test func testWhenTheCachePathIsAFileKeysAreKeptInMemoryOnly() throws {
        try plant("not a directory", at: root + "/file")
        let cache = LabKeyCache(directory: root + "/file")
        let key = try cache.key(.ecP256, role: "good")
        #expect(try cache.key(.ecP256, role: "good") === key)
        #expect((try String(contentsOfFile: root + "/file", encoding: .utf8)) == "not a directory")
    }

    @Test func testTheOptOutMakesEveryKeyAfreshAndWritesNothing() throws {
        let cache = LabKeyCache(enabled: false, directory: directory)
        let first = try cache.key(.ecP256, role: "good")
        let second = try cache.key(.ecP256, role: "good")
        #expect(first.spkiDER != second.spkiDER)
        #expect(!(FileManager.default.fileExists(atPath: directory)))
    }

    @Test func testTheEnvironmentNamesTheDirectoryAndTheOptOut() {
        func configuration(_ environment: [String: String]) -> (enabled: Bool, directory: String?) {
            LabKeyCache.configuration { environment[$0] }
        }
        #expect((configuration(["XDG_CACHE_HOME": "/c/", "HOME": "/h"]).directory) == "/c/trustx/lab-keys")
        // A relative XDG_CACHE_HOME is ignored, as the XDG base directory specification says.
        #expect((configuration(["XDG_CACHE_HOME": "c", "HOME": "/h"]).directory) == "/h/.cache/trustx/lab-keys")
        #expect((configuration(["HOME": "/"]).directory) == "/.cache/trustx/lab-keys")
        #expect((configuration([:]).directory) == nil)
        #expect(configuration([:]).enabled)
        #expect(!(configuration(["TRUSTX_LAB_FRESH_KEYS": "1", "HOME": "/h"]).enabled))
        #expect((configuration(["TRUSTX_LAB_FRESH_KEYS": "1", "HOME": "/h"]).directory) == nil)
        #expect(configuration(["TRUSTX_LAB_FRESH_KEYS": "0", "HOME": "/h"]).enabled)
        #expect(configuration(["TRUSTX_LAB_FRESH_KEYS": "", "HOME": "/h"]).enabled)
    }

    @Test func testTwoLabStartsShareTheRSAKeysButNothingElse() throws {
        // The process's own cache, whose keys the other lab tests have made already; a private
        // one when the run turned it off.
        let cache = LabKeyCache.shared.enabled ? LabKeyCache.shared : LabKeyCache(directory: directory)
        let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))
        let later = now.adding(seconds: 3600)
        let first = try LabParts.build(
            now: now, serverIPs: ["127.0.0.1"], aiaURL: "http://127.0.0.1:1/i.der", keys: cache)
        let second = try LabParts.build(
            now: later, serverIPs: ["127.0.0.1"], aiaURL: "http://127.0.0.1:1/i.der", keys: cache)
        func served(_ parts: LabParts, _ name: String) throws -> LabServedChain {
            let scenario = try #require(LabScenario.named(name))
            return try scenario.chain.make(parts, scenario)
        }
        for name in ["rsa-1024", "rsa-2048", "no-forward-secrecy"] {
            let a = try served(first, name)
            let b = try served(second, name)
            #expect(a.key.spkiDER == b.key.spkiDER, "\(name)")
            // The certificate is made afresh, its validity from the start time.
            #expect((a.chain[0].der) != (b.chain[0].der), "\(name)")
            #expect(
                (b.chain[0].notBefore.secondsSinceEpoch - a.chain[0].notBefore.secondsSinceEpoch) == 3600, "\(name)")
        }
        #expect(
            (try served(first, "rsa-2048").key.spkiDER) != (try served(first, "no-forward-secrecy").key.spkiDER),
            "two lessons never share a key")
        #expect((try served(first, "good").key.spkiDER) != (try served(second, "good").key.spkiDER))
        #expect(first.lab.libraryCA.key.spkiDER != second.lab.libraryCA.key.spkiDER)
        #expect(first.pins[.rotatedAwayLeaf] != second.pins[.rotatedAwayLeaf])
        #expect(first.pins[.rsa2048Leaf] == second.pins[.rsa2048Leaf])
    }
}
