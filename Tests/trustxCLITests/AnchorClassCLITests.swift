import Foundation
import SuiteFixtures
import Testing

/// `trustx check --anchor-class app|device` on certificates made with the openssl command line.
/// Expected values follow trustd's rules for anchors in the user anchor source (docs/steps.md,
/// "Anchor classes").
@Suite(.serialized, .onTestThreads) final class AnchorClassCLITests {
    var pki: TestPKI!
    var dir: URL!

    init() throws {
        pki = try TestPKI.get()
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-anchor-class-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: dir)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// A leaf for 127.0.0.1 with `extensions`, valid for `days` from now: signed by the shared
    /// test CA, or by its own key when `selfSigned`.
    func makeLeaf(_ name: String, days: Int, extensions: String, selfSigned: Bool = false) throws -> String {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Shell.openssl(
            ["req"] + ec + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=127.0.0.1"], in: dir)
        try (extensions + "\n").write(to: dir.appendingPathComponent("\(name).ext"), atomically: true, encoding: .utf8)
        let signer =
            selfSigned
            ? ["-signkey", "\(name).key"]
            : ["-CA", pki.path("ca.pem"), "-CAkey", pki.path("ca.key"), "-set_serial", "7"]
        try Shell.openssl(
            ["x509", "-req", "-in", "\(name).csr"] + signer + [
                "-days", String(days), "-extfile", "\(name).ext", "-out", "\(name).pem",
            ], in: dir)
        return path("\(name).pem")
    }

    func checkJSON(_ chain: String, anchor: String, anchorClass: String?) throws -> [String: Any] {
        var args = ["check", "--chain", chain, "--anchor", anchor, "--host", "127.0.0.1", "--format", "json"]
        if let anchorClass { args += ["--anchor-class", anchorClass] }
        let r = try CLI.run(args)
        #expect(r.err == "")
        return try r.json()
    }

    func verdict(_ doc: [String: Any]) -> (trusted: Bool?, osstatus: Int?, urlError: Int?) {
        let v = doc["verdict"] as? [String: Any] ?? [:]
        return (v["trusted"] as? Bool, v["osstatus"] as? Int, v["urlError"] as? Int)
    }

    @Test func testLeafWithoutEKUIsRejectedUnderAnAppAnchorAndTrustedUnderADeviceAnchor() throws {
        let leaf = try makeLeaf(
            "noeku", days: 397,
            extensions: "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectAltName=IP:127.0.0.1")
        let app = try checkJSON(leaf, anchor: pki.path("ca.pem"), anchorClass: nil)
        #expect((verdict(app).trusted) == false)
        #expect((verdict(app).osstatus) == -67609, "errSecInvalidExtendedKeyUsage")
        #expect((verdict(app).urlError) == -999, "the app's delegate decides")
        #expect(((app["settings"] as? [String: Any])?["anchorClass"] as? String) == "app")

        let device = try checkJSON(leaf, anchor: pki.path("ca.pem"), anchorClass: "device")
        #expect((verdict(device).trusted) == true)
        #expect((verdict(device).osstatus) == 0)
        let settings = try #require(device["settings"] as? [String: Any])
        #expect((settings["anchorClass"] as? String) == "device")
        #expect(((settings["anchors"] as? [[String: Any]])?.first?["class"] as? String) == "device")
        let path = try #require(device["path"] as? [[String: Any]])
        #expect((path.last?["anchor"] as? String) == "custom")
        #expect((path.last?["anchorClass"] as? String) == "device")
        let steps = try #require(device["steps"] as? [[String: Any]])
        let eku = steps.first { $0["id"] as? String == "extended-key-usage" && $0["certificate"] as? Int == 0 }
        #expect((eku?["status"] as? String) == "skipped")
        #expect(
            (eku?["reason"] as? String)?.hasPrefix("device-trusted anchor: ") ?? false, "\(String(describing: eku))")
    }

    @Test func testSelfSigned900DayLeafAsItsOwnAnchorDependsOnTheClass() throws {
        let leaf = try makeLeaf(
            "long", days: 900,
            extensions:
                "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1",
            selfSigned: true)
        let app = try checkJSON(leaf, anchor: leaf, anchorClass: "app")
        #expect((verdict(app).osstatus) == -67901, "errSecCertificateValidityPeriodTooLong")
        let device = try checkJSON(leaf, anchor: leaf, anchorClass: "device")
        #expect((verdict(device).trusted) == true)
        #expect((verdict(device).osstatus) == 0)
    }

    @Test func test900DayLeafUnderADeviceCAIsStillTooLong() throws {
        let leaf = try makeLeaf(
            "long-ca", days: 900,
            extensions:
                "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1"
        )
        let device = try checkJSON(leaf, anchor: pki.path("ca.pem"), anchorClass: "device")
        #expect((verdict(device).osstatus) == -67901)
        #expect((verdict(device).urlError) == -1202, "no delegate: URLSession's default handling rejects")
    }

    @Test func testTextReportNamesTheClassOfTheAnchor() throws {
        let r = try CLI.run([
            "check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1",
            "--anchor-class", "device",
        ])
        #expect(r.status == 0, "\(r.out + r.err)")
        #expect(r.out.contains("anchors  1 custom anchor (device: profile, trusted in Settings) only"), "\(r.out)")
        #expect(r.out.contains("source  trusted custom anchor (device)"), "\(r.out)")
        #expect(r.out.contains("Anchored at a custom anchor (device-trusted)"), "\(r.out)")
    }

    @Test func testAnchorClassNeedsAnchors() throws {
        let r = try CLI.run(["check", "--chain", pki.path("leaf.pem"), "--anchor-class", "device"])
        #expect(r.status == 64)
        #expect(r.err.hasPrefix("Error: --anchor-class applies to --anchor certificates"), "\(r.err)")
        let bad = try CLI.run([
            "check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--anchor-class", "user",
        ])
        #expect(bad.status == 64)
        #expect(
            bad.err.hasPrefix(
                "Error: The value 'user' is invalid for '--anchor-class <class>'. Please provide one of 'app' and 'device'."
            ), "\(bad.err)")
    }
}
