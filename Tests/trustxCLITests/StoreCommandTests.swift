import Foundation
import SuiteFixtures
import Testing
import TrustSupport
import TrustX509

/// `--store` and `trustx store`: Apple's compiled-in roots against this machine's store at
/// /etc/ssl/certs, with the roots that differ picked from the data and the machine at run time.
@Suite(.serialized, .onTestThreads) final class StoreCommandTests {
    /// The machine's store as `--store openssl` reads it in these tests: the directory alone. Set
    /// in a child's environment: the store is read from the process's variables.
    static let machineEnvironment = ["SSL_CERT_FILE": "", "SSL_CERT_DIR": "/etc/ssl/certs"]

    static let machineRoots: [Certificate] =
        SystemTrustStore(certFile: nil, certDirectories: ["/etc/ssl/certs"]).allCertificates()

    static var machineDigests: Set<[UInt8]> { Set(machineRoots.map(\.sha256)) }

    static let appleRoots: [Certificate] = (0..<AppleRootStore.shared.count).compactMap {
        AppleRootStore.shared.certificate(at: $0)
    }

    private var scratch: URL!

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    deinit {
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

    /// `trustx check` of `cert` under the basic policy once per store (nil: the default), side by
    /// side, with the machine's store as these tests read it.
    private func checks(_ cert: Certificate, stores: [String?]) throws -> [RunResult] {
        let chain = try write(cert)
        let runs = stores.map { store in
            ["check", "--chain", chain, "--policy", "basic", "--at", midpoint(cert), "--format", "json"]
                + (store.map { ["--store", $0] } ?? [])
        }
        return try CLI.spawnAll(runs, environment: Self.machineEnvironment).map { try $0.get() }
    }

    private func anchorStep(_ r: RunResult) throws -> [String: Any] {
        let steps = try #require(try r.json()["steps"] as? [[String: Any]])
        return try #require(steps.first { $0["id"] as? String == "anchor" })
    }

    @Test func testStoreListJSONHoldsExactlyTheTagsRoots() throws {
        let r = try CLI.spawn(["store", "list", "--format", "json"], environment: Self.machineEnvironment)
        #expect(r.status == 0, "\(r.err)")
        let doc = try r.json()
        let roots = try #require(doc["roots"] as? [[String: Any]])
        // security_certificates-55349.0.11 ships 156 roots.
        #expect((doc["version"] as? String) == "security_certificates-55349.0.11")
        #expect(roots.count == 156)
        let listed = Set(roots.compactMap { $0["sha256"] as? String })
        #expect(listed == (Set(Self.appleRoots.map { hexString(Digest.sha256($0.der)) })))
        let here = Set(roots.filter { $0["onMachine"] as? Bool == true }.compactMap { $0["sha256"] as? String })
        #expect(here == (listed.intersection(Self.machineRoots.map { hexString($0.sha256) })))
    }

    /// Safari's date for every root (trustd, SecPolicyServer.c: `_ShouldApplyEarlyExpirationCheck`
    /// moves a root valid over 120 days 60 days early, `_ShouldSkipExpirationCheck` never checks
    /// Apple's own roots, SecAppleAnchor.c's Apple Root CA, - G2 and - G3 among them).
    @Test func testStoreGivesEachRootsSafariDateSixtyDaysBeforeItsNotAfterButApplesOwn() throws {
        let r = try CLI.spawn(["store", "list", "--format", "json"], environment: Self.machineEnvironment)
        let roots = try #require(try r.json()["roots"] as? [[String: Any]])
        var apple = 0
        for root in roots {
            let name = root["name"] as? String ?? ""
            let notAfter = try #require((root["notAfter"] as? String).flatMap(Timestamp.init(rfc3339:)))
            if ["Apple Root CA", "Apple Root CA - G2", "Apple Root CA - G3"].contains(name) {
                apple += 1
                #expect(root["safariNotAfter"] is NSNull, "\(name)")
                continue
            }
            let safari = try #require((root["safariNotAfter"] as? String).flatMap(Timestamp.init(rfc3339:)), "\(name)")
            #expect(notAfter.secondsSinceEpoch - safari.secondsSinceEpoch == 60 * 86_400, "\(name)")
        }
        #expect(apple == 3)
        let g3 = try CLI.spawn(["store", "show", "Apple Root CA - G3"], environment: Self.machineEnvironment)
        #expect(g3.out.contains("  for safari   never checked for expiry"), "\(g3.out)")
    }

    @Test func testAnAppleRootThisMachineLacksIsTrustedByDefaultAndNotWithTheOpenSSLStore() throws {
        let machine = Self.machineDigests
        guard let root = Self.appleRoots.first(where: { !machine.contains($0.sha256) }) else {
            try Test.cancel("this machine's /etc/ssl/certs has every root Apple ships")
        }
        let runs = try checks(root, stores: [nil, "openssl"])
        let apple = runs[0]
        #expect(apple.status == 0, "\(apple.out)")
        let settings = try #require(try apple.json()["settings"] as? [String: Any])
        #expect((settings["store"] as? String) == "apple")
        #expect((settings["storeVersion"] as? String) == "security_certificates-55349.0.11")
        let trustedBy = try #require(try apple.json()["trustedBy"] as? [String: Any])
        #expect((trustedBy["differingRoot"] as? String) == hexString(root.sha256))
        #expect((trustedBy["differingRootIn"] as? [String]) == ["apple"])
        let openssl = runs[1]
        #expect(openssl.status == 1, "\(openssl.out)")
        let verdict = try #require(try openssl.json()["verdict"] as? [String: Any])
        #expect((verdict["osstatus"] as? Int) == -67843)
    }

    @Test func testARootAppleRemovedThatThisMachineShipsIsTrustedOnlyWithTheOpenSSLStore() throws {
        guard
            let root = Self.machineRoots.first(where: {
                AppleRootStore.shared.removedFolder(ofSHA256: $0.sha256) != nil
            })
        else {
            try Test.cancel("this machine's /etc/ssl/certs has no root Apple removed")
        }
        let runs = try checks(root, stores: ["apple", "openssl"])
        let apple = runs[0]
        #expect(apple.status == 1, "\(apple.out)")
        let step = try anchorStep(apple)
        #expect((step["status"] as? String) == "failed")
        #expect((step["osstatus"] as? Int) == -67843)
        #expect((step["title"] as? String ?? "").contains("removed by Apple"), "\(step)")
        let openssl = runs[1]
        #expect(openssl.status == 0, "\(openssl.out)")
        let trustedBy = try #require(try openssl.json()["trustedBy"] as? [String: Any])
        #expect((trustedBy["differingRoot"] as? String) == hexString(root.sha256))
        #expect((trustedBy["differingRootIn"] as? [String]) == ["openssl"])
    }

    @Test func testAStorePathTrustsTheRootsOfThatBundle() throws {
        // A root this machine lacks becomes a system root when a bundle holding it is the store.
        let machine = Self.machineDigests
        guard let root = Self.appleRoots.first(where: { !machine.contains($0.sha256) }) else {
            try Test.cancel("this machine's /etc/ssl/certs has every root Apple ships")
        }
        let bundle = scratch.appendingPathComponent("bundle.pem")
        try Data(PEM.encode(root.der, label: "CERTIFICATE").utf8).write(to: bundle)
        let runs = try checks(root, stores: [bundle.path, scratch.appendingPathComponent("absent.pem").path])
        let r = runs[0]
        #expect(r.status == 0, "\(r.out)")
        let settings = try #require(try r.json()["settings"] as? [String: Any])
        #expect((settings["store"] as? String) == bundle.path)
        let missing = runs[1]
        #expect(missing.status == 64, "\(missing.err)")
    }

    @Test func testLabAndExploreTakeTheStoreOptionAndRefuseAMissingPath() throws {
        let missing = scratch.appendingPathComponent("absent.pem").path
        let commands = ["lab", "explore"]
        for (command, result) in zip(commands, CLI.runAll(commands.map { [$0, "--store", missing] })) {
            let r = try result.get()
            #expect(r.status == 64, "\(command): \(r.err)")
            #expect(r.err.contains("--store <store>"), "\(r.err)")
        }
    }

    @Test func testStoreDiffListsBothDirectionsAndFlagsRemovedRoots() throws {
        let r = try CLI.spawn(["store", "diff", "--format", "json"], environment: Self.machineEnvironment)
        #expect(r.status == 0, "\(r.err)")
        let doc = try r.json()
        let onlyApple = try #require(doc["onlyApple"] as? [[String: Any]])
        let onlyMachine = try #require(doc["onlyMachine"] as? [[String: Any]])
        let apple = Set(Self.appleRoots.map { hexString($0.sha256) })
        let machine = Set(Self.machineRoots.map { hexString($0.sha256) })
        #expect((Set(onlyApple.compactMap { $0["sha256"] as? String })) == apple.subtracting(machine))
        #expect((Set(onlyMachine.compactMap { $0["sha256"] as? String })) == machine.subtracting(apple))
        let removed = Set(
            Self.machineRoots.filter { AppleRootStore.shared.removedFolder(ofSHA256: $0.sha256) != nil }.map {
                hexString($0.sha256)
            })
        let flagged = onlyMachine.filter { $0["removedByApple"] as? Bool == true }.compactMap {
            $0["sha256"] as? String
        }
        #expect(Set(flagged) == removed)
    }

    @Test func testStoreShowFindsARootByFingerprintPrefixOrName() throws {
        let root = try #require(Self.appleRoots.first)
        let prefix = String(hexString(root.sha256).prefix(12))
        let runs = try CLI.runAll([
            ["store", "show", prefix], ["store", "show", root.displayName, "--format", "json"],
            ["store", "show", "no such root anywhere"],
        ]).map { try $0.get() }
        let r = runs[0]
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains(hexString(root.sha256)), "\(r.out)")
        let byName = runs[1]
        #expect(byName.status == 0, "\(byName.err)")
        let roots = try #require(try byName.json()["roots"] as? [[String: Any]])
        #expect(roots.contains { $0["sha256"] as? String == hexString(root.sha256) })
        let none = runs[2]
        #expect(none.status == 1)
        #expect(none.err.contains("no root of Apple's store matches"), "\(none.err)")
    }

