import Foundation
import SuiteFixtures
import Testing
import TrustLab
import TrustX509

/// How a chain was served (JSON `served`, the text report's Served chain) and `check
/// --write-chain`, against `openssl s_server -cert_chain` serving a PKI the openssl command line
/// made: the root sent, a wrong order, a duplicate, an unused certificate and no intermediate.
/// The expected certificates are named by the SHA-256 fingerprints openssl prints and by the
/// files openssl wrote, never by trustx's own output; the rules are RFC 5246 7.4.2 and RFC 8446
/// 4.4.2 (docs/json-report.md, "served").
@Suite(.serialized, .onTestThreads, .fixture(tearDown: servedChainTestsTearDown))
final class ServedChainTests {
    nonisolated(unsafe) static var servers: [String: OpenSSLServer] = [:]
    nonisolated(unsafe) static var lab: Lab?

    static let pki: Result<TestPKI, Error> = Result {
        let pki = try TestPKI(label: "served")
        try pki.makeCA("root", subject: "/CN=Served Test Root")
        try pki.makeCA("other", subject: "/CN=Served Test Other CA")
        try pki.issue("int", subject: "/CN=Served Test Intermediate", by: "root", ext: TestPKI.caExt)
        try pki.issue("issuing", subject: "/CN=Served Test Issuing CA", by: "int", ext: TestPKI.caExt)
        try pki.issue("leaf", subject: "/CN=127.0.0.1", by: "int", ext: TestPKI.serverExt())
        try pki.issue("leaf2", subject: "/CN=127.0.0.1", by: "issuing", ext: TestPKI.serverExt())
        // What each server sends after its leaf.
        _ = try pki.bundle("root-sent.pem", ["int", "root"])
        _ = try pki.bundle("wrong-order.pem", ["int", "issuing"])
        _ = try pki.bundle("duplicate.pem", ["int", "int"])
        _ = try pki.bundle("unused.pem", ["int", "other"])
        return pki
    }

    static func suiteTearDown() {
        for server in servers.values { server.stop() }
        servers = [:]
        lab?.stop()
        lab = nil
        if case .success(let pki) = pki { try? FileManager.default.removeItem(at: pki.directory) }
    }

    let pki: TestPKI
    init() throws { pki = try Self.pki.get() }

    /// `openssl s_server -cert LEAF -key KEY [-cert_chain BUNDLE]`, one per configuration.
    func serve(_ leaf: String, chain: String?) throws -> String {
        let key = "\(leaf)|\(chain ?? "")"
        if let s = Self.servers[key], s.process.isRunning { return "https://127.0.0.1:\(s.port)/" }
        var arguments = ["-cert", pki.path("\(leaf).pem"), "-key", pki.path("\(leaf).key")]
        if let chain { arguments += ["-cert_chain", pki.path(chain)] }
        let server = try OpenSSLServer(arguments, in: pki.directory)
        Self.servers[key] = server
        return "https://127.0.0.1:\(server.port)/"
    }

