import Foundation
import TrustSupport
import TrustX509
import XCTest

/// `--store` and `trustx store`: Apple's compiled-in roots against this machine's store at
/// /etc/ssl/certs, with the roots that differ picked from the data and the machine at run time.
final class StoreCommandTests: XCTestCase {
    /// The machine's store as `--store openssl` reads it in these tests: the directory alone.
    static let machineEnvironment = ["SSL_CERT_FILE": "", "SSL_CERT_DIR": "/etc/ssl/certs"]

    static let machineRoots: [Certificate] =
        SystemTrustStore(certFile: nil, certDirectories: ["/etc/ssl/certs"]).allCertificates()

    static var machineDigests: Set<[UInt8]> { Set(machineRoots.map(\.sha256)) }

    static let appleRoots: [Certificate] = (0..<AppleRootStore.shared.count).compactMap {
        AppleRootStore.shared.certificate(at: $0)
    }

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Writes `cert` as DER and returns its path.
    private func write(_ cert: Certificate) throws -> String {
        let url = scratch.appendingPathComponent(hexString(cert.sha256.prefix(8)) + ".der")
        try Data(cert.der).write(to: url)
        return url.path
    }

    /// A time inside `cert`'s validity, so that only the store decides.
    private func midpoint(_ cert: Certificate) -> String {
        Timestamp(secondsSinceEpoch: (cert.notBefore.secondsSinceEpoch + cert.notAfter.secondsSinceEpoch) / 2).rfc3339
    }

    private func check(_ cert: Certificate, store: String?) throws -> RunResult {
        var args = [
            "check", "--chain", try write(cert), "--policy", "basic", "--at", midpoint(cert), "--format", "json",
        ]
        if let store { args += ["--store", store] }
        return try CLI.run(args, environment: Self.machineEnvironment)
    }

    private func anchorStep(_ r: RunResult) throws -> [String: Any] {
        let steps = try XCTUnwrap(try r.json()["steps"] as? [[String: Any]])
        return try XCTUnwrap(steps.first { $0["id"] as? String == "anchor" })
    }

    func testStoreListJSONHoldsExactlyTheTagsRoots() throws {
        let r = try CLI.run(["store", "list", "--format", "json"], environment: Self.machineEnvironment)
        XCTAssertEqual(r.status, 0, r.err)
        let doc = try r.json()
        let roots = try XCTUnwrap(doc["roots"] as? [[String: Any]])
        // security_certificates-55349.0.11 ships 156 roots.
        XCTAssertEqual(doc["version"] as? String, "security_certificates-55349.0.11")
        XCTAssertEqual(roots.count, 156)
        let listed = Set(roots.compactMap { $0["sha256"] as? String })
        XCTAssertEqual(listed, Set(Self.appleRoots.map { hexString(Digest.sha256($0.der)) }))
        let here = Set(roots.filter { $0["onMachine"] as? Bool == true }.compactMap { $0["sha256"] as? String })
        XCTAssertEqual(here, listed.intersection(Self.machineRoots.map { hexString($0.sha256) }))
    }

    func testAnAppleRootThisMachineLacksIsTrustedByDefaultAndNotWithTheOpenSSLStore() throws {
        let machine = Self.machineDigests
        guard let root = Self.appleRoots.first(where: { !machine.contains($0.sha256) }) else {
            throw XCTSkip("this machine's /etc/ssl/certs has every root Apple ships")
        }
        let apple = try check(root, store: nil)
        XCTAssertEqual(apple.status, 0, apple.out)
        let settings = try XCTUnwrap(try apple.json()["settings"] as? [String: Any])
        XCTAssertEqual(settings["store"] as? String, "apple")
        XCTAssertEqual(settings["storeVersion"] as? String, "security_certificates-55349.0.11")
        let trustedBy = try XCTUnwrap(try apple.json()["trustedBy"] as? [String: Any])
        XCTAssertEqual(trustedBy["differingRoot"] as? String, hexString(root.sha256))
        XCTAssertEqual(trustedBy["differingRootIn"] as? [String], ["apple"])
        let openssl = try check(root, store: "openssl")
        XCTAssertEqual(openssl.status, 1, openssl.out)
        let verdict = try XCTUnwrap(try openssl.json()["verdict"] as? [String: Any])
        XCTAssertEqual(verdict["osstatus"] as? Int, -67843)
    }