    /// support.apple.com/121668: TLS certificates issued after 2024-11-15 by Entrust Root
    /// Certification Authority - G2 and AffirmTrust Commercial are not trusted; `store show`
    /// says so in text and JSON, `store list` on the root's line.
    @Test func testStoreShowNamesTheAnnouncedCutoffOfEntrustG2AndAffirmTrustCommercial() throws {
        let names = ["Entrust Root Certification Authority - G2", "AffirmTrust Commercial"]
        let runs = try CLI.runAll(
            names.flatMap { [["store", "show", $0], ["store", "show", $0, "--format", "json"]] } + [["store", "list"]]
        ).map { try $0.get() }
        for (i, name) in names.enumerated() {
            let text = runs[2 * i]
            #expect(text.status == 0, "\(text.err)")
            #expect(text.out.contains("issuance     issued after 2024-11-15: not trusted"), "\(text.out)")
            #expect(text.out.contains("support.apple.com/121668"), "\(text.out)")
            let roots = try #require(try runs[2 * i + 1].json()["roots"] as? [[String: Any]])
            let root = try #require(roots.first { $0["name"] as? String == name })
            let constraint = try #require(root["dateConstraint"] as? [String: Any])
            #expect(constraint["cutoffDate"] as? String == "2024-11-15")
            #expect(constraint["confirmed"] as? Bool == true)
            let line = runs[4].out.split(separator: "\n").first {
                $0.hasSuffix("issued after 2024-11-15: not trusted") && $0.contains(name)
            }
            #expect(line != nil, "store list has no line for \(name) with its cut-off")
        }
        // A root Apple announced nothing for carries none.
        #expect(runs[4].out.split(separator: "\n").filter { $0.contains("issued after") }.count == 11)
    }

    /// An argument that is not UTF-8 is quoted as typed, its bad bytes as `\xNN` (docs/cli.md),
    /// not as U+FFFD. The shell passes the bytes: Foundation's arguments are Strings.
    @Test func testStoreShowWithANonUTF8ArgumentPrintsItsBytesAsEscapes() throws {
        let run = try Shell.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"exec "$0" store show "$(printf 'ab\377\376cd')""#, CLI.binary.path])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains(#"matches 'ab\xFF\xFEcd'"#), "\(run.err)")
        #expect(!run.err.contains("\u{FFFD}"), "\(run.err)")
    }
}