    /// The SHA-256 fingerprint openssl prints for NAME.pem, as the report writes it.
    func fingerprint(_ name: String) throws -> String {
        let out = try pki.sh(["openssl", "x509", "-in", "\(name).pem", "-noout", "-fingerprint", "-sha256"])
        let hex = out.split(separator: "=").last.map(String.init) ?? ""
        return hex.replacingOccurrences(of: ":", with: "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The `served` findings of a JSON report: (kind, [(presented, path, sha256)]).
    func served(_ doc: [String: Any]) throws -> [(String, [(Int?, Int?, String)])] {
        let list = try #require(doc["served"] as? [[String: Any]], "no served list")
        return try list.map { f in
            let certificates = try #require(f["certificates"] as? [[String: Any]])
            #expect(!((f["explanation"] as? String) ?? "").isEmpty)
            return (
                f["kind"] as? String ?? "",
                certificates.map { ($0["presented"] as? Int, $0["path"] as? Int, $0["sha256"] as? String ?? "") }
            )
        }
    }

    /// The DER of each certificate in a PEM file, in order.
    func ders(_ path: String) throws -> [[UInt8]] {
        try PEM.blocks(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).map(\.der)
    }

    /// `check URL --anchor root.pem --format json --write-chain FILE`, with the report.
    func check(_ url: String, writing file: String) throws -> (RunResult, [String: Any]) {
        let r = try CLI.run([
            "check", url, "--anchor", pki.path("root.pem"), "--format", "json", "--write-chain", pki.path(file),
        ])
        return (r, try r.json())
    }

    @Test func theRootSentIsRootSentAndTheChainToServeLeavesItOut() throws {
        let (r, doc) = try check(try serve("leaf", chain: "root-sent.pem"), writing: "from-root-sent.pem")
        #expect(r.status == 0, "\(r.err)")
        let findings = try served(doc)
        #expect(findings.map(\.0) == ["root-sent"])
        #expect(findings.first?.1.map(\.0) == [2])
        #expect(findings.first?.1.map(\.1) == [2])
        #expect(findings.first?.1.map(\.2) == [try fingerprint("root")])
        #expect(try ders(pki.path("from-root-sent.pem")) == [try pki.der("leaf"), try pki.der("int")])
        #expect(r.err.hasPrefix("Note: --write-chain: wrote "), "\(r.err)")
    }

    @Test func intermediatesInTheWrongOrderAreWrongOrderAndTheChainToServeIsInPathOrder() throws {
        let (r, doc) = try check(try serve("leaf2", chain: "wrong-order.pem"), writing: "from-wrong-order.pem")
        #expect(r.status == 0, "\(r.err)")
        // Sent leaf2, int, issuing; issuing signs leaf2, so it must come first (RFC 5246 7.4.2).
        let findings = try served(doc)
        #expect(findings.map(\.0) == ["wrong-order"])
        #expect(findings.first?.1.map(\.0) == [1, 2])
        #expect(findings.first?.1.map(\.1) == [2, 1])
        #expect(findings.first?.1.map(\.2) == [try fingerprint("int"), try fingerprint("issuing")])
        #expect(
            try ders(pki.path("from-wrong-order.pem")) == [
                try pki.der("leaf2"), try pki.der("issuing"), try pki.der("int"),
            ])
        // The written chain alone, read as files, is served cleanly and trusted.
        let again = try CLI.run([
            "check", "--chain", pki.path("from-wrong-order.pem"), "--anchor", pki.path("root.pem"), "--format", "json",
        ])
        #expect(again.status == 0)
        #expect(try served(try again.json()).isEmpty)
    }

    @Test func aDuplicateIsADuplicateOfItsSecondCopy() throws {
        let (r, doc) = try check(try serve("leaf", chain: "duplicate.pem"), writing: "from-duplicate.pem")
        #expect(r.status == 0, "\(r.err)")
        let findings = try served(doc)
        #expect(findings.map(\.0) == ["duplicate"])
        #expect(findings.first?.1.map(\.0) == [2])
        #expect(findings.first?.1.map(\.2) == [try fingerprint("int")])
        #expect(try ders(pki.path("from-duplicate.pem")) == [try pki.der("leaf"), try pki.der("int")])
    }

    @Test func aCertificateNoPathUsesIsUnusedAndLeftOutOfTheChainToServe() throws {
        let (r, doc) = try check(try serve("leaf", chain: "unused.pem"), writing: "from-unused.pem")
        #expect(r.status == 0, "\(r.err)")
        let findings = try served(doc)
        #expect(findings.map(\.0) == ["unused"])
        #expect(findings.first?.1.map(\.0) == [2])
        #expect(findings.first?.1.map(\.1) == [nil])
        #expect(findings.first?.1.map(\.2) == [try fingerprint("other")])
        #expect(try ders(pki.path("from-unused.pem")) == [try pki.der("leaf"), try pki.der("int")])
    }

    @Test func noIntermediateAndNoAIAWritesNothingAndSaysWhy() throws {
        let target = pki.path("from-none.pem")
        let (r, doc) = try check(try serve("leaf", chain: nil), writing: "from-none.pem")
        // The leaf alone: MissingIntermediate (-25318, docs/steps.md#chain); nothing about how it was sent.
        #expect((doc["verdict"] as? [String: Any])?["osstatus"] as? Int == -25318)
        #expect(try served(doc).isEmpty)
        #expect(r.status == 73)
        #expect(r.err.hasPrefix("Error: --write-chain: nothing written: "), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func theTextReportListsEachFindingUnderServedChain() throws {
        let r = try CLI.run(["check", try serve("leaf", chain: "root-sent.pem"), "--anchor", pki.path("root.pem")])
        #expect(r.status == 0)
        #expect(r.out.contains("\nServed chain\n  root-sent  #2 CN=Served Test Root\n"), "\(r.out)")
        let md = try CLI.run([
            "check", try serve("leaf", chain: "root-sent.pem"), "--anchor", pki.path("root.pem"), "--format",
            "markdown",
        ])
        #expect(md.out.contains("## Served chain\n"), "\(md.out)")
        #expect(md.out.contains("| root-sent | \\#2 CN=Served Test Root |"), "\(md.out)")
    }

    // MARK: the writer

    func writeChain(to path: String) throws -> RunResult {
        try CLI.run([
            "check", "--chain", pki.path("leaf.pem"), pki.path("int.pem"), pki.path("root.pem"), "--anchor",
            pki.path("root.pem"), "--policy", "basic", "--write-chain", path,
        ])
    }

    @Test func aLinkAtTheNameIsReplacedNeverWrittenThrough() throws {
        let victim = pki.path("victim.txt")
        try "keep\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let link = pki.path("link.pem")
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let r = try writeChain(to: link)
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try ders(link) == [try pki.der("leaf"), try pki.der("int")])
        // 0644 before the umask, as every file trustx writes.
        let mask = umask(0)
        umask(mask)
        #expect((attributes[.posixPermissions] as? Int) == Int(0o644 & ~mask))
    }