    func testARootAppleRemovedThatThisMachineShipsIsTrustedOnlyWithTheOpenSSLStore() throws {
        guard
            let root = Self.machineRoots.first(where: {
                AppleRootStore.shared.removedFolder(ofSHA256: $0.sha256) != nil
            })
        else {
            throw XCTSkip("this machine's /etc/ssl/certs has no root Apple removed")
        }
        let apple = try check(root, store: "apple")
        XCTAssertEqual(apple.status, 1, apple.out)
        let step = try anchorStep(apple)
        XCTAssertEqual(step["status"] as? String, "failed")
        XCTAssertEqual(step["osstatus"] as? Int, -67843)
        XCTAssertTrue((step["title"] as? String ?? "").contains("removed by Apple"), "\(step)")
        let openssl = try check(root, store: "openssl")
        XCTAssertEqual(openssl.status, 0, openssl.out)
        let trustedBy = try XCTUnwrap(try openssl.json()["trustedBy"] as? [String: Any])
        XCTAssertEqual(trustedBy["differingRoot"] as? String, hexString(root.sha256))
        XCTAssertEqual(trustedBy["differingRootIn"] as? [String], ["openssl"])
    }

    func testAStorePathTrustsTheRootsOfThatBundle() throws {
        // A root this machine lacks becomes a system root when a bundle holding it is the store.
        let machine = Self.machineDigests
        guard let root = Self.appleRoots.first(where: { !machine.contains($0.sha256) }) else {
            throw XCTSkip("this machine's /etc/ssl/certs has every root Apple ships")
        }
        let bundle = scratch.appendingPathComponent("bundle.pem")
        try Data(PEM.encode(root.der, label: "CERTIFICATE").utf8).write(to: bundle)
        let r = try check(root, store: bundle.path)
        XCTAssertEqual(r.status, 0, r.out)
        let settings = try XCTUnwrap(try r.json()["settings"] as? [String: Any])
        XCTAssertEqual(settings["store"] as? String, bundle.path)
        let missing = try check(root, store: scratch.appendingPathComponent("absent.pem").path)
        XCTAssertEqual(missing.status, 64, missing.err)
    }

    func testLabAndExploreTakeTheStoreOptionAndRefuseAMissingPath() throws {
        let missing = scratch.appendingPathComponent("absent.pem").path
        for command in ["lab", "explore"] {
            let r = try CLI.run([command, "--store", missing])
            XCTAssertEqual(r.status, 64, "\(command): \(r.err)")
            XCTAssertTrue(r.err.contains("--store <store>"), r.err)
        }
    }

    func testStoreDiffListsBothDirectionsAndFlagsRemovedRoots() throws {
        let r = try CLI.run(["store", "diff", "--format", "json"], environment: Self.machineEnvironment)
        XCTAssertEqual(r.status, 0, r.err)
        let doc = try r.json()
        let onlyApple = try XCTUnwrap(doc["onlyApple"] as? [[String: Any]])
        let onlyMachine = try XCTUnwrap(doc["onlyMachine"] as? [[String: Any]])
        let apple = Set(Self.appleRoots.map { hexString($0.sha256) })
        let machine = Set(Self.machineRoots.map { hexString($0.sha256) })
        XCTAssertEqual(Set(onlyApple.compactMap { $0["sha256"] as? String }), apple.subtracting(machine))
        XCTAssertEqual(Set(onlyMachine.compactMap { $0["sha256"] as? String }), machine.subtracting(apple))
        let removed = Set(
            Self.machineRoots.filter { AppleRootStore.shared.removedFolder(ofSHA256: $0.sha256) != nil }.map {
                hexString($0.sha256)
            })
        let flagged = onlyMachine.filter { $0["removedByApple"] as? Bool == true }.compactMap {
            $0["sha256"] as? String
        }
        XCTAssertEqual(Set(flagged), removed)
    }

    func testStoreShowFindsARootByFingerprintPrefixOrName() throws {
        let root = try XCTUnwrap(Self.appleRoots.first)
        let prefix = String(hexString(root.sha256).prefix(12))
        let r = try CLI.run(["store", "show", prefix])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains(hexString(root.sha256)), r.out)
        let byName = try CLI.run(["store", "show", root.displayName, "--format", "json"])
        XCTAssertEqual(byName.status, 0, byName.err)
        let roots = try XCTUnwrap(try byName.json()["roots"] as? [[String: Any]])
        XCTAssertTrue(roots.contains { $0["sha256"] as? String == hexString(root.sha256) })
        let none = try CLI.run(["store", "show", "no such root anywhere"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.err.contains("no root of Apple's store matches"), none.err)
    }
}