    @Test func aDirectoryIsRefusedAndAFileReplaced() throws {
        let r = try writeChain(to: pki.directory.path)
        #expect(r.status == 73)
        #expect(r.err.contains("Is a directory"), "\(r.err)")
        let file = pki.path("replaced.pem")
        try "old\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try writeChain(to: file).status == 0)
        #expect(try ders(file) == [try pki.der("leaf"), try pki.der("int")])
    }

    @Test func aDashWritesThePEMInsteadOfTheReport() throws {
        let r = try writeChain(to: "-")
        #expect(r.status == 0)
        #expect(try PEM.blocks(in: Array(r.out.utf8)).map(\.der) == [try pki.der("leaf"), try pki.der("int")])
        #expect(r.err.hasPrefix("Note: --write-chain: wrote standard output: 2 certificates"), "\(r.err)")
    }

    @Test func aDashRefusalPrintsNothingButTheReason() throws {
        // The leaf alone, its issuer neither sent nor an anchor: no complete chain to serve.
        let r = try CLI.run([
            "check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("root.pem"), "--policy", "basic",
            "--write-chain", "-",
        ])
        #expect(r.status == 73)
        #expect(r.out == "")
        #expect(r.err.hasPrefix("Error: --write-chain: nothing written: the path is the leaf alone"), "\(r.err)")
    }

    @Test func writeChainWritesOneChain() throws {
        let watch = try CLI.run(["check", "--chain", pki.path("leaf.pem"), "--watch", "5", "--write-chain", "x.pem"])
        #expect(watch.status == 64)
        let quiet = try CLI.run(["check", "--chain", pki.path("leaf.pem"), "--quiet", "--write-chain", "x.pem"])
        #expect(quiet.status == 64)
        #expect(quiet.err.hasPrefix("Error: --write-chain writes the chain of one report"), "\(quiet.err)")
    }

    // MARK: the lab's lessons

    @Test func theMissingIntermediateAIALessonsChainToServeHoldsTheFetchedIntermediate() throws {
        if Self.lab == nil {
            Self.lab = try Lab.start(LabOptions(scenarios: ["missing-intermediate-aia", "wrong-order"]).patient)
        }
        let lab = try #require(Self.lab)
        let s = try #require(lab.scenarios.first { $0.name == "missing-intermediate-aia" })
        let file = pki.path("lab-aia.pem")
        let r = try CLI.run(
            ["check"] + s.targetArguments + ["--anchor", s.anchorPath, "--format", "json", "--write-chain", file])
        #expect(r.status == 0, "\(r.err)")
        let findings = try served(try r.json())
        #expect(findings.map(\.0) == ["aia-filled"])
        #expect(findings.first?.1.map(\.0) == [nil])
        #expect(findings.first?.1.map(\.1) == [1])
        // Alone, as files (no AIA), the written leaf and intermediate are trusted and served cleanly.
        #expect(try ders(file).count == 2)
        let again = try CLI.run([
            "check", "--chain", file, "--anchor", s.anchorPath, "--policy", "basic", "--format", "json",
        ])
        #expect(again.status == 0, "\(again.out)")
        #expect(try served(try again.json()).isEmpty)
        // The wrong-order lesson's command, as its lesson gives it: trusted, its two CAs out of place.
        let w = try #require(lab.scenarios.first { $0.name == "wrong-order" })
        let ordered = pki.path("lab-wrong-order.pem")
        let wr = try CLI.run(
            ["check"] + w.targetArguments + ["--anchor", w.anchorPath, "--format", "json", "--write-chain", ordered])
        #expect(wr.status == 0, "\(wr.err)")
        #expect(try served(try wr.json()).map(\.0) == ["wrong-order"])
        #expect(try ders(ordered).count == 3)
        // The lessons end with the command.
        for name in ["missing-intermediate", "missing-intermediate-aia", "wrong-order"] {
            let lesson = try #require(LabScenario.all.first { $0.name == name }).lesson
            #expect(lesson.hasSuffix("--write-chain chain.pem"), "\(name): \(lesson)")
        }
    }
}

private func servedChainTestsTearDown() { ServedChainTests.suiteTearDown() }
